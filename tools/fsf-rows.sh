#!/usr/bin/env bash
# Issue 33's rows against Fairy-Stockfish (classical evaluation) and the
# self-play doubling rows, played one after another, resumable:
#
#   tools/fsf-rows.sh DIR ROW...
#   tools/fsf-rows.sh /work/data dbl-ours dbl-fsf 60s odds4 odds8
#
# Each ROW is played into DIR/GEN-vs-fsf-ROW.{pgn,log}, GEN the
# generation embedded in ENGINE (environment GEN, default gen8: the names
# of docs/strength.md, "With generation 8, the final binary of issue 33";
# gen9 for the binary that embeds generation 9).
# A row whose log ends in "Finished match" is skipped; a row whose PGN
# exists but is not finished (a session's end, a reboot) goes on from it
# with `janggi-match --resume` and the same line: the games in the file
# count and are not played again. A row's PGN kept elsewhere (the
# repository's docs/games/, gzipped) can be copied to DIR first, so that
# a row goes on on a new machine.
#
# Settings (environment): ENGINE (ours; default target/release/janggi-engine),
# FSF (Fairy-Stockfish c19b5f6c built outside the project with
# `make -j2 build ARCH=x86-64-modern largeboards=yes`; default
# DIR/fairy-stockfish-c19b5f6c), MATCH (default target/release/janggi-match),
# NAME (our engine's name in the PGN; default janggi-GEN: a resumed row
# must keep the name it began with).
#
# Rows: st01 (100 ms a move), 10s, 30s, 60s (the curve), odds4 (ours
# 10+0.1, its 40+0.4), odds8 (ours 5+0.05, its 40+0.4), dbl-ours and
# dbl-fsf (each engine at 10+0.1 against itself at 5+0.05).
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 DIR ROW..." >&2
    exit 2
fi
dir=$(cd "$1" && pwd)
shift
cd "$(dirname "$0")/.."
E=$(realpath "${ENGINE:-target/release/janggi-engine}")
F=$(realpath "${FSF:-$dir/fairy-stockfish-c19b5f6c}")
M=$(realpath "${MATCH:-target/release/janggi-match}")
gen=${GEN:-gen8}
name=${NAME:-janggi-$gen}
for bin in "$E" "$F" "$M"; do
    [ -x "$bin" ] || { echo "$0: no executable $bin" >&2; exit 2; }
done
ours="cmd=$E name=$name option.Hash=16 option.Threads=1"
fsf="cmd=$F name=fairy-stockfish option.Hash=16 option.Threads=1"
common=(--concurrency 2 --openings file=books/janggi-1200.epd order=random --variant janggi)

for row in "$@"; do
    case "$row" in
        st01) args=(--engine $ours --engine $fsf --each st=0.1 timemargin=200 --games 100 --seed 261) ;;
        10s) args=(--engine $ours --engine $fsf --each tc=10+0.1 --games 100 --seed 262) ;;
        30s) args=(--engine $ours --engine $fsf --each tc=30+0.3 --games 100 --seed 263) ;;
        60s) args=(--engine $ours --engine $fsf --each tc=60+0.6 --games 100 --seed 264) ;;
        odds4) args=(--engine $ours tc=10+0.1 --engine $fsf tc=40+0.4 --each timemargin=0 --games 200 --seed 265) ;;
        odds8) args=(--engine $ours tc=5+0.05 --engine $fsf tc=40+0.4 --each timemargin=0 --games 200 --seed 266) ;;
        dbl-ours) args=(--engine cmd=$E name=ours-10s tc=10+0.1 --engine cmd=$E name=ours-5s tc=5+0.05
                        --each option.Hash=16 option.Threads=1 --games 400 --seed 267) ;;
        dbl-fsf) args=(--engine cmd=$F name=fsf-10s tc=10+0.1 --engine cmd=$F name=fsf-5s tc=5+0.05
                       --each option.Hash=16 option.Threads=1 --games 400 --seed 268) ;;
        *) echo "$0: unknown row $row" >&2; exit 2 ;;
    esac
    pgn="$dir/$gen-vs-fsf-$row.pgn" log="$dir/$gen-vs-fsf-$row.log"
    if [ -f "$log" ] && grep -q '^Finished match' "$log"; then
        echo "$row: finished, skipped ($log)"
        continue
    fi
    resume=()
    [ -s "$pgn" ] && resume=(--resume)
    echo "$row: $(date -u '+%F %T') ${resume[*]:-start}" | tee -a "$log"
    "$M" "${args[@]}" "${common[@]}" --pgnout "$pgn" "${resume[@]}" >>"$log" 2>&1
done
