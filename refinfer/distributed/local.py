"""Ranks as threads of one process: an in-process communicator.

:func:`run_local` runs ``fn(rank)`` on N threads, each with its own
:class:`ThreadCommunicator` made current (so ``Model.build_from_file`` on a
sliced file and the communication kernels find it), and returns the N
results. Unit tests and the oracle use it to run sliced models without MPI.

Every collective is one *round* of a rendezvous: each member deposits its
value, the last one to arrive publishes the list of all values, and each
member computes its own result from that list (in rank order, so results
are deterministic). Failure never hangs: a rank that raises aborts the
world, and a member waiting for a rank that has already finished gets an
error naming it.
"""
from __future__ import annotations

import queue
import threading
import time
from typing import Callable, Sequence

import numpy as np

from . import launch, session
from .communicator import (CommAborted, Communicator, check_split,
                           reduce_arrays)

POLL_S = 0.05   # how often a receiver checks for failures while it waits


class LocalWorld:
    """The state the rank threads share: rendezvous per group, mailboxes for
    point-to-point messages, who failed and who finished."""

    def __init__(self, size: int, timeout: float | None = None):
        self.size = size
        self.timeout = timeout            # seconds a rank waits, None = ever
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self.failure: str | None = None   # why the world was aborted
        self.finished: set[int] = set()
        self._rounds: dict[tuple, _Rendezvous] = {}
        self._mailboxes: dict[tuple, queue.Queue] = {}

    def communicator(self, rank: int) -> "ThreadCommunicator":
        return ThreadCommunicator(self, rank, tuple(range(self.size)))

    def abort(self, message: str) -> None:
        with self.lock:
            if self.failure is None:
                self.failure = message
            self.changed.notify_all()

    def finish(self, rank: int) -> None:
        with self.lock:
            self.finished.add(rank)
            self.changed.notify_all()

    def rendezvous(self, members: tuple) -> "_Rendezvous":
        with self.lock:
            return self._rounds.setdefault(members, _Rendezvous(self, members))

    def mailbox(self, key: tuple) -> queue.Queue:
        with self.lock:
            return self._mailboxes.setdefault(key, queue.Queue())

    def check(self, waiting_for: Sequence[int]) -> None:
        """Raise if the world failed or a rank we wait for has finished."""
        if self.failure is not None:
            raise CommAborted(f"the job was aborted: {self.failure}")
        gone = sorted(set(waiting_for) & self.finished)
        if gone:
            raise CommAborted(f"rank(s) {gone} finished without joining this "
                              "communication (the ranks' graphs differ?)")


class _Rendezvous:
    """Repeated all-to-all exchange of one value per member."""

    def __init__(self, world: LocalWorld, members: tuple):
        self.world, self.members = world, members
        self.round = 0
        self.values: dict[int, object] = {}
        self.result: list = []

    def exchange(self, rank: int, value) -> list:
        """Deposit this member's ``value``; returns every member's value, in
        group rank order, once all have deposited."""
        world = self.world
        deadline = None if world.timeout is None else time.monotonic() + world.timeout
        with world.lock:
            world.check(())
            my_round = self.round
            self.values[rank] = value
            if len(self.values) == len(self.members):
                self.result = [self.values[r] for r in range(len(self.members))]
                self.values = {}
                self.round += 1
                world.changed.notify_all()
            while self.round == my_round:
                missing = [self.members[r] for r in range(len(self.members))
                           if r not in self.values]
                world.check(missing)
                if not world.changed.wait(_remaining(deadline)) and \
                        _remaining(deadline) == 0:
                    raise CommAborted(f"timed out after {world.timeout} s "
                                      f"waiting for rank(s) {missing}")
            # Stays valid until this member deposits again: the next round
            # cannot complete without it.
            return self.result


def _remaining(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.monotonic())


