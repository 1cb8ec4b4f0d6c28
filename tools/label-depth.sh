#!/usr/bin/env bash
# The label-depth comparison of issue 33 (point 2), resumable at every step:
#
#   tools/label-depth.sh DIR POSITIONS
#   tools/label-depth.sh /work/data/ld 4000000
#
# Two arms with the same search budget, from the same network:
#   A: POSITIONS positions of self-play, each move searched (and labelled)
#      at NODES_A (1,000) nodes: DIR/ld-n<NODES_A>.bin;
#   B: POSITIONS × NODES_A / NODES_B positions at NODES_B (5,000) nodes:
#      DIR/ld-n<NODES_B>.bin.
# Both play the same number of nodes in all, so about the same CPU; each
# arm's wall-clock seconds (the sum of its runs that ran to their end; a
# run cut off is not counted) go to DIR/ld-n*.seconds so the CPU actually
# spent can be compared. Each arm is
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
# EPOCHS (3), SEED (91 for A, SEED + 1 for B), NODES_A (1000), NODES_B
# (5000), LIMIT (the match's limit, tc=10+0.1; nodes=25000 is load-proof),
# GAMES (400), MATCH_SEED (93), NICE (19). MATCH=none stops after training.
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 DIR POSITIONS" >&2
    exit 2
fi
dir=$1 positions=$2
case "$positions" in
    '' | *[!0-9]*) echo "$0: POSITIONS is a whole number" >&2; exit 2 ;;
esac
na=${NODES_A:-1000} nb=${NODES_B:-5000}
for n in "$na" "$nb"; do
    case "$n" in
        '' | 0* | *[!0-9]*) echo "$0: NODES_A and NODES_B are whole numbers above 0" >&2; exit 2 ;;
    esac
done
if [ "$na" -ge "$nb" ]; then
    echo "$0: NODES_B ($nb) must be deeper than NODES_A ($na)" >&2
    exit 2
fi
if [ $((positions * na / nb)) -lt 1 ]; then
    echo "$0: POSITIONS ($positions) leaves arm B no position" >&2
    exit 2
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
cd "$(dirname "$0")/.."
tools=${JANGGI_TOOLS:-target/release/janggi-tools}
engine=${ENGINE:-target/release/janggi-engine}
match=${MATCH:-target/release/janggi-match}
[ -x "$tools" ] || cargo build --release -p janggi-tools
if [ "$match" != none ]; then
    [ -x "$match" ] || cargo build --release -p janggi-match
    [ -x "$engine" ] || cargo build --release
fi
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

arm "$na" "$positions" "$seed"
arm "$nb" $((positions * na / nb)) $((seed + 1))

if [ "$match" = none ]; then
    echo "== MATCH=none: no match"
    exit 0
fi
echo "== the match: $nb-node labels against $na-node labels (${LIMIT:-tc=10+0.1})"
"$match" --engine "cmd=$engine" "name=n$nb" "option.EvalFile=$dir/ld-n$nb.nnue" \
    --engine "cmd=$engine" "name=n$na" "option.EvalFile=$dir/ld-n$na.nnue" \
    --each "${LIMIT:-tc=10+0.1}" option.Hash=16 option.Threads=1 \
    --games "${GAMES:-400}" --concurrency 2 \
    --openings file=books/janggi-1200.epd order=random --seed "${MATCH_SEED:-93}" --variant janggi \
    --pgnout "$dir/ld.pgn" --resume 2>&1 | tee -a "$dir/ld-match.log" | grep -E '^(Score of|Elo difference|Finished match)' | tail -3
