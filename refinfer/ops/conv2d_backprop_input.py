"""Conv2DBackpropInput and Conv2DTranspose."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import conv
from ._ref.common import FLOATS, compute_dtype, optional
from ._ref.conv import backprop_input_pads, conv_transpose_nd


@register("Conv2DBackpropInput", "Conv2DTranspose", family="nn",
          dtypes=FLOATS, attrs={"format": "data_format", "groups": "group"},
          convert={"input_size": args.ints,
                   "kernel_size": optional(args.pair),
                   "pad_mode": args.pad_mode, "pad": args.pads4,
                   "pad_list": optional(args.pads4), "stride": args.pair,
                   "dilation": args.pair, "group": args.integer,
                   "data_format": args.data_format},
          kernels={"numba": conv.conv2d_backprop_input})
def conv2d_backprop_input(out_backprop, filter, input_size, out_channel=None,
                          kernel_size=None, pad_mode="VALID",
                          pad=(0, 0, 0, 0), pad_list=None, mode=1,
                          stride=(1, 1), dilation=(1, 1), group=1,
                          data_format="NCHW"):
    """2-D transposed convolution: Conv2D's gradient w.r.t. its input.

    x[n, g*Cg + c, i*sh + p*dh - top, j*sw + q*dw - left] +=
        dout[n, o, i, j] * filter[o, c, p, q]   (o in group g)

    then cropped to input_size. This is what nn.Conv2dTranspose (and
    nn.Conv1dTranspose, through ExpandDims) exports.

    Operands: out_backprop (N, C_out, H', W'); filter (C_out, C_in/group,
    kh, kw) -- the forward convolution's weight, so nn.Conv2dTranspose's
    (in_channels, out_channels/group, kh, kw) weight; input_size (N, C_in,
    H, W), the output shape (a constant tuple input). Attributes (classic
    PRIMITIVE): out_channel (nn.Conv2dTranspose writes its in_channels,
    checked against the filter), kernel_size, pad_mode "valid" | "same" |
    "pad", pad (top, bottom, left, right), pad_list (the inferred padding,
    used for "pad"), mode=1, stride, dilation (pairs or 4-tuples), group
    (also "groups"), data_format "NCHW" (exported as "format"). "same"
    padding is the forward convolution's SAME padding for input_size (the
    smaller half first).

    dtypes: float16 (accumulated in float32), float32, float64.
    """
    pads = backprop_input_pads(out_backprop, filter, input_size, out_channel,
                               pad_mode, pad, pad_list, stride, dilation,
                               group, data_format)
    work = compute_dtype(np.result_type(out_backprop, filter))
    x = conv_transpose_nd(out_backprop.astype(work, copy=False),
                          filter.astype(work, copy=False), stride, dilation,
                          pads, input_size[2:], group)
    return x.astype(out_backprop.dtype, copy=False)
