#!/usr/bin/env bash
# Session 38: the last Fairy-Stockfish rows with generation 9's binary (bench 590200).
# 10s began 23:29 (its match runner left running); this waits for it, then plays
# odds8 (a target row, ~2 h 06 min for generation 8) and then 30s (the curve).
cd /work/main
while ! grep -q '^Finished match' /work/data/gen9-vs-fsf-10s.log 2>/dev/null; do sleep 20; done
echo "$(date +%T) FSF rows go on (session 38): odds8 then 30s" >> /work/data/s35-log.txt
GEN=gen9 ENGINE=/work/data/janggi-engine-s35 MATCH=/work/data/janggi-match-s35 \
  FSF=/work/data/fairy-stockfish-c19b5f6c tools/fsf-rows.sh /work/data st01 60s odds4 10s odds8 30s \
  >> /work/data/gen9-fsf-rows.out 2>&1
