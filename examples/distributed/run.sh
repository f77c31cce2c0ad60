#!/usr/bin/env bash
# Lite's run.sh for the GPU sample: one process per rank, launched by mpirun.
#
# Each rank's output (stdout and stderr) goes through `sed -u`, which writes whole lines only,
# each prefixed with "[rank N] ": the ranks' lines never mix, whatever MPI launches them
# (MPICH's own -prepend-rank tags chunks, not lines, so partial lines such as the sample's
# `print(..., end=" ")` would still interleave).
set -euo pipefail
cd "$(dirname "$0")"
RANK_SIZE=2
mpirun -n $RANK_SIZE bash -c '
    set -o pipefail
    rank=${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-?}}}
    python3 ./main.py "$@" 2>&1 | sed -u "s/^/[rank $rank] /"' rank \
    --model_path='../../golden/distributed/matmul_allreduce/model_rank{rank}.mindir'
