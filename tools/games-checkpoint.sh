#!/usr/bin/env bash
# Keeps the running Fairy-Stockfish rows (tools/fsf-rows.sh) safe from a
# lost machine: every INTERVAL seconds (default 900) each ROW's PGN in DIR
# is gzipped into docs/games/GEN-vs-fsf-ROW.pgn.gz and committed alone
# (`git commit -- that file`: nothing else staged goes with it). A row cut
# by a session's end then goes on from the repository's copy on any
# machine: `gunzip -c docs/games/GEN-vs-fsf-ROW.pgn.gz > DIR/GEN-vs-fsf-ROW.pgn`,
# then `tools/fsf-rows.sh DIR ROW`. GEN: as tools/fsf-rows.sh's (the
# environment's GEN, default gen8).
#
#   tools/games-checkpoint.sh DIR ROW...     # e.g. /work/data 60s odds8 (in the background)
#
# Stop it when the rows end (kill); commit the finished row's file once
# more by hand with its result.
set -uo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 DIR ROW..." >&2
    exit 2
fi
dir=$1
shift
cd "$(dirname "$0")/.."
interval=${INTERVAL:-900}
gen=${GEN:-gen8}
while true; do
    sleep "$interval"
    for row in "$@"; do
        src="$dir/$gen-vs-fsf-$row.pgn"
        dst="docs/games/$gen-vs-fsf-$row.pgn.gz"
        [ -s "$src" ] || continue
        n=$(grep -c '^\[Result "[^*]' "$src")
        mkdir -p docs/games
        gzip -9 -c "$src" > "$dst.tmp" && mv "$dst.tmp" "$dst" || continue
        git add "$dst" &&
            git commit -q -m "docs/games: the $row row against Fairy-Stockfish so far ($n games), so that it goes on from here on a new machine" -- "$dst" &&
            echo "$(date -u +%T) committed $row at $n games"
    done
done
