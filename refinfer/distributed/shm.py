"""Shared-memory segments MPI leaves in /dev/shm when a job dies.

MPICH maps a ``/dev/shm/mpich_shm_*`` segment for the ranks of a node and
unlinks it in ``MPI_Finalize``; a job that ends by ``MPI_Abort`` or a
killed rank leaves it behind (Open MPI: ``sm_segment.*``, ``vader_segment.*``).
Two remedies: a rank about to abort unlinks the segments it maps (everyone
is about to die), and :func:`sweep` removes segments that no live process
maps any more (after a killed job).
"""
from __future__ import annotations

import os
import time

SHM_DIR = "/dev/shm"
PREFIXES = ("mpich_shm_", "sm_segment.", "vader_segment.")
MIN_AGE_S = 5.0      # a segment younger than this may be mapped any moment


def _is_mpi_segment(path: str) -> bool:
    return (os.path.dirname(path) == SHM_DIR and not path.endswith("(deleted)")
            and os.path.basename(path).startswith(PREFIXES))


def mapped_segments(maps_file: str = "/proc/self/maps") -> set[str]:
    """MPI segments a process maps (from its /proc/PID/maps)."""
    found = set()
    try:
        with open(maps_file, encoding="utf-8", errors="replace") as maps:
            for line in maps:
                path = line.split(maxsplit=5)[-1].strip()
                if _is_mpi_segment(path):
                    found.add(path)
    except OSError:
        pass  # the process ended, or is not ours to read
    return found


def unlink_own_segments() -> list[str]:
    """Unlink the MPI segments this process maps (before aborting)."""
    removed = []
    for path in sorted(mapped_segments()):
        try:
            os.unlink(path)
            removed.append(path)
        except OSError:
            pass  # another rank was faster
    return removed


def sweep(min_age_s: float = MIN_AGE_S) -> list[str]:
    """Remove this user's MPI segments that no live process maps."""
    candidates = _own_old_segments(min_age_s)
    if not candidates:
        return []
    in_use = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        in_use |= mapped_segments(f"/proc/{pid}/maps")
    removed = []
    for path in sorted(candidates - in_use):
        try:
            os.unlink(path)
            removed.append(path)
        except OSError:
            pass
    return removed


def _own_old_segments(min_age_s: float) -> set[str]:
    try:
        entries = list(os.scandir(SHM_DIR))
    except OSError:
        return set()
    now, uid = time.time(), os.getuid()
    found = set()
    for entry in entries:
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if entry.name.startswith(PREFIXES) and info.st_uid == uid \
                and now - info.st_mtime >= min_age_s:
            found.add(entry.path)
    return found
