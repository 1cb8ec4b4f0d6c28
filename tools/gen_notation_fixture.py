#!/usr/bin/env python3
"""Writes tests/data/fsf_notation.txt: random Janggi games with each move in
UCI, in Fairy-Stockfish's Janggi notation (NOTATION_JANGGI, e.g. H02-83) and
in its SAN (Hc3, Pab4), as pyffish (Fairy-Stockfish's Python bindings) prints
them. A development script: the fixture is committed, tests never run this.

    pip install pyffish && python3 tools/gen_notation_fixture.py
"""
import random
import pyffish as sf

OUT = "crates/janggi-core/tests/data/fsf_notation.txt"
GAMES = 200
MAX_PLIES = 120

SETUPS = ["nbbn", "bnnb", "bnbn", "nbnb"]  # MSSM SMMS SMSM MSMS, left to right


def start_fen(han, cho):
    back = lambda s: "r" + s[:2] + "a1a" + s[2:] + "r"
    h = back(han)
    c = back(cho).upper()
    return f"{h}/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/{c} w - - 0 1"


def main():
    rng = random.Random(20261201)
    lines = ["# UCI move, Fairy-Stockfish NOTATION_JANGGI, Fairy-Stockfish SAN;",
             "# one game a block: 'fen FEN', then 'move UCI JANGGI SAN' lines.",
             f"# Made by tools/gen_notation_fixture.py with pyffish {sf.version()}."]
    for g in range(GAMES):
        han, cho = rng.choice(SETUPS), rng.choice(SETUPS)
        fen = start_fen(han, cho)
        lines.append(f"fen {fen}")
        cur = fen
        last_pass = False
        for _ in range(rng.randint(10, MAX_PLIES)):
            # The game goes on from the FEN after each move: the notation
            # depends on the position alone (no history needed).
            legal = sf.legal_moves("janggi", cur, [])
            if not legal:
                break
            # Checks now and then, so check marks and evasions appear.
            checks = []
            if rng.random() < 0.2:
                checks = [m for m in legal if sf.gives_check("janggi", cur, [m])]
            m = rng.choice(checks) if checks else rng.choice(legal)
            jn = sf.get_san("janggi", cur, m, False, sf.NOTATION_JANGGI)
            san = sf.get_san("janggi", cur, m)
            lines.append(f"move {m} {jn} {san}")
            # Two passes in a row end the game (the FEN does not remember
            # the first one, so the script does).
            is_pass = m[:len(m) // 2] == m[len(m) // 2:]
            if sf.is_immediate_game_end("janggi", cur, [m])[0] or (is_pass and last_pass):
                break
            last_pass = is_pass
            cur = sf.get_fen("janggi", cur, [m])
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
