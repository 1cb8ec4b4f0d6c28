#!/bin/sh
# Makes the font the PNG evaluation graph is drawn with
# (crates/janggi-analysis/fonts/DejaVuSans-graph.ttf): DejaVu Sans cut down
# to printable ASCII and the en dash, without hinting, so the graph's text
# renders the same everywhere and no system font is read at run time.
# Hangul (Korean file and player names in the title) comes from a second
# embedded font, made by tools/graph-font/hangul.py.
# Dev time only: needs fonttools (PyPI, `pip install fonttools`; its
# pyftsubset, run as `python3 -m fontTools.subset`) and the
# Debian package fonts-dejavu-core. Licence: crates/janggi-analysis/fonts/LICENSE.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
src=${DEJAVU:-/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf}
out="$here/crates/janggi-analysis/fonts/DejaVuSans-graph.ttf"
python3 -m fontTools.subset "$src" \
  --unicodes="U+0020-007E,U+2013" \
  --layout-features="kern" \
  --no-hinting \
  --name-IDs="*" \
  --output-file="$out"
ls -l "$out"
