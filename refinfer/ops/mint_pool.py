"""AvgPool1D, AvgPool2D, AvgPool3DExt and MaxPoolWithIndices / WithMask.

The mint pools take PyTorch's arguments; one helper per kind serves the
ranks, each primitive a thin wrapper that knows its rank.
"""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import window
from ._ref.common import FLOATS, NUMBERS, optional
from ._ref.conv import spatial_ints
from ._ref.pool import (avg_pool, max_pool, max_pool_with_indices_with,
                        torch_avg_pool)

_AVG_CONVERT = {"kernel_size": args.ints, "stride": args.axes,
                "padding": args.ints, "ceil_mode": args.boolean,
                "count_include_pad": args.boolean,
                "divisor_override": args.scalar}


@register("AvgPool1D", family="nn", dtypes=FLOATS,
          convert={k: v for k, v in _AVG_CONVERT.items()
                   if k != "divisor_override"},
          kernels={"numba": window.mint_avg_pool(1)})
def avg_pool1d(input, kernel_size, stride=None, padding=(0,), ceil_mode=False,
               count_include_pad=True):
    """1-D average pooling with PyTorch's arguments (mint.nn.AvgPool1d).

    y = window sum / window size, the size counting padding unless
    count_include_pad=False and never the ceil-mode overhang (AvgPool3D's
    rule). Arguments: input (N, C, L) or (C, L); kernel_size; stride=None
    (= kernel_size); padding=0 (both sides); ceil_mode=False;
    count_include_pad=True. MindSpore 2.7.1 has no CPU kernel for it.
    """
    return torch_avg_pool(avg_pool, 1, input, kernel_size, stride, padding,
                          ceil_mode, count_include_pad, None)


@register("AvgPool2D", family="nn", dtypes=FLOATS, convert=_AVG_CONVERT,
          kernels={"numba": window.mint_avg_pool(2)})
def avg_pool2d(input, kernel_size, stride=None, padding=(0,), ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """2-D average pooling with PyTorch's arguments (mint.nn.AvgPool2d).

    As AvgPool1D on (N, C, H, W) or (C, H, W), plus divisor_override=None
    (a non-zero value replaces the window size). kernel_size, stride,
    padding: an int (possibly a 1-tuple) or a pair. MindSpore 2.7.1 has
    no CPU kernel for it.
    """
    return torch_avg_pool(avg_pool, 2, input, kernel_size, stride, padding,
                          ceil_mode, count_include_pad, divisor_override)


@register("AvgPool3DExt", family="nn", dtypes=FLOATS, convert=_AVG_CONVERT,
          kernels={"numba": window.mint_avg_pool(3)})
def avg_pool3d_ext(input, kernel_size, stride=None, padding=(0,),
                   ceil_mode=False, count_include_pad=True,
                   divisor_override=None):
    """3-D average pooling with PyTorch's arguments (mint.nn.AvgPool3d).

    As AvgPool2D on (N, C, D, H, W) or (C, D, H, W). MindSpore 2.7.1 has
    no CPU kernel for it.
    """
    return torch_avg_pool(avg_pool, 3, input, kernel_size, stride, padding,
                          ceil_mode, count_include_pad, divisor_override)


@register("MaxPoolWithIndices", "MaxPoolWithMask", family="nn",
          dtypes=NUMBERS,
          convert={"kernel_size": spatial_ints(2),
                   "strides": optional(spatial_ints(2)),
                   "pads": spatial_ints(2),
                   "dilation": spatial_ints(2), "ceil_mode": args.boolean,
                   "argmax_type": args.dtype},
          kernels={"numba": window.max_pool_with_indices})
def max_pool_with_indices(x, kernel_size, strides=None, pads=(0, 0),
                          dilation=(1, 1), ceil_mode=False,
                          argmax_type=np.dtype(np.int64)):
    """2-D max pooling with PyTorch's arguments; returns (y, indices).

    What mint.nn.MaxPool2d / mint.nn.functional.max_pool2d export. y as
    MaxPool with padding (never chosen) and dilation; indices: position of
    each maximum as a flat index into (H, W) (first maximum on ties).
    Arguments: x (N, C, H, W) or (C, H, W); kernel_size; strides=None
    (= kernel_size); pads=0 (both sides); dilation=1; ceil_mode=False;
    argmax_type=int64 (TypeId). MaxPoolWithMask's second output is an
    Ascend-specific bit mask in MindSpore; here it is the indices too.
    MindSpore 2.7.1 has no CPU kernel for either.
    """
    return max_pool_with_indices_with(max_pool, x, kernel_size, strides,
                                      pads, dilation, ceil_mode, argmax_type)
