#!/usr/bin/env python3
"""Makes the Hangul font of the PNG evaluation graph: NanumGothic (SIL OFL
1.1, Debian's fonts-nanum) cut down to every Hangul syllable (U+AC00 to
U+D7A3, all 11,172) and the compatibility jamo (U+3131 to U+318E), written
to crates/janggi-analysis/fonts/graph-hangul.ttf.

The graph's own font (DejaVu Sans cut down to ASCII, made by
tools/make_graph_font.sh) has no Hangul; resvg falls back to this one for
a Korean file or player name in the title (crates/janggi-analysis/src/png.rs).

A dev-time tool (pip install fonttools; apt-get install fonts-nanum); never
run at build, test or CI time:

    python3 tools/graph-font/hangul.py

The OFL's Reserved Font Name rule means a modified font must not be called
Nanum: the subset is renamed "JanggiGraph Hangul".
"""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import nanum_subset  # noqa: E402  (tools/nanum_subset.py)

OUT = ROOT / "crates/janggi-analysis/fonts/graph-hangul.ttf"
FAMILY = "JanggiGraph Hangul"
# Must match `drawable` in crates/janggi-analysis/src/png.rs.
RANGES = [(0xAC00, 0xD7A3), (0x3131, 0x318E)]


def main():
    unicodes = ",".join(f"U+{a:04X}-{b:04X}" for a, b in RANGES)
    cmap = nanum_subset.subset(OUT, FAMILY, "--unicodes=" + unicodes)
    missing = [
        f"U+{c:04X}" for a, b in RANGES for c in range(a, b + 1) if c not in cmap
    ]
    print(f"{OUT}: {OUT.stat().st_size} bytes; missing from the source font: {missing}")
    if missing:
        sys.exit(1)


if __name__ == "__main__":
    main()
