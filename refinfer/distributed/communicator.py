"""The communicator interface the communication kernels call.

A communicator is one rank's handle on a group of ranks. Ranks are numbered
0 .. size-1 inside the communicator; ``members`` gives their numbers in the
world (the whole job), which is how MindIR files name ranks (``root_rank``,
``group_rank_ids``). Every collective takes and returns NumPy arrays; all
members must call the same collectives in the same order, as with MPI.

Two implementations: :class:`refinfer.distributed.mpi.MPICommunicator`
(processes under ``mpirun``) and
:class:`refinfer.distributed.local.ThreadCommunicator` (ranks as threads of
one process, for tests and the oracle).
"""
from __future__ import annotations

import contextvars
import functools
from abc import ABC, abstractmethod
from typing import Sequence

import numpy as np

REDUCE_OPS = ("sum", "max", "min", "prod")
_NUMPY_REDUCE = {"sum": np.add, "max": np.maximum, "min": np.minimum,
                 "prod": np.multiply}


# How long a collective of the calling rank may wait for the others (seconds; None:
# for ever): the ``[distributed] timeout_s`` of the session made current for it.
WAIT_TIMEOUT_S: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "refinfer_wait_timeout_s", default=None)


class DistributedError(RuntimeError):
    """A distributed run is set up wrongly (no communicator, unknown group,
    rank count that does not match the model)."""


class CommAborted(RuntimeError):
    """A collective could not complete: another rank failed or left."""


def reduce_arrays(values: Sequence[np.ndarray], op: str) -> np.ndarray:
    """Elementwise ``op`` over ``values``, combined in rank order."""
    return functools.reduce(_NUMPY_REDUCE[op], values)


def check_split(x: np.ndarray, parts: int, what: str) -> None:
    """Axis 0 of ``x`` must split into ``parts`` equal blocks."""
    if x.ndim == 0 or x.shape[0] % parts:
        raise ValueError(f"{what}: the first dimension of a {list(x.shape)} "
                         f"tensor does not split into {parts} equal blocks")


class Communicator(ABC):
    """One rank's view of a group of ranks."""

    def __init__(self, rank: int, members: Sequence[int]):
        self.rank = rank                      # this rank, in the group
        self.members = tuple(members)         # world rank of each group rank
        self.size = len(self.members)
        self._groups: dict[tuple, Communicator] = {}

    def __repr__(self):
        return (f"{type(self).__name__}(rank {self.rank} of {self.size}, "
                f"world ranks {list(self.members)})")

    # -- collectives ---------------------------------------------------------
    @abstractmethod
    def all_reduce(self, x: np.ndarray, op: str = "sum") -> np.ndarray:
        """Elementwise ``op`` (sum, max, min, prod) of every rank's ``x``."""

    @abstractmethod
    def all_gather(self, x: np.ndarray) -> np.ndarray:
        """Every rank's ``x`` concatenated on axis 0, in rank order."""

    @abstractmethod
    def reduce_scatter(self, x: np.ndarray, op: str = "sum") -> np.ndarray:
        """Block ``rank`` (of ``size`` equal blocks on axis 0) of the
        elementwise ``op`` of every rank's ``x``."""

    @abstractmethod
    def broadcast(self, x: np.ndarray, root: int) -> np.ndarray:
        """Rank ``root``'s ``x`` on every rank (same shape and dtype)."""

    @abstractmethod
    def all_to_all(self, blocks: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Send ``blocks[j]`` to rank j; returns the block each rank sent
        here, in rank order. Blocks have one shape and dtype."""

    @abstractmethod
    def send(self, x: np.ndarray, dest: int, tag: int = 0) -> None:
        """Point to point: ``x`` to rank ``dest`` (does not wait for it)."""

    @abstractmethod
    def recv(self, shape, dtype, source: int, tag: int = 0) -> np.ndarray:
        """Point to point: the array rank ``source`` sent with ``tag``."""

    @abstractmethod
    def barrier(self) -> None:
        """Wait until every rank got here."""

    # -- groups and failure --------------------------------------------------
    def group(self, world_ranks: Sequence[int]) -> "Communicator":
        """The sub-communicator of these world ranks, in this order (the
        calling rank must be one of them). Created once, then cached;
        members create it collectively, as their first use of it."""
        key = tuple(int(r) for r in world_ranks)
        if key == self.members:
            return self
        if key not in self._groups:
            missing = [r for r in key if r not in self.members]
            if missing or len(set(key)) != len(key):
                raise DistributedError(f"group {list(key)} is not a set of "
                                       f"ranks of {self}")
            self._groups[key] = self._create_group(key)
        return self._groups[key]

    @abstractmethod
    def _create_group(self, world_ranks: tuple) -> "Communicator":
        """A new sub-communicator of ``world_ranks``."""

    @abstractmethod
    def fail(self, error: BaseException) -> None:
        """This rank failed with ``error``: make sure no other rank waits for
        it forever (MPI: print the error and abort the job)."""
