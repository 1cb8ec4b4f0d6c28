#!/bin/bash
# Submits the datagen job array and, after it succeeded, the concatenation:
#
#   tools/slurm/submit.sh SHARDS OUT_DIR OUT "DATAGEN ARGS…"
#   tools/slurm/submit.sh 16 data/gen3 data/gen3.bin "--games 4000 --nodes 1000 --seed 3"
#
# (JANGGI_TOOLS, THREADS as in datagen.sbatch; extra sbatch options in
# SBATCH_ARGS, e.g. SBATCH_ARGS="--partition=cpu --time=24:00:00".)
set -euo pipefail
if [ $# -ne 4 ]; then
    echo "usage: $0 SHARDS OUT_DIR OUT \"DATAGEN ARGS\"" >&2
    exit 2
fi
shards=$1 out_dir=$2 out=$3 args=$4
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2086 # SBATCH_ARGS is a list of words
array=$(sbatch --parsable ${SBATCH_ARGS:-} --array=0-$((shards - 1)) \
    --export=ALL,SHARDS="$shards",OUT_DIR="$out_dir",DATAGEN_ARGS="$args" \
    "$here/datagen.sbatch")
array=${array%%;*}
# shellcheck disable=SC2086
sbatch --parsable ${SBATCH_ARGS:-} --dependency=afterok:"$array" \
    --export=ALL,SHARDS="$shards",OUT_DIR="$out_dir",OUT="$out" \
    "$here/concat.sbatch"
echo "array job $array: $shards shards into $out_dir; then $out"
