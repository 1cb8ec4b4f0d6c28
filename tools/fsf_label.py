#!/usr/bin/env python3
"""Label `FEN result` tuning lines with Fairy-Stockfish's search scores.

Development tool (not used by the build or CI); see tools/texel.md,
"1c. Scores from a stronger engine".

Reads `FEN result` lines (tools/texel.rs `gen` or `pgn` output), searches
each position with a Fairy-Stockfish binary at a fixed depth and writes
`FEN label`, where

    label = blend * result + (1 - blend) * p,
    p     = 1 / (1 + 10 ** (-scale * cp / 400))   (Cho's view; mate = 1 or 0)

Several engine processes run side by side (`--jobs`); output keeps the
input order. Lines that do not parse are copied unchanged.

    python3 tools/fsf_label.py --engine /path/to/stockfish --depth 8 \
        --jobs 2 --blend 0.5 data.txt labelled.txt
"""
import argparse
import sys
import threading

from uci_engine import Engine


def label(line, eng, args):
    parts = line.split()
    if len(parts) < 3:
        return line
    fen, result = " ".join(parts[:-1]), parts[-1]
    try:
        r = float(result)
    except ValueError:
        return line
    s = eng.score(fen, args.depth)
    if s is None:
        return line
    kind, v = s
    if kind == "mate":
        p = 1.0 if v > 0 else 0.0
    else:
        p = 1.0 / (1.0 + 10 ** (-args.scale * v / 400.0))
    cho_to_move = parts[-6] == "w" if len(parts) >= 7 else True
    if not cho_to_move:
        p = 1.0 - p
    y = args.blend * r + (1 - args.blend) * p
    return f"{fen} {y:.4f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", required=True)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--blend", type=float, default=0.5,
                    help="weight of the game result (1 = result only)")
    ap.add_argument("--scale", type=float, default=0.75,
                    help="win probability of cp: 1/(1+10^(-scale*cp/400))")
    ap.add_argument("--every", type=int, default=1, help="keep every n-th line")
    ap.add_argument("input")
    ap.add_argument("output")
    args = ap.parse_args()
    lines = [l.rstrip("\n") for i, l in enumerate(open(args.input)) if i % args.every == 0]
    out = [None] * len(lines)
    done = [0]
    lock = threading.Lock()

    def work(k):
        eng = Engine(args.engine, hash_mb=args.hash)
        try:
            for i in range(k, len(lines), args.jobs):
                out[i] = label(lines[i], eng, args)
                with lock:
                    done[0] += 1
                    if done[0] % 5000 == 0:
                        print(f"{done[0]}/{len(lines)}", file=sys.stderr, flush=True)
        finally:
            eng.close()

    threads = [threading.Thread(target=work, args=(k,)) for k in range(args.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with open(args.output, "w") as f:
        for l in out:
            f.write(l + "\n")


if __name__ == "__main__":
    main()
