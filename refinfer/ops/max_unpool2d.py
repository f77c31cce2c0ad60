"""MaxUnpool2D."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import INTS, NUMBERS, require_dtype
from ._ref.window import check_4d, from_nchw, to_nchw


@register("MaxUnpool2D", family="nn", dtypes=NUMBERS,
          convert={"ksize": args.pair, "strides": args.pair, "pads": args.pair,
                   "output_shape": args.ints, "data_format": args.data_format},
          no_kernel="copy")
def max_unpool2d(x, argmax, ksize, strides=0, pads=0, output_shape=(),
                 data_format="NCHW"):
    """The inverse of MaxPool with argmax: each value back at its index, zeros
    elsewhere.

    y[n, c].flat[argmax[n, c, h, w]] = x[n, c, h, w] in a zero plane of
    H_out = (H - 1) * stride - 2 * pad + k (W_out likewise), or
    output_shape's last two entries. Arguments (classic PRIMITIVE): x
    (N, C, H, W); argmax (int, x's shape, flat indices into one output
    plane); ksize; strides=0 (0: ksize); pads=0; output_shape=(); data_format
    "NCHW" or "NHWC".
    """
    check_4d(x, "MaxUnpool2D")
    require_dtype("MaxUnpool2D", "argmax", argmax, INTS)
    if argmax.shape != x.shape:
        raise ValueError(f"MaxUnpool2D: argmax shape {argmax.shape} must equal x's "
                         f"{x.shape}")
    x, argmax = to_nchw(x, data_format), to_nchw(argmax, data_format)
    strides = ksize if strides == (0, 0) else strides
    size = tuple(output_shape[-2:]) if output_shape else tuple(
        (x.shape[2 + i] - 1) * strides[i] - 2 * pads[i] + ksize[i] for i in range(2))
    planes = np.zeros(x.shape[:2] + (size[0] * size[1],), x.dtype)
    index = argmax.reshape(x.shape[:2] + (-1,)).astype(np.int64)
    if index.size and (index.min() < 0 or index.max() >= planes.shape[-1]):
        raise ValueError(f"MaxUnpool2D: argmax values must lie in [0, "
                         f"{planes.shape[-1]}) for an output plane of {size}")
    np.put_along_axis(planes, index, x.reshape(index.shape), axis=-1)
    return from_nchw(planes.reshape(x.shape[:2] + size), data_format)
