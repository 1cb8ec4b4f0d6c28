"""NanumGothic cut down and renamed: the one step behind both embedded
Korean fonts (tools/gui-font/subset.py for the web board,
tools/graph-font/hangul.py for the PNG graph).

A dev-time helper (pip install fonttools; apt-get install fonts-nanum);
never run at build, test or CI time. The OFL's Reserved Font Name rule
means a modified font must not be called Nanum, so every subset gets its
own family name.
"""
import pathlib
import subprocess
import sys

from fontTools.ttLib import TTFont

SOURCE = pathlib.Path("/usr/share/fonts/truetype/nanum/NanumGothic.ttf")


def subset(out, family, select):
    """Writes NanumGothic cut down to `select` (pyftsubset's `--text=…` or
    `--unicodes=…`) to `out`, its family renamed `family`; returns the
    font's character map (code point to glyph name)."""
    out = pathlib.Path(out)
    tmp = out.with_suffix(".tmp.ttf")
    subprocess.run(
        [
            sys.executable, "-m", "fontTools.subset", str(SOURCE),
            select, "--output-file=" + str(tmp),
            "--layout-features=", "--no-hinting", "--desubroutinize",
            "--name-IDs=0,1,2,3,4,5,6,13,14",
        ],
        check=True,
    )
    font = TTFont(str(tmp))
    for rec in font["name"].names:
        if rec.nameID in (1, 4, 16):
            rec.string = family
        elif rec.nameID == 3:
            rec.string = family + " subset of NanumGothic"
        elif rec.nameID == 6:
            rec.string = family.replace(" ", "") + "-Regular"
    font.save(str(out))
    tmp.unlink()
    return font.getBestCmap()
