"""AvgPool3D."""
from refinfer import args
from refinfer.registry import register

from ._kernels import window
from ._ref.common import FLOATS, optional
from ._ref.conv import pad_pairs, spatial_ints
from ._ref.pool import avg_pool, avg_pool3d_with, pool_pad_mode


@register("AvgPool3D", family="nn", dtypes=FLOATS,
          attrs={"format": "data_format"},
          convert={"kernel_size": spatial_ints(3), "strides": spatial_ints(3),
                   "pad_mode": pool_pad_mode, "pad": pad_pairs(3),
                   "ceil_mode": args.boolean,
                   "count_include_pad": args.boolean,
                   "divisor_override": args.scalar,
                   "data_format": args.data_format,
                   "pad_list": optional(pad_pairs(3))},
          kernels={"numba": window.avg_pool3d})
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
    return avg_pool3d_with(avg_pool, input, kernel_size, strides, pad_mode,
                           pad, ceil_mode, count_include_pad,
                           divisor_override, data_format, pad_list)
