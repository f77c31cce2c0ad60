"""Which communicator a rank's kernels use: the session made current for it.

A :class:`Session` is a world communicator plus the group table that turns
group names into sub-communicators. It reaches the kernels through a
``contextvars.ContextVar``: each thread (each in-process rank) and each
``Model.predict`` sets its own, so ranks running as threads of one process
never see each other's. Without one, a process launched by ``mpirun`` uses
the MPI world; anything else gets an error saying how to run the model.
"""
from __future__ import annotations

import contextlib
import contextvars
import functools
from typing import Iterator, Sequence

from . import launch
from .communicator import WAIT_TIMEOUT_S, Communicator, DistributedError
from .groups import GroupTable

_CURRENT: contextvars.ContextVar["Session | None"] = contextvars.ContextVar(
    "refinfer_distributed_session", default=None)


class Session:
    """A rank's world communicator, its group names, and how long a collective
    may wait (``timeout_s``, ``[distributed] timeout_s``; None: for ever)."""

    def __init__(self, world: Communicator, user_groups: dict | None = None,
                 timeout_s: float | None = None):
        self.world = world
        self.groups = GroupTable(world.size, user_groups)
        self.timeout_s = timeout_s

    @property
    def rank(self) -> int:
        return self.world.rank

    @property
    def size(self) -> int:
        return self.world.size

    def group(self, name: str, rank_ids: Sequence[int] | None = None) -> Communicator:
        """The communicator of group ``name`` (``rank_ids``: the primitive's
        ``group_rank_ids`` attribute, when it has one)."""
        ranks = self.groups.ranks(name, rank_ids)
        if self.world.rank not in ranks:
            raise DistributedError(f"rank {self.world.rank} is not a member of "
                                   f"group {name!r} (ranks {list(ranks)})")
        return self.world.group(ranks)

    def with_settings(self, user_groups: dict, timeout_s: float | None) -> "Session":
        """The same world with a model's own user groups and timeout."""
        if not user_groups and timeout_s is None:
            return self
        return Session(self.world, user_groups, timeout_s)


@functools.cache
def _mpi_session() -> Session:
    """The process's session under mpirun (one rank per process)."""
    return Session(launch.mpi_world())


def current() -> Session:
    """The session of the calling rank."""
    active = current_or_none()
    if active is not None:
        return active
    raise DistributedError(
        "this model communicates between ranks (it is a sliced model): run "
        "one process per rank with mpirun -n N, or ranks as threads with "
        "refinfer.distributed.run_local(N, fn)")


def current_or_none() -> Session | None:
    """The calling rank's session, or None outside any distributed run."""
    active = _CURRENT.get()
    if active is not None or not launch.launched_by_mpi():
        return active
    return _mpi_session()


def group_communicator(name: str, rank_ids: Sequence[int] | None = None) -> Communicator:
    """What a communication kernel calls to get its group's communicator."""
    return current().group(name, rank_ids)


@contextlib.contextmanager
def activated(active: Session | None) -> Iterator[None]:
    """Make ``active`` the calling rank's session; if the body raises, the
    rank fails (the others stop waiting for it; under MPI the job aborts)."""
    if active is None:
        yield
        return
    token = _CURRENT.set(active)
    timeout_token = WAIT_TIMEOUT_S.set(active.timeout_s)
    try:
        yield
    except BaseException as exc:
        active.world.fail(exc)
        raise
    finally:
        WAIT_TIMEOUT_S.reset(timeout_token)
        _CURRENT.reset(token)


@contextlib.contextmanager
def failing_aborts() -> Iterator[None]:
    """Around work of an MPI rank outside any session (loading its file):
    an error aborts the job rather than leaving the other ranks waiting."""
    try:
        yield
    except Exception as exc:
        _end_job(exc)
        raise


def _end_job(error: Exception) -> None:
    try:
        active = current_or_none()
    except DistributedError:
        return      # mpirun without a usable MPI: nothing to abort, the error stands
    if active is not None and active.size > 1:
        active.world.fail(error)
