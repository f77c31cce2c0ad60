"""SpaceToBatchND."""
import math

import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("SpaceToBatchND", family="shape", dtypes=ALL,
          convert={"block_shape": args.ints, "paddings": args.int_pairs},
          no_kernel="copy")
def space_to_batch_nd(input_x, block_shape, paddings):
    """Zero-pads the trailing spatial axes, then moves blocks of them into the batch.

    With M = len(block_shape) spatial axes (the last M): pad spatial axis i by
    paddings[i] = (before, after), then y[(o1 * k2 ... + oM) * n + b, ...,
    h1, ...] = padded[b, ..., h1 * k1 + o1, ...]. Arguments: input_x;
    block_shape (attribute, ints >= 1, dividing the padded sizes); paddings
    (attribute, M pairs >= 0). The inverse of BatchToSpaceND. All dtypes.
    """
    block = tuple(block_shape)
    pads = list(paddings)
    m = len(block)
    fits = len(pads) == m and input_x.ndim >= m + 1
    padded_sizes = [input_x.shape[input_x.ndim - m + i] + sum(pads[i])
                    for i in range(m)] if fits else []
    if not fits or min(block) < 1 or any(size % k for size, k
                                         in zip(padded_sizes, block)):
        raise ValueError(f"SpaceToBatchND: input_x of shape {input_x.shape} does not "
                         f"fit block_shape {block} and paddings {pads}")
    x = np.pad(input_x, [(0, 0)] * (input_x.ndim - m) + pads)
    batch, rest = x.shape[0], x.shape[1:x.ndim - m]
    # (n, rest, s1, k1, ..., sM, kM) -> (k1..kM, n, rest, s1..sM)
    split = (batch,) + rest + sum(((s // k, k) for s, k in zip(padded_sizes, block)), ())
    lead = 1 + len(rest)
    order = ([lead + 2 * i + 1 for i in range(m)] + list(range(lead))
             + [lead + 2 * i for i in range(m)])
    out = x.reshape(split).transpose(order)
    return out.reshape((batch * math.prod(block),) + rest
                       + tuple(s // k for s, k in zip(padded_sizes, block)))
