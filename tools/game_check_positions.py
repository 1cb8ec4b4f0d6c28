#!/usr/bin/env python3
"""Development check of the hand-made mate / near-mate positions in
tests/data/game_mates.txt against Fairy-Stockfish (pyffish), variant
janggicasual: a line `mate FEN` must be in check with no legal move, a line
`notmate FEN` must have a legal move.  Not used by the tests (they run on
the committed data only); run by hand: python3 tools/game_check_positions.py
"""
import os
import sys

import pyffish as sf

path = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "game_mates.txt")
bad = 0
for line in open(path):
    line = line.split("#")[0].strip()
    if not line:
        continue
    kind, fen = line.split(" ", 1)
    check = sf.gives_check("janggicasual", fen, [])
    legal = sf.legal_moves("janggicasual", fen, [])
    mate = check and not legal
    ok = mate == (kind == "mate")
    bad += not ok
    print("ok  " if ok else "BAD ", kind, fen, "check" if check else "", len(legal), sorted(legal)[:8])
sys.exit(1 if bad else 0)
