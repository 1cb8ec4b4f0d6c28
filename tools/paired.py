#!/usr/bin/env python3
"""Paired reading of two engines' matches on the same games against one opponent.

    python3 tools/paired.py A.pgn ENGINE_A B.pgn ENGINE_B

Both PGN files come from janggi-match runs with the same seed, book, game
count and opponent (say the candidate network and its parent, each against
Fairy-Stockfish), so game N of one file is game N of the other: the same
opening (`Opening` tag) with the same colours. The script pairs the games
by `Round`, refuses pairs whose opening or colours differ, and prints:

* each engine's W-L-D over the paired games;
* the table of outcomes (both won, A only, B only, both lost, …);
* the two-sided sign test over the games where the outcomes differ (exact
  binomial; a draw against a win or a loss counts as one game where they
  differ), the cheapest reading of whether A and B differ against that
  opponent.

Development tool, not part of the engine or of CI (docs/nnue.md, "What the
Fairy-Stockfish rows say about the generations").
"""

import sys
from collections import Counter
from math import comb

from match_report import games_of  # tools/ is on the path when run as a script


def games(path, engine):
    """Round -> (outcome W/L/D for `engine`, Opening, engine is Cho)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out = {}
    for tags, _comments in games_of(text):
        result = tags.get("Result")
        if result not in ("1-0", "0-1", "1/2-1/2"):
            continue  # aborted or unfinished
        white = tags.get("White")
        if engine not in (white, tags.get("Black")):
            continue
        cho = white == engine
        if result == "1/2-1/2":
            outcome = "D"
        else:
            outcome = "W" if (result == "1-0") == cho else "L"
        try:
            rnd = int(tags.get("Round", ""))
        except ValueError:
            continue
        out[rnd] = (outcome, tags.get("Opening", tags.get("FEN", "?")), cho)
    return out


def sign_test(a_only, b_only):
    """Two-sided exact binomial p for a_only against b_only at 1/2."""
    n = a_only + b_only
    if n == 0:
        return 1.0
    k = min(a_only, b_only)
    tail = sum(comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def main(argv):
    if len(argv) != 5:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    _, pa, ea, pb, eb = argv
    try:
        a, b = games(pa, ea), games(pb, eb)
    except OSError as e:
        print(e, file=sys.stderr)
        return 2
    rounds = sorted(set(a) & set(b))
    if not rounds:
        print(f"no game of {ea} in {pa} pairs with one of {eb} in {pb}", file=sys.stderr)
        return 2
    for r in rounds:
        if a[r][1:] != b[r][1:]:
            print(
                f"game {r} is not the same game: {ea} {a[r][1]} as "
                f"{'Cho' if a[r][2] else 'Han'}, {eb} {b[r][1]} as "
                f"{'Cho' if b[r][2] else 'Han'} (same seed, book and game count?)",
                file=sys.stderr,
            )
            return 2
    table = Counter((a[r][0], b[r][0]) for r in rounds)
    for name, side in ((ea, a), (eb, b)):
        t = Counter(side[r][0] for r in rounds)
        print(f"{name}: {t['W']}-{t['L']}-{t['D']} over {len(rounds)} paired games")
    a_only = sum(v for (x, y), v in table.items() if (x, y) in (("W", "L"), ("W", "D"), ("D", "L")))
    b_only = sum(v for (x, y), v in table.items() if (x, y) in (("L", "W"), ("D", "W"), ("L", "D")))
    for (x, y), v in sorted(table.items()):
        print(f"  {ea} {x} / {eb} {y}: {v}")
    print(
        f"{ea} better in {a_only}, {eb} better in {b_only}; "
        f"sign test p = {sign_test(a_only, b_only):.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
