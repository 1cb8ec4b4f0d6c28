#!/usr/bin/env bash
# Session 34: 9ob8 against generation 8 at 10+0.1, 400 games (the measure of a generation); resumable.
cd /work/main
E=/work/data/janggi-engine-s34 M=/work/data/janggi-match-s34 D=/work/data
$M --engine "cmd=$E" name=gen9ob8 "option.EvalFile=$D/gen9ob8.nnue" --engine "cmd=$E" name=gen8 \
   --each tc=10+0.1 option.Hash=16 option.Threads=1 --games 400 --concurrency 2 \
   --openings file=books/janggi-1200.epd order=random --seed 350 --variant janggi \
   --pgnout $D/gen9ob8-vs-gen8-10s.pgn --resume >> $D/gen9ob8-vs-gen8-10s.log 2>&1
