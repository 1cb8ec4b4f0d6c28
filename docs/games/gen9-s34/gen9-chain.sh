#!/usr/bin/env bash
# Session 34: after the data job is stopped, add the data to the set, train
# the three candidates and play each against generation 8 at 25,000 nodes.
set -euo pipefail
cd /work/main
T=/work/data/janggi-tools-s34 E=/work/data/janggi-engine-s34 M=/work/data/janggi-match-s34
D=/work/data
log() { echo "== $(date -u '+%F %T') $*"; }
if [ ! -f $D/set/manifest.tsv ]; then
  log "dataset add"; $T dataset add --set $D/set --data $D/gen9data.bin --generation 9
fi
$T dataset show --set $D/set || true
train() { # name, extra args
  local n=$1; shift
  [ -f $D/$n.nnue ] && { log "$n exists"; return; }
  log "train $n: $*"
  /usr/bin/time -v $T train --data $D/set --out $D/$n.nnue.part --checkpoint $D/$n.ckpt --threads 2 --seed 1 "$@" \
    > $D/$n-train.log 2>&1
  mv $D/$n.nnue.part $D/$n.nnue; log "trained $n"; { grep -i "epoch" $D/$n-train.log | tail -4; } || true
}
match() { # name, seed
  local n=$1 s=$2
  log "match $n vs gen8 (seed $s)"
  $M --engine "cmd=$E" "name=$n" "option.EvalFile=$D/$n.nnue" --engine "cmd=$E" name=gen8 \
     --each nodes=25000 option.Hash=16 option.Threads=1 --games 400 --concurrency 2 \
     --openings file=books/janggi-1200.epd order=random --seed $s --variant janggi \
     --pgnout $D/$n-vs-gen8.pgn --resume > $D/$n-vs-gen8.log 2>&1
  log "match $n done"; tail -6 $D/$n-vs-gen8.log
}
train gen9ft --init-from nets/default.nnue --lr 0.0001 --lr-decay 0.5 --epochs 3
match gen9ft 341
train gen9p6 --init-from nets/default.nnue --input-buckets palace6 --lr 0.0002 --lr-decay 0.5 --epochs 3
match gen9p6 342
train gen9w512 --hidden 512 --lr 0.001 --lr-decay 0.25 --epochs 3
match gen9w512 343
log "chain done"
