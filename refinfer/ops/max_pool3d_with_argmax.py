"""MaxPool3DWithArgmax."""
import numpy as np

from refinfer import args
from refinfer.registry import register, register_kernel

from ._kernels import window as _fast_window
from ._ref.common import NUMBERS
from ._ref.conv import spatial_ints
from ._ref.pool import max_pool


def argmax_dtype(value) -> np.dtype:
    """The index dtype: "int32" / "int64", a TypeId, or Lite's codes 3 / 4
    (MaxPoolWithArgmaxV2)."""
    if isinstance(value, (int, np.integer)) and int(value) in (3, 4):
        return np.dtype(np.int32 if int(value) == 3 else np.int64)
    return args.dtype(value)


def pool_with_argmax(pool, x, kernel, strides, pads, dilation, ceil_mode,
                     argmax_type):
    """(y, argmax as argmax_type) of ``pool`` (ops/_pool.max_pool or its
    fast twin) with ``pads`` on both sides of each axis; strides None means
    the kernel size."""
    strides = kernel if strides is None else strides
    y, index = pool(x, kernel, strides, dilation, tuple((p, p) for p in pads),
                    ceil_mode, argmax=True)
    return y, index.astype(argmax_type)


@register("MaxPool3DWithArgmax", family="nn", dtypes=NUMBERS,
          attrs={"format": "data_format"},
          convert={"ksize": spatial_ints(3), "strides": spatial_ints(3),
                   "pads": spatial_ints(3), "dilation": spatial_ints(3),
                   "ceil_mode": args.boolean, "data_format": args.data_format,
                   "argmax_type": argmax_dtype})
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
    _check_ncdhw(x, data_format)
    return pool_with_argmax(max_pool, x, ksize, strides, pads, dilation,
                            ceil_mode, argmax_type)


def _check_ncdhw(x, data_format):
    if x.ndim != 5 or data_format != "NCDHW":
        raise ValueError(f"MaxPool3DWithArgmax: NCDHW input expected, got "
                         f"{x.shape}")


# -- numba backend -------------------------------------------------------------
@register_kernel("MaxPool3DWithArgmax", "numba")
def max_pool3d_with_argmax_numba(x, ksize, strides, pads, dilation=(1, 1, 1),
                                 ceil_mode=False, data_format="NCDHW",
                                 argmax_type=np.dtype(np.int64)):
    """MaxPool3DWithArgmax with the pooling kernel of
    ops/_fast_window.py."""
    _check_ncdhw(x, data_format)
    return pool_with_argmax(_fast_window.max_pool, x, ksize, strides, pads,
                            dilation, ceil_mode, argmax_type)
