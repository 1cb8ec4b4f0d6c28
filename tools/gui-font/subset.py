#!/usr/bin/env python3
"""Makes the web board's font: a subset of NanumGothic (SIL OFL 1.1,
Debian's fonts-nanum) holding ASCII, the Hanja piece names and every
Hangul/Hanja character of the page's text, written to
crates/janggi-gui/assets/fonts/janggi-board.ttf.

A dev-time tool (pip install fonttools); never run at build, test or CI
time. Run it again after adding Korean text to the page:

    python3 tools/gui-font/subset.py

The characters are taken from the same files the test
`every_korean_character_of_the_page_is_in_the_font` (crates/janggi-gui/
src/font.rs) scans. The OFL's Reserved Font Name rule means a modified
font must not be called Nanum: the subset is renamed "JanggiBoard".
"""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import nanum_subset  # noqa: E402  (tools/nanum_subset.py)

OUT = ROOT / "crates/janggi-gui/assets/fonts/janggi-board.ttf"
# Must match SCANNED in crates/janggi-gui/src/font.rs.
SCANNED = [
    "crates/janggi-gui/assets/index.html",
    "crates/janggi-gui/assets/app.js",
    "crates/janggi-gui/assets/pieces.js",
    "crates/janggi-gui/assets/sound.js",
    "crates/janggi-gui/assets/rules.js",
    "crates/janggi-gui/assets/panels.js",
    "crates/janggi-gui/assets/style.css",
    "crates/janggi-gui/src/session/mod.rs",
    "crates/janggi-gui/src/session/settings.rs",
    "crates/janggi-gui/src/session/draw.rs",
    "crates/janggi-gui/src/session/consent.rs",
    "crates/janggi-gui/src/session/warning.rs",
    "crates/janggi-gui/src/request.rs",
    "crates/janggi-gui/src/error.rs",
    "crates/janggi-gui/src/view.rs",
    "crates/janggi-gui/src/engine/mod.rs",
    "crates/janggi-gui/src/engine/turns.rs",
    "crates/janggi-gui/src/engine/analysis.rs",
    "crates/janggi-gui/src/reasons.rs",
    "crates/janggi-core/src/game/outcome.rs",
]
# Piece names in both scripts and the notation's words (janggi-core's
# korean.rs, whose parser also knows Chinese forms the page never shows).
EXTRA = "車包馬象士卒兵將漢楚차포마상사졸병궁장한초 한수쉼장군"


def korean(ch):
    o = ord(ch)
    return 0xAC00 <= o <= 0xD7A3 or 0x3130 <= o <= 0x318F or 0x4E00 <= o <= 0x9FFF


def main():
    chars = set(EXTRA)
    chars.update(chr(c) for c in range(0x20, 0x7F))
    chars.update("·–—…×±→←◀▶")
    for f in SCANNED:
        chars.update(c for c in (ROOT / f).read_text(encoding="utf-8") if korean(c))
    text = "".join(sorted(chars))
    cmap = nanum_subset.subset(OUT, "JanggiBoard", "--text=" + text)
    missing = [c for c in text if ord(c) not in cmap and c != " "]
    print(f"{OUT}: {OUT.stat().st_size} bytes, {len(text)} characters; not in the source font: {''.join(missing)!r}")


if __name__ == "__main__":
    main()
