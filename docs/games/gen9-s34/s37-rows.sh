#!/usr/bin/env bash
# Session 37: the Fairy-Stockfish rows with generation 9's binary (bench 590200),
# resumed from the PGNs sessions 35-36 left; the target rows (60s, odds4, odds8) before 10s and 30s.
cd /work/main
echo "$(date +%T) FSF rows resumed (session 37)" >> /work/data/s35-log.txt
GEN=gen9 ENGINE=/work/data/janggi-engine-s35 MATCH=/work/data/janggi-match-s35 \
  FSF=/work/data/fairy-stockfish-c19b5f6c tools/fsf-rows.sh /work/data st01 60s odds4 odds8 10s 30s \
  >> /work/data/gen9-fsf-rows.out 2>&1
