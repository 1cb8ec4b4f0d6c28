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
import subprocess
import sys

from fontTools.ttLib import TTFont

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCE = pathlib.Path("/usr/share/fonts/truetype/nanum/NanumGothic.ttf")
OUT = ROOT / "crates/janggi-analysis/fonts/graph-hangul.ttf"
FAMILY = "JanggiGraph Hangul"
# Must match `in_hangul_font` in crates/janggi-analysis/src/png.rs.
RANGES = [(0xAC00, 0xD7A3), (0x3131, 0x318E)]


def main():
    tmp = OUT.with_suffix(".tmp.ttf")
    unicodes = ",".join(f"U+{a:04X}-{b:04X}" for a, b in RANGES)
    subprocess.run(
        [
            sys.executable, "-m", "fontTools.subset", str(SOURCE),
            "--unicodes=" + unicodes, "--output-file=" + str(tmp),
            "--layout-features=", "--no-hinting", "--desubroutinize",
            "--name-IDs=0,1,2,3,4,5,6,13,14",
        ],
        check=True,
    )
    font = TTFont(str(tmp))
    for rec in font["name"].names:
        if rec.nameID in (1, 4, 16):
            rec.string = FAMILY
        elif rec.nameID == 3:
            rec.string = FAMILY + " subset of NanumGothic"
        elif rec.nameID == 6:
            rec.string = FAMILY.replace(" ", "") + "-Regular"
    font.save(str(OUT))
    tmp.unlink()
    cmap = font.getBestCmap()
    missing = [
        f"U+{c:04X}" for a, b in RANGES for c in range(a, b + 1) if c not in cmap
    ]
    print(f"{OUT}: {OUT.stat().st_size} bytes; missing from the source font: {missing}")
    if missing:
        sys.exit(1)


if __name__ == "__main__":
    main()
