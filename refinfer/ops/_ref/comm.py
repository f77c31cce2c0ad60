"""Helpers shared by the communication kernels (AllReduce and friends).

The kernels reach their group's communicator through
:func:`refinfer.distributed.group_communicator`, which looks up the session
the runtime made current for the calling rank (a thread of an in-process
run, or the process under mpirun): kernels never hold a communicator.
"""
from refinfer import args
from refinfer.distributed.communicator import REDUCE_OPS

from .common import optional

WORLD_GROUP = "hccl_world_group"   # MindSpore's default group name
FAMILY = "communication"


def reduce_op(value) -> str:
    """MindSpore's ReduceOp (a string: 'sum', 'max', 'min', 'prod')."""
    op = str(value).lower()
    if op not in REDUCE_OPS:
        raise ValueError(f"unknown reduce op {value!r} (expected one of "
                         f"{', '.join(REDUCE_OPS)})")
    return op


rank_ids = optional(args.ints)       # the group_rank_ids attribute
optional_int = optional(args.scalar)


def check_rank_size(comm, rank_size, op: str) -> None:
    """The rank count the file was sliced for must be the group's."""
    if rank_size is not None and int(rank_size) != comm.size:
        raise ValueError(f"{op} was sliced for {int(rank_size)} ranks, its group "
                         f"has {comm.size}")


def world_rank_in_group(comm, world_rank: int, what: str) -> int:
    """The group rank of ``world_rank`` (MindIR names ranks by world rank)."""
    if world_rank not in comm.members:
        raise ValueError(f"{what} {world_rank} is not in the group (world ranks "
                         f"{list(comm.members)})")
    return comm.members.index(world_rank)
