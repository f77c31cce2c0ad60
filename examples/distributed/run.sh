#!/usr/bin/env bash
# Lite's run.sh for the GPU sample: one process per rank, launched by mpirun.
set -euo pipefail
cd "$(dirname "$0")"
RANK_SIZE=2
mpirun -n $RANK_SIZE python3 ./main.py \
    --model_path='../../golden/distributed/matmul_allreduce/model_rank{rank}.mindir'
