"""Distributed inference of sliced (tensor-parallel) MindIR models.

One rank per process under ``mpirun -n N`` (MPI through mpi4py), or N ranks
as threads of one process (:func:`run_local`), each running its own sliced
file on the same inputs; the communication ops in the graphs
(``ops/all_reduce.py`` and friends) reach the rank's communicator through
the session made current for it. See docs/distributed.md.

    communicator.py  the Communicator interface, errors
    local.py         ranks as threads: LocalWorld, ThreadCommunicator, run_local
    mpi.py           MPICommunicator (imported only when MPI is used)
    groups.py        group names -> ranks (world names, config, hashed names)
    session.py       the current session (a contextvar), group_communicator
    binding.py       build-time checks and sessions for the Lite API
    launch.py        mpirun detection, MPI set-up, threads per rank, mpirun jobs
    shm.py           /dev/shm segments of dead MPI jobs
"""
from .binding import (each_rank, expand_rank, local_rank, model_session,
                      rank_and_size, rank_file, rank_threads)
from .communicator import CommAborted, Communicator, DistributedError
from .groups import GroupTable, hashed_group_name, std_hash
from .launch import launched_by_mpi, run_mpirun
from .local import LocalWorld, RankError, ThreadCommunicator, run_local
from .session import (Session, activated, current, failing_aborts,
                      group_communicator)

__all__ = ["CommAborted", "Communicator", "DistributedError", "GroupTable",
           "LocalWorld", "RankError", "Session", "ThreadCommunicator",
           "activated", "current", "each_rank", "expand_rank", "failing_aborts",
           "group_communicator", "hashed_group_name", "launched_by_mpi",
           "local_rank", "model_session", "rank_and_size", "rank_file", "rank_threads",
           "run_local", "run_mpirun", "std_hash"]
