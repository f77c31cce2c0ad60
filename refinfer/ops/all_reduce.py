"""AllReduce."""
from refinfer.distributed import group_communicator
from refinfer.registry import register

from ._ref.comm import FAMILY, WORLD_GROUP, rank_ids, reduce_op
from ._ref.common import NUMBERS


@register("AllReduce", family=FAMILY, side_effect=True, dtypes=NUMBERS,
          convert={"op": reduce_op, "group_rank_ids": rank_ids})
def all_reduce(input_x, op="sum", group=WORLD_GROUP, group_rank_ids=None):
    """Elementwise reduction over the ranks of a group; every rank gets it.

    y = x_0 op x_1 op ... op x_(n-1), n = the group's size, op in sum, max,
    min, prod; same shape and dtype as input_x. What row-parallel MatMuls
    end with (each rank holds a partial product).

    Arguments: input_x; op="sum"; group="hccl_world_group" (a world-group
    name of any backend, a user group from the config, an automatic-slicing
    hash name); group_rank_ids=None (attribute written by automatic slicing;
    wins over the name). PRIMITIVE attributes fusion, index, no_eliminate
    only schedule the op and are ignored.
    MindSpore quirks: its CPU kernel only sums over the world group, and
    Lite's GPU runtime ignores op and group; refinfer honours both.
    """
    return group_communicator(group, group_rank_ids).all_reduce(input_x, op)
