#!/usr/bin/env bash
# Session 34: a candidate and generation 8, each against Fairy-Stockfish
# classical on the same games (same seed), at fixed nodes on both sides
# (ours 25,000 a move, Fairy-Stockfish 50,000): load-independent, paired.
#   fsf-paired.sh NAME NET|embedded GAMES SEED
set -euo pipefail
cd /work/main
n=$1 net=$2 games=$3 seed=$4
E=/work/data/janggi-engine-s34 M=/work/data/janggi-match-s34 F=/work/data/fairy-stockfish-c19b5f6c
opt=(); [ "$net" = embedded ] || opt=("option.EvalFile=$net")
$M --engine "cmd=$E" "name=$n" "${opt[@]}" nodes=25000 \
   --engine "cmd=$F" name=fairy-stockfish nodes=50000 \
   --each option.Hash=16 option.Threads=1 --games "$games" --concurrency 2 \
   --openings file=books/janggi-1200.epd order=random --seed "$seed" --variant janggi \
   --pgnout "/work/data/$n-vs-fsf-n50k-s$seed.pgn" --resume > "/work/data/$n-vs-fsf-n50k-s$seed.log" 2>&1
tail -6 "/work/data/$n-vs-fsf-n50k-s$seed.log"
