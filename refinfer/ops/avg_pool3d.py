"""AvgPool3D."""
from refinfer import args
from refinfer.registry import register, register_kernel

from ._kernels import window as _fast_window
from ._ref import window as win
from ._ref.common import FLOATS, optional
from ._ref.conv import pad_pairs, spatial_ints
from ._ref.pool import avg_pool
from .max_pool3d import pool_pad_mode


@register("AvgPool3D", family="nn", dtypes=FLOATS,
          attrs={"format": "data_format"},
          convert={"kernel_size": spatial_ints(3), "strides": spatial_ints(3),
                   "pad_mode": pool_pad_mode, "pad": pad_pairs(3),
                   "ceil_mode": args.boolean,
                   "count_include_pad": args.boolean,
                   "divisor_override": args.scalar,
                   "data_format": args.data_format,
                   "pad_list": optional(pad_pairs(3))})
def avg_pool3d(input, kernel_size=(1, 1, 1), strides=(1, 1, 1),
               pad_mode="VALID", pad=(0, 0, 0, 0, 0, 0), ceil_mode=False,
               count_include_pad=True, divisor_override=0,
               data_format="NCDHW", pad_list=None):
    """3-D average pooling (nn.AvgPool3d; also nn.AvgPool2d/1d with padding).

    y = (sum of the window) / divisor. The divisor is divisor_override when
    non-zero, else the window's size clipped to the padded input (so the
    ceil-mode overhang never counts); with count_include_pad=False only
    real elements count. SAME padding counts as padding here (verified on
    MindSpore 2.7.1 CPU: 5 wide, kernel 2, stride 2, the last window holds
    one value and divides by 2), unlike the 2-D AvgPool.

    Attributes (classic PRIMITIVE): kernel_size, strides (3 values or the
    5-value form); pad_mode "VALID" | "SAME" | "PAD"; pad / pad_list (6
    values: head, tail, top, bottom, left, right; "PAD" only); ceil_mode;
    count_include_pad=True; divisor_override=0; data_format "NCDHW"
    ("format"). nn.AvgPool2d(pad_mode="pad") and nn.AvgPool1d with padding
    export this op with a length-1 depth axis (through ExpandDims).
    dtypes: float16 (accumulated in float32), float32, float64.
    """
    return _avg_pool3d(avg_pool, input, kernel_size, strides, pad_mode, pad,
                       ceil_mode, count_include_pad, divisor_override,
                       data_format, pad_list)


def _avg_pool3d(pool, input, kernel_size, strides, pad_mode, pad, ceil_mode,
                count_include_pad, divisor_override, data_format, pad_list):
    """AvgPool3D's arguments checked and resolved for ``pool``
    (ops/_pool.avg_pool or its fast twin)."""
    if input.ndim != 5 or data_format != "NCDHW":
        raise ValueError(f"AvgPool3D: NCDHW input expected, got "
                         f"{input.shape}")
    explicit = pad_list if pad_list is not None else pad
    pads = win.resolve_pads(input.shape[2:], kernel_size, strides, (1, 1, 1),
                            pad_mode, explicit)
    return pool(input, kernel_size, strides, pads,
                ceil_mode and pad_mode == "PAD", count_include_pad,
                int(divisor_override))


# -- numba backend -------------------------------------------------------------
@register_kernel("AvgPool3D", "numba")
def avg_pool3d_numba(input, kernel_size=(1, 1, 1), strides=(1, 1, 1),
                     pad_mode="VALID", pad=(0, 0, 0, 0, 0, 0), ceil_mode=False,
                     count_include_pad=True, divisor_override=0,
                     data_format="NCDHW", pad_list=None):
    """AvgPool3D with the pooling kernel of ops/_fast_window.py."""
    return _avg_pool3d(_fast_window.avg_pool, input, kernel_size, strides,
                       pad_mode, pad, ceil_mode, count_include_pad,
                       divisor_override, data_format, pad_list)
