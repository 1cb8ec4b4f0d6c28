#!/usr/bin/env bash
# Session 34, part 2: the grown shapes (janggi-tools of this session's
# trainer change: --init-from a narrower or one-head network), warm-started
# from generation 8, each against generation 8 at 25,000 nodes.
set -euo pipefail
cd /work/main
T=/work/data/janggi-tools-s34b E=/work/data/janggi-engine-s34 M=/work/data/janggi-match-s34
D=/work/data
log() { echo "== $(date -u '+%F %T') $*"; }
while pgrep -f gen9-chain.sh >/dev/null; do sleep 10; done
train() {
  local n=$1; shift
  [ -f $D/$n.nnue ] && { log "$n exists"; return; }
  log "train $n: $*"
  /usr/bin/time -v $T train --data $D/set --out $D/$n.nnue.part --checkpoint $D/$n.ckpt --threads 2 --seed 1 "$@" \
    > $D/$n-train.log 2>&1
  mv $D/$n.nnue.part $D/$n.nnue; log "trained $n"
  { tr '\r' '\n' < $D/$n-train.log | grep -E "^epoch +[0-9]+ |^train:"; } || true
}
match() {
  local n=$1 s=$2
  log "match $n vs gen8 (seed $s)"
  $M --engine "cmd=$E" "name=$n" "option.EvalFile=$D/$n.nnue" --engine "cmd=$E" name=gen8 \
     --each nodes=25000 option.Hash=16 option.Threads=1 --games 400 --concurrency 2 \
     --openings file=books/janggi-1200.epd order=random --seed $s --variant janggi \
     --pgnout $D/$n-vs-gen8.pgn --resume > $D/$n-vs-gen8.log 2>&1
  log "match $n done"; tail -7 $D/$n-vs-gen8.log | head -3
}
train gen9w512g --init-from nets/default.nnue --hidden 512 --lr 0.0002 --lr-decay 0.5 --epochs 3
match gen9w512g 344
train gen9ob8 --init-from nets/default.nnue --output-buckets 8 --lr 0.0001 --lr-decay 0.5 --epochs 3
match gen9ob8 345
log "chain2 done"
