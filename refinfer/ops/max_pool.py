"""MaxPool."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import planes
from ._ref import window as win
from ._ref.common import FLOATS

_NO_DILATION = (1, 1)


@register("MaxPool", family="nn", dtypes=FLOATS,
          attrs={"format": "data_format"},
          convert={"kernel_size": args.pair, "strides": args.pair,
                   "pad_mode": args.pad_mode, "data_format": args.data_format},
          kernels={"numba": planes.max_pool})
def max_pool(x, kernel_size=(1, 1), strides=(1, 1), pad_mode="VALID",
             data_format="NCHW"):
    """2-D max pooling over (kh, kw) windows.

    y[n, c, i, j] = max_{p < kh, q < kw} xpad[n, c, i*sh + p, j*sw + q].

    Arguments: x (N, C, H, W), or (N, H, W, C) with data_format "NHWC";
    kernel_size=1 and strides=1 (int, pair or (1, 1, h, w)); pad_mode
    "VALID" (default) or "SAME" in any case or as codes 2/1; data_format
    "NCHW" (exported as attribute "format").

    In MindSpore 2.7.1 MaxPool is a classic PRIMITIVE (attributes
    kernel_size/strides as 4-tuples, pad_mode "VALID"/"SAME"); the same
    argument order serves a PRIMITIVE_FUNCTION form. SAME padding follows
    Conv2D's rule and pads with -inf, so padding never wins. NaN propagates.

    dtypes: float16, float32, float64 (integers work too, padded with the
    type's minimum).
    """
    win.check_4d(x, "MaxPool")
    x = win.to_nchw(x, data_format)
    pads = win.resolve_pads(x.shape[2:], kernel_size, strides, _NO_DILATION,
                            pad_mode)
    out_hw = win.output_hw(x.shape[2:], kernel_size, strides, _NO_DILATION,
                           pads)
    lowest = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    xp = win.pad_hw(x, pads, lowest)
    y = None
    for i in range(kernel_size[0]):
        for j in range(kernel_size[1]):
            taps = win.tap(xp, i, j, out_hw, strides, _NO_DILATION)
            y = taps.copy() if y is None else np.maximum(y, taps, out=y)
    return win.from_nchw(y, data_format)
