"""Send."""
from refinfer import args
from refinfer.distributed import group_communicator
from refinfer.registry import register

from ._ref.comm import FAMILY, WORLD_GROUP, rank_ids
from ._ref.common import ALL


@register("Send", family=FAMILY, side_effect=True, dtypes=ALL,
          convert={"sr_tag": args.scalar, "dest_rank": args.scalar,
                   "group_rank_ids": rank_ids})
def send(input_x, sr_tag, dest_rank, group=WORLD_GROUP, group_rank_ids=None):
    """Point to point: send input_x to group rank dest_rank (pipeline stages).

    Returns input_x unchanged (MindIR keeps the Send alive with Depend). The
    receiving rank's Receive must name this rank as src_rank and the same
    sr_tag. Under MPI a large message waits until it is received.

    Arguments: input_x; sr_tag (message tag); dest_rank (rank in the group);
    group="hccl_world_group"; group_rank_ids=None. shape, dtype and
    group_back attributes are not needed to send.
    """
    group_communicator(group, group_rank_ids).send(input_x, int(dest_rank),
                                                   int(sr_tag))
    return input_x
