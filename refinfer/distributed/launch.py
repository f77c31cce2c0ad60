"""Launching ranks: detecting ``mpirun``, the MPI world, threads per rank.

Under ``mpirun -n N`` each process is one rank. MPI is initialised lazily,
the first time a run needs it (so ``import refinfer`` stays cheap); then:

- the size MPI reports must equal the size the launcher announced in the
  environment: an mpi4py built for another MPI than the ``mpirun`` used runs
  as N separate one-rank jobs and would compute wrong results silently;
- an uncaught exception on any rank aborts the whole job, with that rank's
  traceback (the others would otherwise wait in a collective forever), once
  mpirun has read it; a rank that exits tells the others, and one waiting
  for it in a collective aborts the job (refinfer/distributed/mpi.py);
- BLAS and Numba threads default to the cores divided by the ranks on this
  machine: N ranks each using every core run slower than with their share;
- MPI segments left in /dev/shm by earlier killed jobs are swept.
"""
from __future__ import annotations

import functools
import os
import shutil
import signal
import subprocess
import sys
from typing import Sequence

from . import shm
from .communicator import DistributedError

RANK_VARS = ("PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "MV2_COMM_WORLD_RANK")
SIZE_VARS = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "MV2_COMM_WORLD_SIZE")
LOCAL_SIZE_VARS = ("MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE",
                   "MV2_COMM_WORLD_LOCAL_SIZE")
LOCAL_RANK_VARS = ("MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK",
                   "MV2_COMM_WORLD_LOCAL_RANK")


def _env_int(names: Sequence[str]) -> int | None:
    for name in names:
        value = os.environ.get(name, "")
        if value.isdigit():
            return int(value)
    return None


def launched_by_mpi() -> bool:
    """True in a process started by mpirun / mpiexec (MPICH, Open MPI,
    MVAPICH, or srun with PMI)."""
    return _env_int(RANK_VARS) is not None


def machine_rank() -> tuple[int, int, int] | None:
    """(rank, size, local rank) of this process under mpirun, from the
    launcher's environment (MPI is not started for it); the local rank is
    the rank where the launcher names none. None outside mpirun."""
    rank = _env_int(RANK_VARS)
    if rank is None:
        return None
    local = _env_int(LOCAL_RANK_VARS)
    return rank, _env_int(SIZE_VARS) or 1, rank if local is None else local


def local_ranks() -> int:
    """How many ranks the launcher put on this machine (1 outside mpirun)."""
    return _env_int(LOCAL_SIZE_VARS) or 1


def default_threads(ranks_here: int | None = None, cores: int | None = None) -> int:
    """BLAS / Numba threads for one rank: its share of the ``cores`` (default:
    the cores this process may use) among the ranks on this machine."""
    cores = cores or len(os.sched_getaffinity(0))
    return max(1, cores // (ranks_here or local_ranks()))


def apply_thread_budget(threads: int) -> None:
    """Make this rank's Numba kernels and the BLAS use ``threads`` threads."""
    from .. import threads as thread_control
    thread_control.configure(threads)


@functools.cache
def mpi_world():
    """This process's rank of the MPI world, set up once (see the module doc)."""
    try:
        mpi = _start_mpi()
    except ImportError as exc:
        raise DistributedError(
            "this process was launched by mpirun but mpi4py cannot be imported "
            f"({exc}): pip install 'refinfer[mpi]'") from exc
    world = mpi.MPICommunicator(mpi.MPI.COMM_WORLD)
    announced = _env_int(SIZE_VARS)
    if announced is not None and announced != world.size:
        raise DistributedError(
            f"mpirun started {announced} ranks but MPI sees {world.size}: mpi4py "
            "was built for another MPI library than this mpirun (install one "
            "MPI per environment, e.g. pip install 'refinfer[mpi]', and run its "
            "mpirun)")
    if world.size > 1:
        _abort_on_uncaught_exceptions(mpi)
        mpi.leave_at_exit()
    if (_env_int(LOCAL_RANK_VARS) or 0) == 0:
        shm.sweep()
    apply_thread_budget(default_threads())
    return world


def _start_mpi():
    """Import refinfer's MPI module, which starts MPI: with neighbours on
    this machine, under a watch that ends the job if one of them exits
    before it starts MPI (``start_watch.py``: MPI would wait for it for
    ever)."""
    local = local_ranks()
    if local < 2:
        from . import mpi
        return mpi
    from . import start_watch      # (here: ``-m`` runs it in the watch)
    watch = start_watch.start(_env_int(RANK_VARS) or 0,
                              _env_int(SIZE_VARS) or local, local)
    try:
        from . import mpi
    finally:
        start_watch.stop(watch)
    return mpi


def _abort_on_uncaught_exceptions(mpi) -> None:
    """An uncaught exception ends the job, not just this rank (whose peers
    would wait for it in the next collective)."""
    def abort(kind, value, tb):
        mpi.report_failure(mpi.MPI.COMM_WORLD.Get_rank(),
                           mpi.MPI.COMM_WORLD.Get_size(), value)
        mpi.abort_job()
    sys.excepthook = abort


def mpirun_path() -> str:
    """The mpirun of this Python environment (the ``mpich`` wheel puts it
    next to the interpreter), else the first on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), "mpirun")
    found = here if os.access(here, os.X_OK) else shutil.which("mpirun")
    if found is None:
        raise DistributedError("mpirun not found: pip install 'refinfer[mpi]'")
    return found


def run_mpirun(ranks: int, argv: Sequence[str], timeout: float,
               env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``mpirun -n ranks argv`` and wait at most ``timeout`` seconds;
    a job still running then is killed whole. MPI segments a failed job
    left in /dev/shm are removed. Returns the completed process (text
    stdout/stderr; returncode -9 after a timeout)."""
    command = [mpirun_path(), "-n", str(ranks), *argv]
    job = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=env, start_new_session=True)
    try:
        stdout, stderr = job.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(job.pid, signal.SIGKILL)
        stdout, stderr = job.communicate()
        stderr += f"\nrefinfer: mpirun killed after {timeout} s"
    if job.returncode != 0:
        shm.sweep(min_age_s=0)
    return subprocess.CompletedProcess(command, job.returncode, stdout, stderr)
