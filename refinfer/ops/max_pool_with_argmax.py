"""MaxPoolWithArgmax and MaxPoolWithArgmaxV2."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import window
from ._ref.common import NUMBERS, optional
from ._ref.conv import spatial_ints
from ._ref.pool import (argmax_dtype, max_pool, max_pool_with_argmax_with,
                        pool_with_argmax)
from ._ref.window import check_4d


def _middle_pair(value):
    """ksize / strides of the classic MaxPoolWithArgmax: an int, a pair, or
    the 4-value (1, h, w, 1) form it stores."""
    v = args.ints(value)
    return (v[1], v[2]) if len(v) == 4 else args.pair(v)


@register("MaxPoolWithArgmax", family="nn", dtypes=NUMBERS,
          attrs={"ksize": "kernel_size", "padding": "pad_mode",
                 "format": "data_format"},
          convert={"kernel_size": _middle_pair, "strides": _middle_pair,
                   "pad_mode": args.pad_mode, "data_format": args.data_format},
          kernels={"numba": window.max_pool_with_argmax})
def max_pool_with_argmax(x, kernel_size=(1, 1), strides=(1, 1),
                         pad_mode="VALID", data_format="NCHW"):
    """2-D max pooling returning (y, argmax), the classic primitive.

    y as MaxPool; argmax (int32) is the position of each maximum as a flat
    index into its sample's (C, H, W) (first maximum on ties; verified on
    MindSpore 2.7.1 CPU, unlike V2's per-channel (H, W) index). Attributes:
    kernel_size ("ksize"), strides (ints, pairs or the stored (1, h, w, 1)
    form); pad_mode "VALID" | "SAME" (also "padding"); data_format "NCHW".
    MindSpore 2.7.1 CPU quirk kept here: SAME keeps Conv2D's output size
    and total padding but puts max((k - s) // 2, 0) of it before, the rest
    after (7 rows, kernel 3, stride 2: 0 before and 2 after, where Conv2D
    and MaxPool put 1 and 1). dtypes: floats and integers.
    """
    return max_pool_with_argmax_with(max_pool, x, kernel_size, strides,
                                     pad_mode, data_format)


@register("MaxPoolWithArgmaxV2", family="nn", dtypes=NUMBERS,
          convert={"kernel_size": spatial_ints(2),
                   "strides": optional(spatial_ints(2)),
                   "pads": spatial_ints(2), "dilation": spatial_ints(2),
                   "ceil_mode": args.boolean, "argmax_type": argmax_dtype},
          kernels={"numba": window.max_pool_with_argmax_v2})
def max_pool_with_argmax_v2(x, kernel_size, strides=None, pads=(0, 0),
                            dilation=(1, 1), ceil_mode=False,
                            argmax_type=np.dtype(np.int64)):
    """2-D max pooling with padding, dilation and ceil mode; a (y, argmax).

    What ops.max_pool2d(return_indices=True) exports. argmax is the
    position of each maximum as a flat index into (H, W). Attributes
    (classic PRIMITIVE, (1, 1, h, w) forms): kernel_size, strides (None:
    kernel_size), pads (added on both sides), dilation, ceil_mode,
    argmax_type (3 = int32, 4 = int64, or a dtype).
    dtypes: floats and integers.
    """
    check_4d(x, "MaxPoolWithArgmaxV2")
    return pool_with_argmax(max_pool, x, kernel_size, strides, pads, dilation,
                            ceil_mode, argmax_type)
