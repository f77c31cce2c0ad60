"""An aborting MPI rank's last output: wait until mpirun has read it."""
from __future__ import annotations

import array
import fcntl
import os
import stat
import termios
import time

# How long an aborting rank waits for mpirun to read its last output.
OUTPUT_DRAIN_TIMEOUT_S = 2.0


def wait_until_output_is_read(fds=(1, 2), timeout=OUTPUT_DRAIN_TIMEOUT_S) -> None:
    """Wait until mpirun has read what this rank wrote to ``fds`` (stdout and
    stderr), ``timeout`` seconds at most.

    MPICH's process manager drops output still in a rank's pipes once the job
    aborts, so without this wait the error that explains an abort is lost now
    and then. What it has read, it has already passed on.
    """
    deadline = time.monotonic() + timeout
    for fd in fds:
        while _unread_bytes(fd) and time.monotonic() < deadline:
            time.sleep(0.005)


def _unread_bytes(fd: int) -> int:
    """Bytes written to pipe ``fd`` that its reader has not read yet; 0 when
    ``fd`` is not a pipe (a terminal or a file keeps nothing in flight)."""
    try:
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return 0
        count = array.array("i", [0])
        fcntl.ioctl(fd, termios.FIONREAD, count)
    except OSError:
        return 0
    return count[0]
