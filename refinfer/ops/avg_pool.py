"""AvgPool."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import planes
from ._ref import window as win
from ._ref.common import FLOATS, compute_dtype

_NO_DILATION = (1, 1)


@register("AvgPool", family="nn", dtypes=FLOATS,
          attrs={"format": "data_format"},
          convert={"kernel_size": args.pair, "strides": args.pair,
                   "pad_mode": args.pad_mode, "data_format": args.data_format},
          kernels={"numba": planes.avg_pool})
def avg_pool(x, kernel_size=(1, 1), strides=(1, 1), pad_mode="VALID",
             data_format="NCHW"):
    """2-D average pooling over (kh, kw) windows, averaging real elements only.

    y[n, c, i, j] = mean of x[n, c, i*sh + p, j*sw + q] over the window
    positions (p, q) that fall inside the (unpadded) input.

    Arguments (PRIMITIVE_FUNCTION order): x (N, C, H, W), or (N, H, W, C)
    with data_format "NHWC"; kernel_size=1, strides=1 (int, pair or
    (1, 1, h, w)); pad_mode "VALID" (default, code 2) or "SAME" (code 1);
    data_format "NCHW" (code 0).

    MindSpore quirk, verified on 2.7.1 CPU: with SAME padding the padded
    positions are not counted, so a border window divides by the number of
    real elements (5x5 input, kernel 3, stride 2: the corner output is the
    mean of 4 values, not their sum / 9).

    dtypes: float16 (accumulated in float32), float32, float64.
    """
    win.check_4d(x, "AvgPool")
    x = win.to_nchw(x, data_format)
    pads = win.resolve_pads(x.shape[2:], kernel_size, strides, _NO_DILATION,
                            pad_mode)
    out_hw = win.output_hw(x.shape[2:], kernel_size, strides, _NO_DILATION,
                           pads)
    work = compute_dtype(x.dtype)
    xp = win.pad_hw(x.astype(work, copy=False), pads)
    inside = win.pad_hw(np.ones((1, 1) + x.shape[2:], dtype=work), pads)
    total = np.zeros(xp.shape[:2] + tuple(out_hw), dtype=work)
    count = np.zeros((1, 1) + tuple(out_hw), dtype=work)
    for i in range(kernel_size[0]):
        for j in range(kernel_size[1]):
            total += win.tap(xp, i, j, out_hw, strides, _NO_DILATION)
            count += win.tap(inside, i, j, out_hw, strides, _NO_DILATION)
    return win.from_nchw((total / count).astype(x.dtype, copy=False),
                         data_format)
