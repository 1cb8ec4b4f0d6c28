#!/usr/bin/env bash
set -euo pipefail
cd /work/main
T=/work/data/janggi-tools-s34b E=/work/data/janggi-engine-s34 M=/work/data/janggi-match-s34 D=/work/data
n=gen9w512ob8
echo "== $(date -u '+%F %T') train $n"
/usr/bin/time -v $T train --data $D/set --out $D/$n.nnue.part --checkpoint $D/$n.ckpt --threads 2 --seed 1 \
  --init-from nets/default.nnue --hidden 512 --output-buckets 8 --lr 0.0002 --lr-decay 0.5 --epochs 2 > $D/$n-train.log 2>&1
mv $D/$n.nnue.part $D/$n.nnue
{ tr '\r' '\n' < $D/$n-train.log | grep -E "^epoch +[0-9]+ |^train:"; } || true
echo "== $(date -u '+%F %T') match $n vs gen8 (seed 346)"
$M --engine "cmd=$E" "name=$n" "option.EvalFile=$D/$n.nnue" --engine "cmd=$E" name=gen8 \
   --each nodes=25000 option.Hash=16 option.Threads=1 --games 400 --concurrency 2 \
   --openings file=books/janggi-1200.epd order=random --seed 346 --variant janggi \
   --pgnout $D/$n-vs-gen8.pgn --resume > $D/$n-vs-gen8.log 2>&1
tail -7 $D/$n-vs-gen8.log | head -3
echo "== $(date -u '+%F %T') done"
