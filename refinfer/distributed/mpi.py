"""The MPI communicator: mpi4py's buffer API on contiguous NumPy arrays.

Data movement (AllGather, Broadcast, AlltoAll, Send/Receive) moves raw
bytes, so every dtype works and nothing is pickled. Reductions use MPI's
typed operations where MPI has the type; for the others (float16, bool) the
ranks gather every value and reduce locally, in rank order.

Importing this module initialises MPI; :func:`refinfer.distributed.launch.mpi_world`
does that once, when a run launched by ``mpirun`` first needs it.

No rank waits for ever for a rank that is gone (issue 17). Every call is MPI's
non-blocking form, waited for by :meth:`MPICommunicator._wait`, which gives up
with :class:`CommAborted` (and so aborts the job) when a member of the group
has exited, or after ``[distributed] timeout_s`` when one is set (naming the
members that did not answer "where do you wait?": the stuck ones). A rank that
exits (the end of its script, or any ``SystemExit``) first tells every other
rank so (:func:`leave_job`, at exit), then waits for their notices, as
``MPI_Finalize`` would.
"""
from __future__ import annotations

import atexit
import os
import sys
import time
import traceback

import numpy as np
from mpi4py import MPI

from . import shm
from .communicator import (WAIT_TIMEOUT_S, CommAborted, Communicator,
                           DistributedError, check_split, reduce_arrays)
from .drain import wait_until_output_is_read

_OPS = {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN, "prod": MPI.PROD}
_TYPED = {np.dtype(t) for t in (np.float32, np.float64, np.int8, np.int16,
                                 np.int32, np.int64, np.uint8, np.uint16,
                                 np.uint32, np.uint64)}
# refinfer's own tags (MPI_TAG_UB >= 32767): a rank's exit notice, and after a timeout,
# "where do you wait?" and its answer
LEAVE_TAG, ASK_TAG, ANSWER_TAG = 32_766, 32_765, 32_764
ANSWERS_WITHIN_S = 0.5  # a rank waiting in a collective answers within this
SPIN_S = 0.05          # a wait polls without sleeping for this long (a collective's speed)
POLL_SLEEP_S = 0.001   # then sleeps this long between polls
# A rank may exit right after its part of a collective, and its notice overtake
# that part: a member gone for this long without the collective completing
# never joined it.
DEPARTURE_GRACE_S = 1.0
_NOTHING = np.empty(0, np.uint8)
_departed: dict[int, float] = {}    # world rank -> when its exit notice came


def _bytes(x: np.ndarray) -> np.ndarray:
    """A contiguous array's memory as a flat uint8 view (no copy)."""
    return x.reshape(-1).view(np.uint8)


