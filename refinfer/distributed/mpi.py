"""The MPI communicator: mpi4py's buffer API on contiguous NumPy arrays.

Data movement (AllGather, Broadcast, AlltoAll, Send/Receive) moves raw
bytes, so every dtype works and nothing is pickled. Reductions use MPI's
typed operations where MPI has the type; for the others (float16, bool) the
ranks gather every value and reduce locally, in rank order.

Importing this module initialises MPI; :func:`refinfer.distributed.launch.mpi_world`
does that once, when a run launched by ``mpirun`` first needs it.
"""
from __future__ import annotations

import os
import sys
import traceback

import numpy as np
from mpi4py import MPI

from . import shm
from .communicator import Communicator, check_split, reduce_arrays
from .drain import wait_until_output_is_read

_OPS = {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN, "prod": MPI.PROD}
_TYPED = {np.dtype(t) for t in (np.float32, np.float64, np.int8, np.int16,
                                 np.int32, np.int64, np.uint8, np.uint16,
                                 np.uint32, np.uint64)}


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
        self.comm.Allreduce(x, out, op=_OPS[op])
        return out

    def _every_value(self, x: np.ndarray) -> list[np.ndarray]:
        received = np.empty((self.size,) + x.shape, x.dtype)
        self.comm.Allgather(_bytes(x), _bytes(received))
        return list(received)

    def all_gather(self, x):
        x = np.ascontiguousarray(x)
        out = np.empty((self.size * x.shape[0],) + x.shape[1:], x.dtype)
        self.comm.Allgather(_bytes(x), _bytes(out))
        return out

    def reduce_scatter(self, x, op="sum"):
        check_split(x, self.size, "ReduceScatter")
        x = np.ascontiguousarray(x)
        if x.dtype not in _TYPED:
            total = reduce_arrays(self._every_value(x), op)
            return np.array(np.split(total, self.size)[self.rank], copy=True)
        out = np.empty((x.shape[0] // self.size,) + x.shape[1:], x.dtype)
        self.comm.Reduce_scatter_block(x, out, op=_OPS[op])
        return out

    def broadcast(self, x, root):
        out = np.array(x, copy=True, order="C")
        self.comm.Bcast(_bytes(out), root=root)
        return out

    def all_to_all(self, blocks):
        sent = np.ascontiguousarray(np.stack(blocks))
        received = np.empty_like(sent)
        self.comm.Alltoall(_bytes(sent), _bytes(received))
        return list(received)

    def send(self, x, dest, tag=0):
        self.comm.Send(_bytes(np.ascontiguousarray(x)), dest=dest, tag=tag)

    def recv(self, shape, dtype, source, tag=0):
        out = np.empty(tuple(shape), dtype)
        status = MPI.Status()
        self.comm.Recv(_bytes(out), source=source, tag=tag, status=status)
        if status.Get_count(MPI.BYTE) != out.nbytes:
            raise ValueError(f"Receive expects {out.dtype}{list(out.shape)} "
                             f"({out.nbytes} bytes), rank {source} sent "
                             f"{status.Get_count(MPI.BYTE)} bytes")
        return out

    def barrier(self):
        self.comm.Barrier()

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


def report_failure(rank: int, size: int, error: BaseException) -> None:
    """Why rank ``rank`` fails, with its traceback, on stderr."""
    summary = f"{type(error).__name__}: {error}".splitlines()[0]
    text = "".join(traceback.format_exception(error)).rstrip()
    print(f"refinfer: rank {rank} of {size} failed, aborting the MPI job: "
          f"{summary}\n{text}", file=sys.stderr, flush=True)


def abort_job(code: int = 1) -> None:
    """Remove this job's shared-memory segments (MPI_Abort leaves them in
    /dev/shm), then, once mpirun has read this rank's output, abort every rank."""
    shm.unlink_own_segments()
    sys.stdout.flush()
    sys.stderr.flush()
    wait_until_output_is_read()
    MPI.COMM_WORLD.Abort(code)
    os._exit(code)  # not reached: Abort ends the process
