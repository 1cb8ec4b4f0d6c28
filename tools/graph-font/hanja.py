#!/usr/bin/env python3
"""Makes the Hanja font of the PNG evaluation graph: NanumGothic (SIL OFL
1.1, Debian's fonts-nanum) cut down to the Hanja listed in
crates/janggi-analysis/fonts/graph-hanja.txt, written to
crates/janggi-analysis/fonts/graph-hanja.ttf (family "JanggiGraph Hanja").

The list: 楚漢 (the sides), 段級 (ranks), the piece names, numerals, the
common Korean surnames and name characters, and every Hanja that appears
in the header tags (names, ranks, titles) of the public record collection
measured in docs/records.md. Its size budget is 256 KiB (about 300 bytes a
character); all 4,620 Hanja of NanumGothic would be 1.4 MB.

A dev-time tool (pip install fonttools; apt-get install fonts-nanum); never
run at build, test or CI time:

    python3 tools/graph-font/hanja.py
"""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import nanum_subset  # noqa: E402  (tools/nanum_subset.py)

LIST = ROOT / "crates/janggi-analysis/fonts/graph-hanja.txt"
OUT = ROOT / "crates/janggi-analysis/fonts/graph-hanja.ttf"
FAMILY = "JanggiGraph Hanja"
BUDGET = 256 * 1024


def main():
    chars = LIST.read_text(encoding="utf-8").strip()
    cmap = nanum_subset.subset(OUT, FAMILY, "--text=" + chars)
    missing = [c for c in chars if ord(c) not in cmap]
    size = OUT.stat().st_size
    print(f"{OUT}: {size} bytes, {len(chars)} characters; missing: {missing}")
    if missing or size > BUDGET:
        sys.exit(1)


if __name__ == "__main__":
    main()
