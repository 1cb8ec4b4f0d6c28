#!/usr/bin/env bash
# Commit the running 10+0.1 row's PGN every 8 minutes so that it goes on from the repository on any machine.
cd /work/main
while sleep 480; do
  n=$(grep -c '^\[Result' /work/data/gen9ob8-vs-gen8-10s.pgn 2>/dev/null || echo 0)
  gzip -9c /work/data/gen9ob8-vs-gen8-10s.pgn > docs/games/gen9-s34/gen9ob8-vs-gen8-10s.pgn.gz
  for i in 1 2 3; do
    git add docs/games/gen9-s34/gen9ob8-vs-gen8-10s.pgn.gz && \
    git commit -qm "docs/games/gen9-s34: 9ob8 against generation 8 at 10+0.1 so far ($n games), so that it goes on from here on any machine" -- docs/games/gen9-s34/gen9ob8-vs-gen8-10s.pgn.gz && break
    sleep 20
  done
done
