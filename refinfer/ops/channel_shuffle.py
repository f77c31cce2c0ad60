"""ChannelShuffle."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("ChannelShuffle", family="shape", dtypes=ALL,
          convert={"group": args.scalar}, no_kernel="copy")
def channel_shuffle(x, group):
    """Interleaves the channels of group groups (ShuffleNet).

    x of shape (N, C, *) viewed as (N, group, C / group, *), its axes 1 and 2
    swapped, and flattened back: output channel i * group + g is input
    channel g * (C / group) + i. Arguments: x (rank >= 3); group (attribute,
    dividing C). All dtypes.
    """
    group = int(group)
    if x.ndim < 3 or group < 1 or x.shape[1] % group:
        raise ValueError(f"ChannelShuffle: x of shape {x.shape} needs rank >= 3 and a "
                         f"channel count divisible by group {group}")
    n, c = x.shape[:2]
    grouped = x.reshape((n, group, c // group) + x.shape[2:])
    return grouped.swapaxes(1, 2).reshape(x.shape)
