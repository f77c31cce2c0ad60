"""Conv3DTranspose."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref import window as win
from ._ref.common import FLOATS, compute_dtype, optional
from ._kernels.conv import conv_transpose_nd, pad_pairs, spatial_ints


@register("Conv3DTranspose", family="nn", dtypes=FLOATS,
          attrs={"format": "data_format", "groups": "group"},
          convert={"in_channel": optional(int), "out_channel": optional(int),
                   "kernel_size": optional(spatial_ints(3)),
                   "pad_mode": args.pad_mode, "pad": pad_pairs(3),
                   "stride": spatial_ints(3), "dilation": spatial_ints(3),
                   "group": int, "output_padding": spatial_ints(3),
                   "data_format": args.data_format,
                   "pad_list": optional(pad_pairs(3)),
                   "input_size": optional(args.ints)})
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
    pads, out_size = _layout(x, filter, in_channel, out_channel, pad_mode,
                             pad, stride, dilation, group, output_padding,
                             data_format, pad_list, input_size)
    work = compute_dtype(np.result_type(x, filter))
    y = conv_transpose_nd(x.astype(work, copy=False),
                          filter.astype(work, copy=False), stride, dilation,
                          pads, out_size, group)
    return y.astype(x.dtype, copy=False)


def _layout(x, filter, in_channel, out_channel, pad_mode, pad, stride,
            dilation, group, output_padding, data_format, pad_list,
            input_size):
    """(pads, output size) of the checked operands."""
    if x.ndim != 5 or filter.ndim != 5:
        raise ValueError(f"Conv3DTranspose: 5-D operands expected, got "
                         f"{x.shape} and {filter.shape}")
    for name, value, actual in (("in_channel", in_channel, filter.shape[0]),
                                ("out_channel", out_channel,
                                 filter.shape[1] * group)):
        if value is not None and value != actual:
            raise ValueError(f"Conv3DTranspose: {name} {value} but filter "
                             f"{filter.shape}, group {group}")
    if data_format != "NCDHW":
        raise ValueError("Conv3DTranspose: only NCDHW is supported")
    kernel = filter.shape[2:]
    explicit = pad_list if pad_mode == "PAD" and pad_list is not None else pad
    if input_size is not None:
        out_size = tuple(input_size[2:])
    else:
        out_size = _output_size(x.shape[2:], kernel, stride, dilation,
                                pad_mode, explicit, output_padding)
    pads = win.resolve_pads(out_size, kernel, stride, dilation, pad_mode,
                            explicit)
    return pads, out_size


def _output_size(size_in, kernel, stride, dilation, pad_mode, pads,
                 output_padding):
    """The output size when the graph does not carry input_size."""
    if pad_mode == "SAME":
        return tuple(i * s + op for i, s, op in zip(size_in, stride,
                                                     output_padding))
    pairs = win.resolve_pads(size_in, kernel, stride, dilation, pad_mode, pads)
    return tuple((i - 1) * s - b - a + (k - 1) * d + 1 + op
                 for i, s, (b, a), k, d, op
                 in zip(size_in, stride, pairs, kernel, dilation,
                        output_padding))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels.conv import conv_transpose_fast  # noqa: E402


@register_kernel("Conv3DTranspose", "numba")
def conv3d_transpose_numba(x, filter, in_channel=None, out_channel=None,
                           kernel_size=None, mode=1, pad_mode="VALID",
                           pad=(0, 0, 0, 0, 0, 0), stride=(1, 1, 1),
                           dilation=(1, 1, 1), group=1,
                           output_padding=(0, 0, 0), data_format="NCDHW",
                           pad_list=None, input_size=None):
    """Conv3DTranspose as GEMM + col2vol scatter (see ops/_conv.py);
    float16 and mixed dtypes through the reference."""
    pads, out_size = _layout(x, filter, in_channel, out_channel, pad_mode,
                             pad, stride, dilation, group, output_padding,
                             data_format, pad_list, input_size)
    y = conv_transpose_fast(x, filter, None, pads, out_size, stride, dilation,
                            group)
    if y is None:
        return conv3d_transpose(x, filter, in_channel, out_channel,
                                kernel_size, mode, pad_mode, pad, stride,
                                dilation, group, output_padding, data_format,
                                pad_list, input_size)
    return y
