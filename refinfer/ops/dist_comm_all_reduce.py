"""DistCommAllReduce."""
from refinfer.distributed import group_communicator
from refinfer.registry import register

from ._ref.comm import FAMILY, WORLD_GROUP, reduce_op
from ._ref.common import NUMBERS


@register("DistCommAllReduce", family=FAMILY, side_effect=True, dtypes=NUMBERS,
          convert={"op_type": reduce_op}, mutates="input")
def dist_comm_all_reduce(input, op_type="sum", group=WORLD_GROUP):
    """AllReduce as ``mint.distributed.all_reduce`` exports it.

    y = x_0 op x_1 op ... op x_(n-1) over the group (op in sum, max, min,
    prod), same shape and dtype. A PRIMITIVE_FUNCTION: op and group are
    constant inputs.

    Arguments: input; op_type="sum"; group="hccl_world_group".
    MindSpore quirks: the primitive reduces ``input`` in place
    (``mint.distributed.all_reduce(y)`` then reads ``y`` through a Load
    after the op's UpdateState); this kernel returns the result and leaves
    its input alone, and the graph builder points such Loads at the result.
    No CPU kernel in MindSpore.
    """
    return group_communicator(group).all_reduce(input, op_type)
