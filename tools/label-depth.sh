#!/usr/bin/env bash
# The label-depth comparison of issue 33 (point 2), resumable at every step:
#
#   tools/label-depth.sh DIR POSITIONS
#   tools/label-depth.sh /work/data/ld 4000000
#
# Two arms with the same search budget, from the same network:
#   A: POSITIONS positions of self-play, each move searched (and labelled)
#      at 1,000 nodes: DIR/ld-n1000.bin;
#   B: POSITIONS / 5 positions at 5,000 nodes: DIR/ld-n5000.bin.
# Both play the same number of nodes in all, so about the same CPU; each
# arm's wall-clock seconds (the sum of its runs, cut-offs included) go to
# DIR/ld-n*.seconds so the CPU actually spent can be compared. Each arm is
# trained alone from the same warm start with the same settings
# (DIR/ld-n*.nnue), then the two networks play each other (DIR/ld.pgn,
# `--resume`: a cut-off match goes on). The match decides which labels
# pay; docs/nnue.md ("Deeper labels") records the result. A network is
# trained once: after growing an arm's data, delete its .nnue to train again.
#
# Settings (environment): JANGGI_TOOLS (default target/release/janggi-tools,
# built if missing), ENGINE (target/release/janggi-engine), MATCH
# (target/release/janggi-match), INIT_FROM (nets/default.nnue: the network
# the data is played with and the warm start), LR (0.0001), LR_DECAY (0.5),
# EPOCHS (3), SEED (91 for A, SEED + 1 for B), LIMIT (the match's limit,
# tc=10+0.1), GAMES (400), MATCH_SEED (93), NICE (19).
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 DIR POSITIONS" >&2
    exit 2
fi
dir=$1 positions=$2
case "$positions" in
    '' | *[!0-9]*) echo "$0: POSITIONS is a whole number" >&2; exit 2 ;;
esac
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
cd "$(dirname "$0")/.."
tools=${JANGGI_TOOLS:-target/release/janggi-tools}
engine=${ENGINE:-target/release/janggi-engine}
match=${MATCH:-target/release/janggi-match}
[ -x "$tools" ] || cargo build --release -p janggi-tools
[ -x "$match" ] || cargo build --release -p janggi-match
[ -x "$engine" ] || cargo build --release
init=${INIT_FROM:-nets/default.nnue}
seed=${SEED:-91}

arm() { # NODES POSITIONS SEED
    local nodes=$1 want=$2 s=$3
    local data="$dir/ld-n$nodes.bin" net="$dir/ld-n$nodes.nnue"
    echo "== arm $nodes nodes: $data ($want positions, seed $s)"
    local t0
    t0=$(date +%s)
    nice -n "${NICE:-19}" "$tools" datagen --out "$data" --positions "$want" --nodes "$nodes" \
        --eval nnue --eval-file "$init" --seed "$s" --quiet
    echo $(($(date +%s) - t0)) >>"$dir/ld-n$nodes.seconds"
    echo "   data: $(awk '{s += $1} END {print s}' "$dir/ld-n$nodes.seconds") s of wall clock in all"
    if [ -f "$net" ]; then
        echo "   $net exists, not trained again"
        return
    fi
    echo "== arm $nodes nodes: training $net"
    "$tools" train --data "$data" --out "$net.part" --checkpoint "$dir/ld-n$nodes.ckpt" \
        --init-from "$init" --lr "${LR:-0.0001}" --lr-decay "${LR_DECAY:-0.5}" \
        --epochs "${EPOCHS:-3}" --seed 1 2>&1 | tee "$dir/ld-n$nodes-train.log"
    mv "$net.part" "$net"
}

arm 1000 "$positions" "$seed"
arm 5000 $((positions / 5)) $((seed + 1))

echo "== the match: 5,000-node labels against 1,000-node labels (${LIMIT:-tc=10+0.1})"
"$match" --engine "cmd=$engine" name=n5000 "option.EvalFile=$dir/ld-n5000.nnue" \
    --engine "cmd=$engine" name=n1000 "option.EvalFile=$dir/ld-n1000.nnue" \
    --each "${LIMIT:-tc=10+0.1}" option.Hash=16 option.Threads=1 \
    --games "${GAMES:-400}" --concurrency 2 \
    --openings file=books/janggi-1200.epd order=random --seed "${MATCH_SEED:-93}" --variant janggi \
    --pgnout "$dir/ld.pgn" --resume 2>&1 | tee -a "$dir/ld-match.log" | grep -E '^(Score of|Elo difference|Finished match)' | tail -3
