#!/usr/bin/env python3
"""Make the tactics suite (tests/data/tactics.txt) with Fairy-Stockfish as
the oracle.

Development tool, not used by the build or CI (tests/tactics.rs reads the
file it writes). Needs a Fairy-Stockfish binary built outside the project
(`make -j2 build ARCH=x86-64-modern largeboards=yes`) and PyPI's pyffish.

Games are played from the start position by Fairy-Stockfish at a shallow
depth, with a random legal move mixed in now and then so that blunders,
and so mates, happen. Each position where the shallow search sees a large
advantage is searched again at `--verify-depth`; a position is kept when
that search reports `mate N` (1 <= N <= 5) for the side to move. Mates in
1 and 2 are checked again by brute force through pyffish (every reply
considered), so they do not rest on the engine's search alone. Each mate
length is capped at `--per-n` positions so that the longer mates are not
swamped by mates in one.

    python3 tools/tactics_suite.py --engine /work/fsf/src/src/stockfish \
        --games 600 --per-n 50 --seed 1 --out tests/data/tactics.txt

Output: one position a line, `variant N FEN ; bm MOVE ; source`, with
`MOVE` Fairy-Stockfish's first move of the mate (UCI coordinates).
"""
import argparse
import random
import sys

import pyffish as sf

from uci_engine import Engine


def is_mate(variant, fen):
    """The side to move is checkmated (in check, no legal move)."""
    return sf.gives_check(variant, fen, []) and not sf.legal_moves(variant, fen, [])


def after(variant, fen, move):
    return sf.get_fen(variant, fen, [move])


def mate_in_1(variant, fen):
    return [m for m in sf.legal_moves(variant, fen, []) if is_mate(variant, after(variant, fen, m))]


def forces_mate_in_2(variant, fen, move):
    f1 = after(variant, fen, move)
    replies = sf.legal_moves(variant, f1, [])
    if not replies:
        return False
    return all(mate_in_1(variant, after(variant, f1, r)) for r in replies)


def checked(variant, fen, n, bm, pv):
    """The oracle's line ends in checkmate (not a win on points after
    bikjang, which Fairy-Stockfish also scores as mate), and mates in 1 and
    2 are confirmed by brute force."""
    if len(pv) != 2 * n - 1 or pv[0] != bm:
        return False
    try:
        end = sf.get_fen(variant, fen, pv)
    except Exception:
        return False
    if not is_mate(variant, end):
        return False
    if n == 1:
        return is_mate(variant, after(variant, fen, bm))
    if n == 2:
        return not mate_in_1(variant, fen) and forces_mate_in_2(variant, fen, bm)
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True)
    ap.add_argument("--variant", default="janggi")
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--play-depth", type=int, default=4)
    ap.add_argument("--verify-depth", type=int, default=14)
    ap.add_argument("--verify-per-game", type=int, default=10,
                    help="deep searches a game at most (later positions of a won game are alike)")
    ap.add_argument("--random", type=float, default=0.2, help="share of random moves")
    ap.add_argument("--per-n", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--recheck", help="a suite file whose positions are searched again under --variant "
                    "instead of playing games (their old labels are ignored)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    eng = Engine(a.engine, a.variant)
    start = sf.start_fen(a.variant)
    found = {}  # fen -> (n, bm, source)
    counts = {n: 0 for n in range(1, 6)}
    rejected = 0
    out = open(a.out, "a")  # appended a position at a time: an interrupted run keeps its finds
    if a.recheck:
        for line in open(a.recheck):
            if not line.strip() or line.startswith("#"):
                continue
            head, _, src = line.rstrip("\n").split(" ; ")
            fen = head.split(" ", 2)[2]
            vscore, vbm, vpv = eng.go(fen, a.verify_depth)
            if vscore and vscore[0] == "mate" and 1 <= vscore[1] <= 5 \
                    and checked(a.variant, fen, vscore[1], vbm, vpv) and fen not in found:
                found[fen] = (vscore[1], vbm, src)
                out.write(f"{a.variant} {vscore[1]} {fen} ; bm {vbm} ; {src}\n")
                out.flush()
            else:
                rejected += 1
        print(f"rechecked: kept {len(found)}, rejected {rejected}", file=sys.stderr)
        a.games = 0
    for game in range(a.games):
        if all(c >= a.per_n for c in counts.values()):
            break
        eng.new_game()
        fen = start
        verified = 0
        kept_here = set()  # mate lengths kept from this game (one each)
        for ply in range(200):
            moves = sf.legal_moves(a.variant, fen, [])
            if not moves or sf.is_optional_game_end(a.variant, fen, [])[0] \
                    or sf.is_immediate_game_end(a.variant, fen, [])[0]:
                break
            score, bm, _ = eng.go(fen, a.play_depth)
            if ply >= 8 and score and fen not in found and verified < a.verify_per_game and (
                    score[0] == "mate" and score[1] > 0 or score[0] == "cp" and score[1] > 2500):
                verified += 1
                vscore, vbm, vpv = eng.go(fen, a.verify_depth)
                if vscore and vscore[0] == "mate" and 1 <= vscore[1] <= 5:
                    n = vscore[1]
                    if counts[n] < a.per_n and n not in kept_here:
                        if checked(a.variant, fen, n, vbm, vpv):
                            found[fen] = (n, vbm, f"game {game} ply {ply} seed {a.seed}")
                            out.write(f"{a.variant} {n} {fen} ; bm {vbm} ; {found[fen][2]}\n")
                            out.flush()
                            counts[n] += 1
                            kept_here.add(n)
                        else:
                            rejected += 1
            if bm in (None, "(none)"):
                break
            mv = rng.choice(moves) if rng.random() < a.random else bm
            fen = after(a.variant, fen, mv)
        print(f"game {game}: {counts} rejected {rejected}", file=sys.stderr, flush=True)
    out.close()
    eng.close()


if __name__ == "__main__":
    main()
