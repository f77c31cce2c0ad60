"""Conv3DTranspose."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import conv
from ._ref.common import FLOATS, compute_dtype, optional
from ._ref.conv import (conv3d_transpose_layout, conv_transpose_nd,
                        pad_pairs, spatial_ints)


@register("Conv3DTranspose", family="nn", dtypes=FLOATS,
          attrs={"format": "data_format", "groups": "group"},
          convert={"in_channel": optional(args.integer),
                   "out_channel": optional(args.integer),
                   "kernel_size": optional(spatial_ints(3)),
                   "pad_mode": args.pad_mode, "pad": pad_pairs(3),
                   "stride": spatial_ints(3), "dilation": spatial_ints(3),
                   "group": args.integer, "output_padding": spatial_ints(3),
                   "data_format": args.data_format,
                   "pad_list": optional(pad_pairs(3)),
                   "input_size": optional(args.ints)},
          kernels={"numba": conv.conv3d_transpose})
def conv3d_transpose(x, filter, in_channel=None, out_channel=None,
                     kernel_size=None, mode=1, pad_mode="VALID",
                     pad=(0, 0, 0, 0, 0, 0), stride=(1, 1, 1),
                     dilation=(1, 1, 1), group=1, output_padding=(0, 0, 0),
                     data_format="NCDHW", pad_list=None, input_size=None):
    """3-D transposed convolution (nn.Conv3dTranspose).

    y[n, g*Cg + c, i*sd + p*dd - head, ...] += x[n, o, i, ...] *
        filter[o, c, p, ...]   (o in group g), cropped to the output size.

    Operands: x (N, C_in, D, H, W); filter (C_in, C_out/group, kd, kh, kw).
    Attributes (classic PRIMITIVE): in_channel, out_channel, kernel_size
    (checked), mode=1, pad_mode "valid" | "same" | "pad", pad (6 values:
    head, tail, top, bottom, left, right), stride, dilation (3 values or
    the 5-value forms), group (also "groups"), output_padding (extra
    zeros at the end of each axis), data_format "NCDHW" ("format"),
    pad_list (the inferred padding, used for "pad"), input_size (the
    output shape MindSpore inferred; computed when absent as
    (D - 1) * s - head - tail + (k - 1) * d + 1 + output_padding, or
    D * s + output_padding for "same").
    "same" padding is the forward convolution's SAME padding for the
    output size.

    dtypes: float16 (accumulated in float32), float32, float64.
    """
    pads, out_size = conv3d_transpose_layout(
        x, filter, in_channel, out_channel, pad_mode, pad, stride, dilation,
        group, output_padding, data_format, pad_list, input_size)
    work = compute_dtype(np.result_type(x, filter))
    y = conv_transpose_nd(x.astype(work, copy=False),
                          filter.astype(work, copy=False), stride, dilation,
                          pads, out_size, group)
    return y.astype(x.dtype, copy=False)
