"""ReduceScatter."""
from refinfer.distributed import group_communicator
from refinfer.registry import register

from ._ref.comm import (FAMILY, WORLD_GROUP, check_rank_size, optional_int,
                    rank_ids, reduce_op)
from ._ref.common import NUMBERS


@register("ReduceScatter", family=FAMILY, side_effect=True, dtypes=NUMBERS,
          convert={"op": reduce_op, "rank_size": optional_int,
                   "group_rank_ids": rank_ids})
def reduce_scatter(input_x, op="sum", group=WORLD_GROUP, rank_size=None,
                   group_rank_ids=None):
    """Elementwise reduction over the group, then each rank keeps its block.

    y_r = split(x_0 op x_1 op ... op x_(n-1), n, axis=0)[r] for group rank r:
    shape [d0 / n, d1, ...]; d0 must divide by n.

    Arguments: input_x; op="sum" (sum, max, min, prod);
    group="hccl_world_group"; rank_size=None (checked against the group);
    group_rank_ids=None.
    MindSpore quirk: no CPU kernel (exports fine, runs on Ascend/GPU).
    """
    comm = group_communicator(group, group_rank_ids)
    check_rank_size(comm, rank_size, "ReduceScatter")
    return comm.reduce_scatter(input_x, op)
