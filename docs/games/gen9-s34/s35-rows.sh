#!/usr/bin/env bash
# Session 35: the Fairy-Stockfish rows with generation 9's binary, resumed after the fresh-clone check.
cd /work/main
echo "$(date +%T) FSF rows resumed" >> /work/data/s35-log.txt
GEN=gen9 ENGINE=/work/data/janggi-engine-s35 MATCH=/work/data/janggi-match-s35 \
  FSF=/work/data/fairy-stockfish-c19b5f6c tools/fsf-rows.sh /work/data st01 10s 30s 60s odds4 odds8 \
  >> /work/data/gen9-fsf-rows.out 2>&1
