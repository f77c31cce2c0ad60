"""AlltoAll."""
import numpy as np

from refinfer import args
from refinfer.distributed import group_communicator
from refinfer.registry import register

from ._ref.comm import FAMILY, WORLD_GROUP, check_rank_size, optional_int, rank_ids
from ._ref.common import ALL


@register("AlltoAll", family=FAMILY, side_effect=True, dtypes=ALL,
          convert={"split_count": args.scalar, "split_dim": args.scalar,
                   "concat_dim": args.scalar, "rank_size": optional_int,
                   "group_rank_ids": rank_ids})
def all_to_all(input_x, split_count, split_dim, concat_dim, group=WORLD_GROUP,
               rank_size=None, group_rank_ids=None):
    """Split, exchange, concatenate: block j of every rank goes to rank j.

    Rank r splits x into split_count equal blocks on split_dim, sends block j
    to group rank j, and returns the blocks it received concatenated on
    concat_dim in sender order: y_r = concat([split(x_s)[r] for s], concat_dim).
    What changes a tensor's sliced axis (automatic slicing's redistribution).

    Arguments: input_x; split_count (must equal the group size); split_dim,
    concat_dim (negative allowed); group="hccl_world_group"; rank_size=None;
    group_rank_ids=None.
    MindSpore quirk: no CPU kernel (exports fine, runs on Ascend/GPU).
    """
    comm = group_communicator(group, group_rank_ids)
    check_rank_size(comm, rank_size, "AlltoAll")
    if int(split_count) != comm.size:
        raise ValueError(f"AlltoAll: split_count {split_count} differs from the "
                         f"group size {comm.size}")
    if input_x.shape[int(split_dim)] % comm.size:
        raise ValueError(f"AlltoAll: axis {split_dim} of {list(input_x.shape)} "
                         f"does not split into {comm.size} equal blocks")
    blocks = np.split(input_x, comm.size, axis=int(split_dim))
    return np.concatenate(comm.all_to_all(blocks), axis=int(concat_dim))
