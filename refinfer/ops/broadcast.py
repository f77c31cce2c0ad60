"""Broadcast."""
from refinfer import args
from refinfer.distributed import group_communicator
from refinfer.registry import register

from ._ref.comm import FAMILY, WORLD_GROUP, rank_ids, world_rank_in_group
from ._ref.common import ALL


@register("Broadcast", family=FAMILY, side_effect=True, dtypes=ALL,
          convert={"root_rank": args.scalar, "group_rank_ids": rank_ids})
def broadcast(input_x, root_rank, group=WORLD_GROUP, group_rank_ids=None):
    """Rank root_rank's tensors on every rank of the group.

    Input and output are tuples (MindIR: MakeTuple -> Broadcast ->
    TupleGetItem): y[i] = x[i] of the root; every rank passes tensors of the
    same shapes and dtypes.

    Arguments: input_x (tuple of tensors); root_rank (a *world* rank, as in
    MindSpore); group="hccl_world_group"; group_rank_ids=None.
    """
    comm = group_communicator(group, group_rank_ids)
    root = world_rank_in_group(comm, int(root_rank), "root_rank")
    return tuple(comm.broadcast(x, root) for x in input_x)
