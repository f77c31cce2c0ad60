"""BatchToSpaceND."""
import math

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("BatchToSpaceND", family="shape", dtypes=ALL,
          convert={"block_shape": args.ints, "crops": args.int_pairs},
          no_kernel="copy")
def batch_to_space_nd(input_x, block_shape, crops):
    """Moves blocks of the batch axis into the trailing spatial axes, then crops.

    With M = len(block_shape) spatial axes (the last M) and B = prod(
    block_shape): input_x of shape (B * n, C..., s1, ..., sM) gives
    y[b, ..., h1 * k1 + o1, ...] = input_x[(o1 * k2 ... + oM) * n + b, ...,
    h1, ...], then crops[i] = (start, end) are cut from spatial axis i.
    Arguments: input_x; block_shape (attribute, ints >= 1); crops (attribute,
    M pairs >= 0). The inverse of SpaceToBatchND. All dtypes.
    """
    block = tuple(block_shape)
    crops = list(crops)
    m, blocks = len(block), math.prod(block)
    if min(block, default=1) < 1 or len(crops) != m or input_x.ndim < m + 1 \
            or input_x.shape[0] % blocks:
        raise ValueError(f"BatchToSpaceND: input_x of shape {input_x.shape} does not fit "
                         f"block_shape {block} and crops {crops}")
    batch = input_x.shape[0]
    rest = input_x.shape[1:input_x.ndim - m]
    spatial = input_x.shape[input_x.ndim - m:]
    x = input_x.reshape(block + (batch // blocks,) + rest + spatial)
    # (k1..kM, n, rest, s1..sM) -> (n, rest, s1, k1, ..., sM, kM)
    lead = len(rest) + 1
    order = [m] + [m + 1 + i for i in range(len(rest))]
    for i in range(m):
        order += [m + lead + i, i]
    x = x.transpose(order).reshape((batch // blocks,) + rest
                                   + tuple(s * k for s, k in zip(spatial, block)))
    window = tuple(slice(start, x.shape[x.ndim - m + i] - end)
                   for i, (start, end) in enumerate(crops))
    return x[(Ellipsis,) + window].copy()