class MPICommunicator(Communicator):
    """A rank of an MPI communicator (the world, or a group of it)."""

    def __init__(self, comm: "MPI.Comm", members=None):
        super().__init__(comm.Get_rank(), members if members is not None
                         else range(comm.Get_size()))
        self.comm = comm

    def all_reduce(self, x, op="sum"):
        x = np.ascontiguousarray(x)
        if x.dtype not in _TYPED:
            return reduce_arrays(self._every_value(x), op)
        out = np.empty_like(x)
        self._wait(self.comm.Iallreduce(x, out, op=_OPS[op]), "AllReduce")
        return out

    def _every_value(self, x: np.ndarray) -> list[np.ndarray]:
        received = np.empty((self.size,) + x.shape, x.dtype)
        self._wait(self.comm.Iallgather(_bytes(x), _bytes(received)), "AllGather")
        return list(received)

    def all_gather(self, x):
        x = np.ascontiguousarray(x)
        out = np.empty((self.size * x.shape[0],) + x.shape[1:], x.dtype)
        self._wait(self.comm.Iallgather(_bytes(x), _bytes(out)), "AllGather")
        return out

    def reduce_scatter(self, x, op="sum"):
        check_split(x, self.size, "ReduceScatter")
        x = np.ascontiguousarray(x)
        if x.dtype not in _TYPED:
            total = reduce_arrays(self._every_value(x), op)
            return np.array(np.split(total, self.size)[self.rank], copy=True)
        out = np.empty((x.shape[0] // self.size,) + x.shape[1:], x.dtype)
        self._wait(self.comm.Ireduce_scatter_block(x, out, op=_OPS[op]),
                   "ReduceScatter")
        return out

    def broadcast(self, x, root):
        out = np.array(x, copy=True, order="C")
        self._wait(self.comm.Ibcast(_bytes(out), root=root), "Broadcast")
        return out

    def all_to_all(self, blocks):
        sent = np.ascontiguousarray(np.stack(blocks))
        received = np.empty_like(sent)
        self._wait(self.comm.Ialltoall(_bytes(sent), _bytes(received)), "AlltoAll")
        return list(received)

    def send(self, x, dest, tag=0):
        self._wait(self.comm.Isend(_bytes(np.ascontiguousarray(x)), dest=dest, tag=tag),
                   f"Send to rank {dest}")

    def recv(self, shape, dtype, source, tag=0):
        out = np.empty(tuple(shape), dtype)
        status = MPI.Status()
        self._wait(self.comm.Irecv(_bytes(out), source=source, tag=tag),
                   f"Receive from rank {source}", status)
        if status.Get_count(MPI.BYTE) != out.nbytes:
            raise ValueError(f"Receive expects {out.dtype}{list(out.shape)} "
                             f"({out.nbytes} bytes), rank {source} sent "
                             f"{status.Get_count(MPI.BYTE)} bytes")
        return out

    def barrier(self):
        self._wait(self.comm.Ibarrier(), "Barrier")

    def _wait(self, request: "MPI.Request", what: str, status=None) -> None:
        """Wait for ``request`` as its blocking form would, but raise
        :class:`CommAborted` when a member of this group has exited (it will
        never join) or after the session's ``timeout_s``."""
        if request.Test(status):
            return
        timeout = WAIT_TIMEOUT_S.get()
        start = time.monotonic()
        while not request.Test(status):
            now = time.monotonic()
            waited = now - start
            gone = sorted(rank for rank, since in departed_ranks().items()
                          if rank in self.members and now - since > DEPARTURE_GRACE_S)
            if gone:
                raise CommAborted(f"{self._describe(what)}: rank(s) {gone} exited "
                                  "without joining it")
            if timeout is not None and waited > timeout:
                raise CommAborted(f"{self._describe(what)} did not complete in "
                                  f"{timeout:g} s ([distributed] timeout_s): "
                                  f"{self._absent(self._where(what))}")
            if waited > SPIN_S:
                _answer_questions(self._where(what))
                time.sleep(POLL_SLEEP_S)

    def _where(self, what: str) -> str:
        return f"{what} over world ranks {list(self.members)}"

    def _describe(self, what: str) -> str:
        return f"rank {MPI.COMM_WORLD.Get_rank()} waited in {self._where(what)}"

    def _absent(self, where: str) -> str:
        """Which members are stuck: ask every other member where it waits; one
        waiting in a collective answers at once, a stuck one never."""
        world = MPI.COMM_WORLD
        others = [rank for rank in self.members if rank != world.Get_rank()]
        for rank in others:
            world.Send(_NOTHING, dest=rank, tag=ASK_TAG)
        answers = _answers(set(others), time.monotonic() + ANSWERS_WITHIN_S)
        stuck = [rank for rank in others if rank not in answers]
        elsewhere = [f"rank {rank} waits in {text}" for rank, text in sorted(answers.items())
                     if text != where]
        found = ([f"rank(s) {stuck} did not answer: stuck outside any collective"]
                 if stuck else []) + elsewhere
        return "; ".join(found) or "every rank of the group waits in it"

    def _create_group(self, world_ranks):
        local = [self.members.index(r) for r in world_ranks]
        return MPICommunicator(self.comm.Create_group(self.comm.Get_group().Incl(local)),
                               world_ranks)

    def fail(self, error):
        """Print the error and abort the whole job: MPI has no way to make
        peers that wait in a collective give up."""
        world = MPI.COMM_WORLD
        if world.Get_size() == 1:
            return
        report_failure(world.Get_rank(), world.Get_size(), error)
        abort_job()


def _answer_questions(where: str) -> None:
    """Tell every rank that asked (after its timeout) where this one waits."""
    world, status = MPI.COMM_WORLD, MPI.Status()
    while world.Iprobe(source=MPI.ANY_SOURCE, tag=ASK_TAG, status=status):
        world.Recv(_NOTHING, source=status.Get_source(), tag=ASK_TAG)
        world.Send(np.frombuffer(where.encode(), np.uint8), dest=status.Get_source(),
                   tag=ANSWER_TAG)


def _answers(ranks: set[int], deadline: float) -> dict[int, str]:
    """The answers of ``ranks`` to a "where do you wait?" that come before ``deadline``."""
    world, status, answers = MPI.COMM_WORLD, MPI.Status(), {}
    while set(answers) != ranks and time.monotonic() < deadline:
        if not world.Iprobe(source=MPI.ANY_SOURCE, tag=ANSWER_TAG, status=status):
            time.sleep(POLL_SLEEP_S)
            continue
        text = np.empty(status.Get_count(MPI.BYTE), np.uint8)
        world.Recv(text, source=status.Get_source(), tag=ANSWER_TAG)
        answers[status.Get_source()] = text.tobytes().decode()
    return answers


def departed_ranks() -> dict[int, float]:
    """World ranks that have exited, from the exit notices received so far,
    with when each notice came (``time.monotonic``)."""
    world, status = MPI.COMM_WORLD, MPI.Status()
    while world.Iprobe(source=MPI.ANY_SOURCE, tag=LEAVE_TAG, status=status):
        world.Recv(_NOTHING, source=status.Get_source(), tag=LEAVE_TAG)
        _departed.setdefault(status.Get_source(), time.monotonic())
    return _departed


def leave_at_exit() -> None:
    """Make this rank's exit, however it comes, known to the other ranks."""
    atexit.register(leave_job)


def leave_job() -> None:
    """Tell every other rank that this one exits (a rank waiting for it in a
    collective then aborts the job instead of waiting for ever), then wait
    for every other rank's notice: all ranks send one when they exit."""
    world = MPI.COMM_WORLD
    me, size = world.Get_rank(), world.Get_size()
    sys.stdout.flush()
    sys.stderr.flush()
    wait_until_output_is_read()      # a peer may abort the job at the notice
    sends = [world.Isend(_NOTHING, dest=rank, tag=LEAVE_TAG)
             for rank in range(size) if rank != me]
    for rank in sorted(set(range(size)) - {me} - set(departed_ranks())):
        world.Recv(_NOTHING, source=rank, tag=LEAVE_TAG)
        _departed[rank] = time.monotonic()
    MPI.Request.Waitall(sends)


def report_failure(rank: int, size: int, error: BaseException) -> None:
    """Why rank ``rank`` fails, on stderr: the message, then the traceback
    unless the error is a diagnosis (a ``DistributedError``, or one caused
    by it: a job set up wrongly, which its message says all about)."""
    summary = f"{type(error).__name__}: {error}".splitlines()[0]
    diagnosed = isinstance(error, DistributedError) or \
        isinstance(error.__cause__, DistributedError)
    text = "" if diagnosed else \
        "\n" + "".join(traceback.format_exception(error)).rstrip()
    print(f"refinfer: rank {rank} of {size} failed, aborting the MPI job: "
          f"{summary}{text}", file=sys.stderr, flush=True)


def abort_job(code: int = 1) -> None:
    """Remove this job's shared-memory segments (MPI_Abort leaves them in
    /dev/shm), then, once mpirun has read this rank's output, abort every rank."""
    shm.unlink_own_segments()
    sys.stdout.flush()
    sys.stderr.flush()
    wait_until_output_is_read()
    MPI.COMM_WORLD.Abort(code)
    os._exit(code)  # not reached: Abort ends the process
