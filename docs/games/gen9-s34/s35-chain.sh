#!/usr/bin/env bash
# Session 35: when the 10+0.1 row of generation 9 against generation 8 ends,
# play the Fairy-Stockfish rows with the binary that embeds generation 9
# (bench 590200), resumable (tools/fsf-rows.sh), and commit their PGNs
# every 10 minutes (tools/games-checkpoint.sh).
cd /work/main
until grep -q '^Finished match' /work/data/gen9ob8-vs-gen8-10s.log 2>/dev/null; do sleep 20; done
pkill -f ob8-checkpoint.sh
echo "$(date +%T) 10+0.1 row finished; FSF rows start" >> /work/data/s35-log.txt
(GEN=gen9 INTERVAL=600 setsid nohup tools/games-checkpoint.sh /work/data st01 10s 30s 60s odds4 odds8 >> /work/data/gen9-checkpoint.out 2>&1 &)
GEN=gen9 ENGINE=/work/data/janggi-engine-s35 MATCH=/work/data/janggi-match-s35 \
  FSF=/work/data/fairy-stockfish-c19b5f6c tools/fsf-rows.sh /work/data st01 10s 30s 60s odds4 odds8 \
  >> /work/data/gen9-fsf-rows.out 2>&1
