#!/usr/bin/env python3
"""Time to depth from the start position, for engines side by side.

Runs `go depth D` from `position startpos` (UCI, variant janggi, one
thread, 16 MB hash) for each engine, `--runs` times in turn, and prints
the median wall time (from the engine's own `info ... time`) at which each
depth in `--depths` was completed, with nodes and nps of that iteration.

    python3 tools/time_to_depth.py --engine target/release/janggi-engine \
        --engine /path/to/fairy-stockfish --depths 10 12 --runs 3

`--threads 1 2` runs each engine at each thread count (Lazy SMP time to
depth; the helper threads' results vary from run to run, hence the median).
"""
import argparse
import statistics
import subprocess


def run(cmd, depth, variant, threads=1):
    p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def until(prefix):
        out = []
        for line in p.stdout:
            out.append(line.strip())
            if line.startswith(prefix):
                return out
        raise RuntimeError(f"{cmd}: no '{prefix}'")

    send("uci")
    until("uciok")
    for opt in (f"UCI_Variant value {variant}", f"Threads value {threads}", "Hash value 16"):
        send(f"setoption name {opt}")
    send("ucinewgame")
    send("isready")
    until("readyok")
    send("position startpos")
    send(f"go depth {depth}")
    lines = until("bestmove")
    send("quit")
    p.wait(timeout=10)
    seen = {}
    for line in lines:
        f = line.split()
        if len(f) < 3 or f[0] != "info" or "depth" not in f or "time" not in f:
            continue
        if "multipv" in f and f[f.index("multipv") + 1] != "1":
            continue
        d = int(f[f.index("depth") + 1])
        t = int(f[f.index("time") + 1])
        n = int(f[f.index("nodes") + 1]) if "nodes" in f else 0
        # The last report of a depth is the completed iteration.
        seen[d] = (t, n)
    return seen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", action="append", required=True)
    ap.add_argument("--depths", type=int, nargs="+", default=[10, 12])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--variant", default="janggi")
    ap.add_argument("--threads", type=int, nargs="+", default=[1],
                    help="thread counts, each engine run at each (Lazy SMP time to depth)")
    a = ap.parse_args()
    top = max(a.depths)
    keys = [(e, th) for e in a.engine for th in a.threads]
    results = {k: [] for k in keys}
    for _ in range(a.runs):
        for e, th in keys:
            results[(e, th)].append(run(e, top, a.variant, th))
    print("| engine | threads | depth | median time (ms) | nodes | nps |")
    print("|---|---|---|---|---|---|")
    for e, th in keys:
        for d in a.depths:
            runs = [r[d] for r in results[(e, th)] if d in r]
            if not runs:
                print(f"| {e} | {th} | {d} | not reached | | |")
                continue
            t = statistics.median(x[0] for x in runs)
            n = statistics.median(x[1] for x in runs)
            nps = int(n * 1000 / max(t, 1))
            print(f"| {e} | {th} | {d} | {t:.0f} | {n:.0f} | {nps} |")


if __name__ == "__main__":
    main()
