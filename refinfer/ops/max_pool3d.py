"""MaxPool3D."""
from refinfer import args
from refinfer.registry import register, register_kernel

from ._kernels import window as _fast_window
from ._ref import window as win
from ._ref.common import NUMBERS
from ._ref.conv import pad_pairs, spatial_ints
from ._ref.pool import max_pool


def pool_pad_mode(value):
    """A pool's pad_mode: "VALID", "SAME", or "PAD" (the 3-D pools export
    explicit padding as "CALCULATED"); codes as for Conv2D."""
    if isinstance(value, str) and value.upper() == "CALCULATED":
        return "PAD"
    return args.pad_mode(value)


@register("MaxPool3D", family="nn", dtypes=NUMBERS,
          attrs={"format": "data_format"},
          convert={"kernel_size": spatial_ints(3), "strides": spatial_ints(3),
                   "pad_mode": pool_pad_mode, "pad_list": pad_pairs(3),
                   "ceil_mode": args.boolean,
                   "data_format": args.data_format})
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
    return _max_pool3d(max_pool, x, kernel_size, strides, pad_mode, pad_list,
                       ceil_mode, data_format)


def _max_pool3d(pool, x, kernel_size, strides, pad_mode, pad_list, ceil_mode,
                data_format):
    """MaxPool3D's arguments checked and resolved for ``pool``
    (ops/_pool.max_pool or its fast twin)."""
    if x.ndim != 5 or data_format != "NCDHW":
        raise ValueError(f"MaxPool3D: NCDHW input expected, got {x.shape}")
    pads = win.resolve_pads(x.shape[2:], kernel_size, strides, (1, 1, 1),
                            pad_mode, pad_list)
    return pool(x, kernel_size, strides, (1, 1, 1), pads,
                ceil_mode and pad_mode == "PAD")


# -- numba backend -------------------------------------------------------------
@register_kernel("MaxPool3D", "numba")
def max_pool3d_numba(x, kernel_size=(1, 1, 1), strides=(1, 1, 1),
                     pad_mode="VALID", pad_list=(0, 0, 0, 0, 0, 0),
                     ceil_mode=False, data_format="NCDHW"):
    """MaxPool3D with the pooling kernel of ops/_fast_window.py."""
    return _max_pool3d(_fast_window.max_pool, x, kernel_size, strides,
                       pad_mode, pad_list, ceil_mode, data_format)
