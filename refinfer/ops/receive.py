"""Receive."""
from refinfer import args
from refinfer.distributed import group_communicator
from refinfer.registry import register

from ._ref.comm import FAMILY, WORLD_GROUP, rank_ids
from ._ref.common import ALL


@register("Receive", family=FAMILY, side_effect=True, dtypes=ALL,
          convert={"sr_tag": args.scalar, "src_rank": args.scalar,
                   "shape": args.ints, "dtype": args.dtype,
                   "group_rank_ids": rank_ids})
def receive(sr_tag, src_rank, shape, dtype, group=WORLD_GROUP,
            group_rank_ids=None):
    """Point to point: the tensor group rank src_rank sent with tag sr_tag.

    Takes no tensor input; the attributes give the result's shape and dtype
    (a message of another size is an error).

    Arguments: sr_tag; src_rank (rank in the group); shape; dtype;
    group="hccl_world_group"; group_rank_ids=None.
    MindSpore quirk: no CPU kernel (exports fine, runs on Ascend/GPU).
    """
    return group_communicator(group, group_rank_ids).recv(
        shape, dtype, int(src_rank), int(sr_tag))
