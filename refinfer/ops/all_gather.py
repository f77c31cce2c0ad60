"""AllGather."""
from refinfer.distributed import group_communicator
from refinfer.registry import register

from ._ref.comm import FAMILY, WORLD_GROUP, check_rank_size, optional_int, rank_ids
from ._ref.common import ALL


@register("AllGather", family=FAMILY, side_effect=True, dtypes=ALL,
          convert={"rank_size": optional_int, "group_rank_ids": rank_ids})
def all_gather(input_x, group=WORLD_GROUP, rank_size=None, group_rank_ids=None):
    """Every rank's tensor concatenated on axis 0, in group rank order.

    y = concat([x_0, x_1, ..., x_(n-1)], axis=0): shape [n * d0, d1, ...].
    Column-parallel MatMuls use it, then Split + Concat to move the blocks
    side by side.

    Arguments: input_x (at least 1-D); group="hccl_world_group";
    rank_size=None (the group size the file was sliced for: checked);
    group_rank_ids=None. mean_flag and fusion (training-time attributes) are
    ignored.
    """
    if input_x.ndim == 0:
        raise ValueError("AllGather needs a tensor of rank 1 or more")
    comm = group_communicator(group, group_rank_ids)
    check_rank_size(comm, rank_size, "AllGather")
    return comm.all_gather(input_x)
