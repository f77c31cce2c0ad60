"""Watch a rank's neighbours while MPI starts (a separate process).

MPICH's ``MPI_Init`` waits until every rank of the job has started MPI, and
holds the GIL meanwhile: a rank whose neighbour exited before starting MPI
(``sys.exit(3)`` at the top of its script) would wait for ever, and no
thread of its own can run. So :func:`refinfer.distributed.launch.mpi_world`
runs this file as a process of its own while MPI starts, and stops it once
MPI has started. It watches the ranks the launcher started on this machine
(the children of the rank's parent, when that parent is a launcher's
process manager): when fewer are left than the launcher started, one has
exited before MPI started; it says so and kills the waiting rank, which
ends the job (a killed rank ends an MPI job: mpirun cleans up the others).

Run as ``python -m refinfer.distributed.start_watch PID RANK SIZE
LOCAL_RANKS`` (:func:`start`).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from .drain import wait_until_output_is_read

# Process managers that start the ranks of one machine as their children.
LAUNCHERS = {"hydra_pmi_proxy"}
POLL_S = 0.2


def children(pid: int) -> list[int] | None:
    """The child processes of ``pid``, or None where Linux does not say."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(c) for c in f.read().split()]
    except (OSError, ValueError):
        return None


def command_name(pid: int) -> str:
    """The name of process ``pid``'s command ("" when it is gone)."""
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return ""


def watch(rank_pid: int, rank: int, size: int, local_ranks: int) -> int:
    """Poll until the rank ``rank_pid`` stops this watch or ends; kill it
    if a rank beside it exits first. Returns the exit status."""
    launcher = _parent_of(rank_pid)
    if launcher is None or command_name(launcher) not in LAUNCHERS:
        return 0        # not a launcher we know: nothing to watch
    while os.getppid() == rank_pid:     # (re-parented: the rank is gone)
        ranks = children(launcher)
        if ranks is None:
            return 0
        if len(ranks) < local_ranks:
            print(f"refinfer: rank {rank} of {size}: {local_ranks - len(ranks)} "
                  f"of the {local_ranks} ranks on this machine exited before "
                  f"MPI started (see their output); ending the job instead of "
                  f"waiting for them for ever", file=sys.stderr, flush=True)
            wait_until_output_is_read()     # mpirun drops it at the kill
            os.kill(rank_pid, signal.SIGKILL)
            return 1
        time.sleep(POLL_S)
    return 0


def _parent_of(pid: int) -> int | None:
    """Process ``pid``'s parent, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            # after the command name, which is in parentheses and may hold spaces
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def start(rank: int, size: int, local_ranks: int) -> subprocess.Popen:
    """The watch of this process (a rank about to start MPI), running."""
    package_root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    path = os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH"))
                           if p)
    return subprocess.Popen(
        [sys.executable, "-m", __name__, str(os.getpid()), str(rank),
         str(size), str(local_ranks)], env={**os.environ, "PYTHONPATH": path})


def stop(process: subprocess.Popen) -> None:
    """End the watch: MPI has started."""
    process.kill()
    process.wait()


if __name__ == "__main__":
    sys.exit(watch(*map(int, sys.argv[1:5])))
