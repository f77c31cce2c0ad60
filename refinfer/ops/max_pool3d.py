"""MaxPool3D."""
from refinfer import args
from refinfer.registry import register

from ._kernels import window
from ._ref.common import NUMBERS
from ._ref.conv import pad_pairs, spatial_ints
from ._ref.pool import max_pool, max_pool3d_with, pool_pad_mode


@register("MaxPool3D", family="nn", dtypes=NUMBERS,
          attrs={"format": "data_format"},
          convert={"kernel_size": spatial_ints(3), "strides": spatial_ints(3),
                   "pad_mode": pool_pad_mode, "pad_list": pad_pairs(3),
                   "ceil_mode": args.boolean,
                   "data_format": args.data_format},
          kernels={"numba": window.max_pool3d})
def max_pool3d(x, kernel_size=(1, 1, 1), strides=(1, 1, 1), pad_mode="VALID",
               pad_list=(0, 0, 0, 0, 0, 0), ceil_mode=False,
               data_format="NCDHW"):
    """3-D max pooling over (kd, kh, kw) windows (nn.MaxPool3d).

    y[n, c, i, j, l] = max over the window at (i*sd - head, j*sh - top,
    l*sw - left) of the input; padding never wins.

    Attributes (classic PRIMITIVE): kernel_size, strides (3 values or the
    5-value (1, 1, d, h, w) form); pad_mode "VALID" | "SAME" | "PAD"
    (exported as "CALCULATED" for nn.MaxPool3d(pad_mode="pad")); pad_list
    (6 values: head, tail, top, bottom, left, right; "PAD" only); ceil_mode
    (0/1: round the output size up; the last window must start inside the
    input or its leading padding); data_format "NCDHW" ("format"). SAME
    padding as Conv2D (the smaller half first). NaN propagates.
    dtypes: floats and integers.
    """
    return max_pool3d_with(max_pool, x, kernel_size, strides, pad_mode,
                           pad_list, ceil_mode, data_format)
