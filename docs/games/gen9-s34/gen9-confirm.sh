#!/usr/bin/env bash
# Session 34: the two winners again on other openings (new seeds), 400 games each at 25,000 nodes.
set -euo pipefail
cd /work/main
E=/work/data/janggi-engine-s34 M=/work/data/janggi-match-s34 D=/work/data
while pgrep -f gen9-chain3.sh >/dev/null; do sleep 5; done
for ns in gen9ob8:348 gen9w512g:349; do
  n=${ns%:*} s=${ns#*:}
  echo "== $(date -u '+%F %T') $n vs gen8, seed $s"
  $M --engine "cmd=$E" "name=$n" "option.EvalFile=$D/$n.nnue" --engine "cmd=$E" name=gen8 \
     --each nodes=25000 option.Hash=16 option.Threads=1 --games 400 --concurrency 2 \
     --openings file=books/janggi-1200.epd order=random --seed $s --variant janggi \
     --pgnout $D/$n-vs-gen8-s$s.pgn --resume > $D/$n-vs-gen8-s$s.log 2>&1
  tail -7 $D/$n-vs-gen8-s$s.log | head -3
done
echo "== $(date -u '+%F %T') done"
