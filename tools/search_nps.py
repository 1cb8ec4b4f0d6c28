#!/usr/bin/env python3
"""Nodes per second inside the search, engines side by side, on bench's positions.

`janggi-engine bench` times its whole loop: the 16 MB table and the
history tables are cleared before each of its 46 positions, and that
clearing is part of its `Nodes/second`. This tool times only the searches:
for each position of the bench (read from crates/janggi-search/src/bench.rs,
or `--fens FILE`, one FEN a line) it sends `ucinewgame`, waits for
`readyok` (the clearing, not timed), then `position fen …` and `go depth
D`, and takes the nodes of the engine's last `info` line and the wall
time from sending `go` to reading `bestmove` (measured here, the same way
for every engine; an engine's own `info … time` is whole milliseconds,
too coarse for searches of a few milliseconds). Engines run in turn, `--runs` times, so a noisy
machine slows all alike; it prints each engine's median nodes/second over
the runs (total nodes ÷ total search time) and, against the first engine,
the per-run ratios and their median.

    python3 tools/search_nps.py --runs 11 \
        --engine target/release/janggi-engine:EvalFile=/work/data/gen5.nnue \
        --engine /work/data/janggi-engine-gen5-065f3fb

`PATH:NAME=VALUE,NAME=VALUE` sets UCI options for that engine. Two engines
that search the same tree (same network, same search) report the same
total nodes; the tool says so, or says that they differ (then the ratio
compares different trees). Variant `janggi`, 1 thread, 16 MB; the
variant's rules are not bench's own, so the node totals differ from
bench's signature (611,513 against 565,958 with generation 5's network).
A development tool: not used by the build or CI.
"""
import argparse
import re
import statistics
import time
from pathlib import Path

from uci_engine import Engine

BENCH_RS = Path(__file__).resolve().parent.parent / "crates/janggi-search/src/bench.rs"


def bench_fens():
    text = BENCH_RS.read_text()
    body = text[text.index("FENS"):]
    body = body[:body.index("];")]
    return re.findall(r'"([^"]+)"', body)


class Timed:
    """An engine of tools/uci_engine.py with the options of its spec, timing searches."""

    def __init__(self, spec, variant):
        path, _, opts = spec.partition(":")
        self.name = spec
        self.engine = Engine(path, variant=variant, hash_mb=16)
        for o in (o for o in opts.split(",") if o):
            k, _, v = o.partition("=")
            self.engine.send(f"setoption name {k} value {v}")

    def search(self, fen, depth):
        """(nodes, ms) of one fresh search of `fen` to `depth`."""
        e = self.engine
        e.send("ucinewgame")
        e.send(f"position fen {fen}")
        e.send("isready")
        e.wait("readyok")
        start = time.perf_counter()
        e.send(f"go depth {depth}")
        nodes = None
        while True:
            line = e.p.stdout.readline()
            if not line:
                raise RuntimeError(f"{self.name}: exited during a search")
            f = line.split()
            if f and f[0] == "info" and "nodes" in f:
                nodes = int(f[f.index("nodes") + 1])
            if f and f[0] == "bestmove":
                break
        ms = (time.perf_counter() - start) * 1000
        if nodes is None:
            raise RuntimeError(f"{self.name}: no info line with nodes for {fen}")
        return nodes, ms

    def close(self):
        self.engine.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", action="append", required=True,
                    help="PATH or PATH:OPTION=VALUE,... (repeat; the first is the baseline)")
    ap.add_argument("--depth", type=int, default=9, help="bench's default depth: 9")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--variant", default="janggi")
    ap.add_argument("--fens", help="a file of FENs, one a line (default: bench's positions)")
    a = ap.parse_args()
    fens = ([ln.strip() for ln in open(a.fens) if ln.strip()] if a.fens else bench_fens())
    engines = [Timed(spec, a.variant) for spec in a.engine]
    runs = {e.name: [] for e in engines}
    for r in range(a.runs):
        for e in engines:
            nodes = ms = 0
            for fen in fens:
                n, t = e.search(fen, a.depth)
                nodes += n
                ms += t
            runs[e.name].append((nodes, ms))
            print(f"run {r + 1}: {e.name}: {nodes} nodes in {ms:.1f} ms, {nodes * 1000 / ms:.0f} nps",
                  flush=True)
    for e in engines:
        e.close()
    base = engines[0].name
    print(f"\n{len(fens)} positions, depth {a.depth}, {a.runs} runs, engines in turn")
    print("| engine | nodes | median search ms | median nps | median ratio to the first |")
    print("|---|---|---|---|---|")
    for e in engines:
        rs = runs[e.name]
        nps = [n * 1000 / max(t, 1) for n, t in rs]
        ratios = [x / (bn * 1000 / max(bt, 1)) for x, (bn, bt) in zip(nps, runs[base])]
        nodes = sorted({n for n, _ in rs})
        print(f"| {e.name} | {'/'.join(map(str, nodes))} | {statistics.median(t for _, t in rs):.0f} "
              f"| {statistics.median(nps):.0f} | {statistics.median(ratios):.3f} "
              f"(runs {min(ratios):.2f}–{max(ratios):.2f}) |")
    totals = {runs[e.name][0][0] for e in engines}
    print("same tree: every engine searched the same total nodes" if len(totals) == 1
          else "different trees: the engines' node totals differ, so the ratio compares different searches")


if __name__ == "__main__":
    main()
