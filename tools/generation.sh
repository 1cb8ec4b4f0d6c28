#!/usr/bin/env bash
# One network generation from nothing, resumable at every step:
#
#   tools/generation.sh GEN DIR POSITIONS
#   tools/generation.sh 3 /work/data 10000000
#
# 1. self-play data with the previous network: DIR/gen<GEN>data.bin, appended
#    to until it holds POSITIONS positions (run it again after any
#    interruption: datagen cuts a part game off and goes on);
# 2. the growing set: the file's positions that DIR/set (or SET) does not
#    hold yet are added as its next part (`janggi-tools dataset add`:
#    deduplicated, with the file's provenance in DIR/set/manifest.tsv);
# 3. training on the whole set: DIR/gen<GEN>.nnue (and .ckpt, -train.log),
#    done again only when the network is missing or the set grew since;
# 4. prints the match against the previous network (books/janggi-1200.epd).
#
# Settings (environment): JANGGI_TOOLS (default target/release/janggi-tools,
# built if missing), PREV_NET (network to play the data with; default the
# one embedded in JANGGI_TOOLS), EVAL (nnue; hce for the handcrafted
# evaluation), NODES (1000 a move), SEED (GEN + 1), THREADS (all cores),
# EPOCHS (3), LR (0.001), LR_DECAY (0.25), INIT_FROM (a network to
# warm-start from, e.g. nets/default.nnue), SET (the growing set's
# directory, default DIR/set), EXTRA_DATA (more data files to train on,
# space separated), NICE (19: data generation yields to everything else).
# docs/nnue.md records what each generation was made with.
set -euo pipefail
if [ $# -ne 3 ]; then
    echo "usage: $0 GEN DIR POSITIONS" >&2
    exit 2
fi
gen=$1 dir=$2 positions=$3
case "$gen$positions" in
    *[!0-9]*) echo "$0: GEN and POSITIONS are whole numbers" >&2; exit 2 ;;
esac
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
cd "$(dirname "$0")/.."
tools=${JANGGI_TOOLS:-target/release/janggi-tools}
if [ ! -x "$tools" ]; then
    cargo build --release -p janggi-tools
fi
data="$dir/gen${gen}data.bin"
net="$dir/gen${gen}.nnue"
threads=()
if [ -n "${THREADS:-}" ]; then threads=(--threads "$THREADS"); fi
prev=()
if [ -n "${PREV_NET:-}" ]; then prev=(--eval-file "$PREV_NET"); fi

echo "== generation $gen: data ($data, $positions positions)"
nice -n "${NICE:-19}" "$tools" datagen --out "$data" --positions "$positions" \
    --nodes "${NODES:-1000}" --eval "${EVAL:-nnue}" "${prev[@]}" "${threads[@]}" \
    --seed "${SEED:-$((gen + 1))}" --quiet

set=${SET:-$dir/set}
echo "== generation $gen: the growing set ($set)"
"$tools" dataset add --set "$set" --data "$data" --generation "$gen"

# The network records the set it was trained on (its manifest's size in
# bytes: a new part adds a line).
stamp="$net.data-bytes"
size=$(wc -c <"$set/manifest.tsv" | tr -d ' ')
init=()
if [ -n "${INIT_FROM:-}" ]; then init=(--init-from "$INIT_FROM"); fi
if [ -f "$net" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$size" ]; then
    echo "== generation $gen: $net was trained on this set (manifest $size bytes), not trained again"
else
    echo "== generation $gen: training ($net)"
    # shellcheck disable=SC2086 # EXTRA_DATA is a list of files
    "$tools" train --data "$set" ${EXTRA_DATA:-} --out "$net.part" \
        --checkpoint "$dir/gen${gen}.ckpt" --epochs "${EPOCHS:-3}" "${init[@]}" \
        --lr "${LR:-0.001}" --lr-decay "${LR_DECAY:-0.25}" "${threads[@]}" --seed 1 \
        2>&1 | tee "$dir/gen${gen}-train.log"
    mv "$net.part" "$net"
    echo "$size" >"$stamp"
fi

echo "== generation $gen: $net"
echo "match against the previous network:"
echo "  target/release/janggi-match --engine cmd=target/release/janggi-engine name=gen$gen option.EvalFile=$net \\"
echo "    --engine cmd=target/release/janggi-engine name=gen$((gen - 1))${PREV_NET:+ option.EvalFile=$PREV_NET} \\"
echo "    --each tc=10+0.1 --openings file=books/janggi-1200.epd order=sequential --games 400 \\"
echo "    --concurrency 2 --variant janggi --pgnout $dir/gen$gen-vs-gen$((gen - 1)).pgn"
