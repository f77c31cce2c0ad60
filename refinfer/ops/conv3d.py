"""Conv3D."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import conv
from ._ref import window as win
from ._ref.common import FLOATS, compute_dtype, optional
from ._ref.conv import conv3d_pads, conv_nd, pad_pairs, spatial_ints


@register("Conv3D", family="nn", dtypes=FLOATS,
          attrs={"format": "data_format", "groups": "group"},
          convert={"kernel_size": optional(spatial_ints(3)),
                   "pad_mode": args.pad_mode, "pad": pad_pairs(3),
                   "stride": spatial_ints(3), "dilation": spatial_ints(3),
                   "group": args.integer, "data_format": args.data_format,
                   "pad_list": optional(pad_pairs(3))},
          kernels={"numba": conv.conv3d})
def conv3d(x, weight, out_channel=None, kernel_size=None, mode=1,
           pad_mode="VALID", pad=(0, 0, 0, 0, 0, 0), stride=(1, 1, 1),
           dilation=(1, 1, 1), group=1, data_format="NCDHW", pad_list=None):
    """3-D cross-correlation (no bias; nn.Conv3d adds it with BiasAdd).

    y[n, o, i, j, l] = sum_{c, p, q, r} xpad[n, g*Cg + c, i*sd + p*dd,
                       j*sh + q*dh, l*sw + r*dw] * weight[o, c, p, q, r]

    Operands: x (N, C_in, D, H, W); weight (C_out, C_in/group, kd, kh, kw).
    Attributes (classic PRIMITIVE, as nn.Conv3d exports them): out_channel
    and kernel_size (checked against the weight), mode=1, pad_mode
    "valid" | "same" | "pad", pad (6 values: head, tail, top, bottom, left,
    right), stride, dilation (3 values, or the 5-value "strides" /
    "dilations" forms), group (also "groups"), data_format "NCDHW"
    (exported as "format"), pad_list: the padding MindSpore inferred, used
    for "pad" mode; "same" padding is recomputed as in Conv2D (the smaller
    half first).

    dtypes: float16 (accumulated in float32), float32, float64.
    """
    pads = conv3d_pads(x, weight, out_channel, kernel_size, pad_mode, pad,
                       stride, dilation, data_format, pad_list)
    work = compute_dtype(np.result_type(x, weight))
    xp = win.pad_hw(x.astype(work, copy=False), pads)
    y = conv_nd(xp, weight.astype(work, copy=False), stride, dilation, group)
    return y.astype(x.dtype, copy=False)
