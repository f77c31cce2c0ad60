"""MaxPool3DWithArgmax."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import window
from ._ref.common import NUMBERS
from ._ref.conv import spatial_ints
from ._ref.pool import (argmax_dtype, check_ncdhw, max_pool,
                        pool_with_argmax)


@register("MaxPool3DWithArgmax", family="nn", dtypes=NUMBERS,
          attrs={"format": "data_format"},
          convert={"ksize": spatial_ints(3), "strides": spatial_ints(3),
                   "pads": spatial_ints(3), "dilation": spatial_ints(3),
                   "ceil_mode": args.boolean, "data_format": args.data_format,
                   "argmax_type": argmax_dtype},
          kernels={"numba": window.max_pool3d_with_argmax})
def max_pool3d_with_argmax(x, ksize, strides, pads, dilation=(1, 1, 1),
                           ceil_mode=False, data_format="NCDHW",
                           argmax_type=np.dtype(np.int64)):
    """3-D max pooling returning (y, argmax); nn.MaxPool2d/1d with padding.

    y as MaxPool3D with dilated windows; argmax[n, c, ...] is the position
    of the maximum as a flat index into the input's (D, H, W) (first
    maximum on ties). nn.MaxPool2d(pad_mode="pad") and nn.MaxPool1d export
    ExpandDims + this op + TupleGetItem(0) + Squeeze.

    Attributes (classic PRIMITIVE): ksize, strides, pads (3 values; pads
    are added on both sides of each axis), dilation=(1, 1, 1),
    ceil_mode=False, data_format "NCDHW", argmax_type "int64" (or
    "int32"). dtypes: floats and integers.
    """
    check_ncdhw(x, data_format)
    return pool_with_argmax(max_pool, x, ksize, strides, pads, dilation,
                            ceil_mode, argmax_type)
