#!/usr/bin/env bash
# Search switches, one SPRT each, one after another, resumable:
#
#   tools/sprt-queue.sh QUEUE DIR
#   tools/sprt-queue.sh tools/sprt-queue.txt /work/tune
#
# QUEUE has one test a line, `NAME SEARCHTUNE` (`#` starts a comment), e.g.
# `cont1 cont_hist=1`. Each is played as its own SPRT against the defaults
# of the same tuning build (`--features tune`), from books/janggi-1200.epd in
# seeded random order, each opening with both colours, no adjudication,
# into DIR/NAME.log and DIR/NAME.pgn. A test whose log ends in
# "Finished match" is done and skipped when the queue is run again; one cut
# off (session end, reboot) goes on from its PGN file (`janggi-match
# --resume`, same seed): the games finished before the cut count, in the
# order they were played, the others are played, and the test goes on as
# if never stopped (its log grows by a run). At the end a table of every
# test is printed for docs/strength.md.
#
# Settings (environment): TUNE (the tuning engine; default
# target/release/janggi-tune, built with `cargo build --release --features
# tune` and copied there when missing), MATCH (default
# target/release/janggi-match), TC (8+0.08), LIMIT (the thinking limit in
# the runner's words; default `tc=$TC`; `LIMIT=nodes=25000` screens a switch
# at a fixed node count, which the machine's load cannot touch but which
# does not charge a switch for the speed it costs), ELO0 (0), ELO1 (5),
# GAMES (the most games a test may take, 4000), SEED (500: test k of the
# queue gets SEED + k), CONCURRENCY (2).
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 QUEUE DIR" >&2
    exit 2
fi
queue=$1 dir=$2
[ -f "$queue" ] || { echo "$0: no queue file $queue" >&2; exit 2; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
queue=$(cd "$(dirname "$queue")" && pwd)/$(basename "$queue")
cd "$(dirname "$0")/.."
tune=${TUNE:-target/release/janggi-tune}
match=${MATCH:-target/release/janggi-match}
if [ ! -x "$tune" ]; then
    cargo build --release --features tune
    cp target/release/janggi-engine "$tune"
fi
if [ ! -x "$match" ]; then
    cargo build --release -p janggi-match
fi
limit=${LIMIT:-tc=${TC:-8+0.08}} elo0=${ELO0:-0} elo1=${ELO1:-5} games=${GAMES:-4000}
seed=${SEED:-500} conc=${CONCURRENCY:-2}

k=0
while read -r name params rest; do
    case "$name" in ''|'#'*) continue ;; esac
    k=$((k + 1))
    if [ -n "${rest:-}" ] || [ -z "${params:-}" ]; then
        echo "$0: line '$name $params $rest': want NAME SEARCHTUNE" >&2
        exit 2
    fi
    log="$dir/$name.log"
    if [ -f "$log" ] && grep -q '^Finished match' "$log"; then
        echo "$name: done ($(grep '^Finished match' "$log"))"
        continue
    fi
    echo "$name: SearchTune=$params, $limit, seed $((seed + k)), from $(date -u +%H:%M)"
    "$match" --engine "cmd=$tune" "name=$name" "option.SearchTune=$params" \
        --engine "cmd=$tune" name=base --each "$limit" option.Hash=16 option.Threads=1 \
        --games "$games" --concurrency "$conc" \
        --openings file=books/janggi-1200.epd order=random --seed "$((seed + k))" --variant janggi \
        --sprt "elo0=$elo0" "elo1=$elo1" alpha=0.05 beta=0.05 \
        --pgnout "$dir/$name.pgn" --resume >>"$log" 2>&1 || true
    grep -E '^(Score of|Elo difference|Finished match|Match interrupted)' "$log" | tail -3 || true
done <"$queue"

echo
echo "| test | SearchTune | games | W-L-D | Elo | end |"
echo "|---|---|---|---|---|---|"
while read -r name params rest; do
    case "$name" in ''|'#'*) continue ;; esac
    log="$dir/$name.log"
    [ -f "$log" ] || continue
    score=$(grep '^Score of' "$log" | tail -1 | sed -E 's/.*: ([0-9]+) - ([0-9]+) - ([0-9]+).* ([0-9]+)$/\1-\2-\3 \4/' || true)
    elo=$(grep '^Elo difference' "$log" | tail -1 | sed -E 's/Elo difference: ([^,]*),.*/\1/' || true)
    end=$(grep -E '^(Finished match|Match interrupted)' "$log" | tail -1 || true)
    echo "| $name | \`$params\` | ${score##* } | ${score%% *} | $elo | ${end:-cut off} |"
done <"$queue"