class ThreadCommunicator(Communicator):
    """A rank of a :class:`LocalWorld` (or of one of its groups)."""

    def __init__(self, world: LocalWorld, rank: int, members: tuple):
        super().__init__(rank, members)
        self.world = world
        self._rendezvous = world.rendezvous(self.members)

    def _exchange(self, value) -> list:
        return self._rendezvous.exchange(self.rank, value)

    def all_reduce(self, x, op="sum"):
        return np.array(reduce_arrays(self._exchange(x), op), copy=True)

    def all_gather(self, x):
        return np.concatenate(self._exchange(x), axis=0)

    def reduce_scatter(self, x, op="sum"):
        check_split(x, self.size, "ReduceScatter")
        total = reduce_arrays(self._exchange(x), op)
        return np.array(np.split(total, self.size, axis=0)[self.rank], copy=True)

    def broadcast(self, x, root):
        return np.array(self._exchange(x)[root], copy=True)

    def all_to_all(self, blocks):
        everyone = self._exchange(list(blocks))
        return [np.array(sent[self.rank], copy=True) for sent in everyone]

    def send(self, x, dest, tag=0):
        key = (self.members, self.rank, dest, tag)
        self.world.mailbox(key).put(np.array(x, copy=True))

    def recv(self, shape, dtype, source, tag=0):
        box = self.world.mailbox((self.members, source, self.rank, tag))
        deadline = None if self.world.timeout is None \
            else time.monotonic() + self.world.timeout
        while True:
            try:
                value = box.get(timeout=POLL_S)
                break
            except queue.Empty:
                with self.world.lock:
                    self.world.check([self.members[source]])
                if _remaining(deadline) == 0:
                    raise CommAborted(f"timed out waiting for rank {source}") from None
        if value.shape != tuple(shape) or value.dtype != np.dtype(dtype):
            raise ValueError(f"Receive expects {np.dtype(dtype)}{list(shape)}, rank "
                             f"{source} sent {value.dtype}{list(value.shape)}")
        return value

    def barrier(self):
        self._exchange(None)

    def _create_group(self, world_ranks):
        return ThreadCommunicator(self.world, world_ranks.index(
            self.members[self.rank]), world_ranks)

    def fail(self, error):
        self.world.abort(f"rank {self.members[self.rank]} failed: "
                         f"{type(error).__name__}: {error}")


class RankError(RuntimeError):
    """A rank of :func:`run_local` failed; ``rank`` and the original error
    (``__cause__``) say which and why."""

    def __init__(self, rank: int, error: BaseException):
        super().__init__(f"rank {rank} failed: {type(error).__name__}: {error}")
        self.rank = rank


def run_local(size: int, fn: Callable[[int], object],
              timeout: float | None = None, threads: int | None = None) -> list:
    """Run ``fn(rank)`` for ``size`` ranks, each on its own thread with its
    own communicator current; returns the results in rank order.

    If ranks fail, raises :class:`RankError` for the first failure (the one
    that aborted the others; their secondary ``CommAborted`` errors are not
    reported). ``timeout``: seconds a rank may wait in one communication.
    ``threads``: BLAS / Numba threads per rank (default: cores // size).
    """
    world = LocalWorld(size, timeout)
    results: list = [None] * size
    errors: dict[int, BaseException] = {}

    def rank_main(rank: int) -> None:
        comm = world.communicator(rank)
        try:
            launch.apply_thread_budget(threads or launch.default_threads(size))
            with session.activated(session.Session(comm)):
                results[rank] = fn(rank)
        except BaseException as exc:  # noqa: BLE001 -- reported by the caller
            errors[rank] = exc
            comm.fail(exc)
        finally:
            world.finish(rank)

    workers = [threading.Thread(target=rank_main, args=(r,), name=f"rank-{r}",
                                daemon=True) for r in range(size)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if errors:
        rank = _first_failure(errors)
        raise RankError(rank, errors[rank]) from errors[rank]
    return results


def _first_failure(errors: dict[int, BaseException]) -> int:
    """The rank whose error is not a consequence of another's."""
    primary = [r for r, e in errors.items() if not _caused_by_abort(e)]
    return min(primary or errors)


def _caused_by_abort(error: BaseException | None) -> bool:
    """True when ``error`` is (or wraps, as kernel errors do) CommAborted."""
    while error is not None:
        if isinstance(error, CommAborted):
            return True
        error = error.__cause__ or error.__context__
    return False
