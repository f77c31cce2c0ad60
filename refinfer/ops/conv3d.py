"""Conv3D."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref import window as win
from ._ref.common import FLOATS, compute_dtype, optional
from ._kernels.conv import conv_nd, pad_pairs, spatial_ints


@register("Conv3D", family="nn", dtypes=FLOATS,
          attrs={"format": "data_format", "groups": "group"},
          convert={"kernel_size": optional(spatial_ints(3)),
                   "pad_mode": args.pad_mode, "pad": pad_pairs(3),
                   "stride": spatial_ints(3), "dilation": spatial_ints(3),
                   "group": int, "data_format": args.data_format,
                   "pad_list": optional(pad_pairs(3))})
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
    pads = _pads(x, weight, out_channel, kernel_size, pad_mode, pad, stride,
                 dilation, data_format, pad_list)
    work = compute_dtype(np.result_type(x, weight))
    xp = win.pad_hw(x.astype(work, copy=False), pads)
    y = conv_nd(xp, weight.astype(work, copy=False), stride, dilation, group)
    return y.astype(x.dtype, copy=False)


def _pads(x, weight, out_channel, kernel_size, pad_mode, pad, stride,
          dilation, data_format, pad_list):
    """The checked operands' padding, (before, after) per axis."""
    if x.ndim != 5 or weight.ndim != 5:
        raise ValueError(f"Conv3D: x and weight must be 5-D, got {x.shape} "
                         f"and {weight.shape}")
    if data_format != "NCDHW":
        raise ValueError(f"Conv3D: only NCDHW is supported, got {data_format}")
    if kernel_size is not None and tuple(kernel_size) != weight.shape[2:]:
        raise ValueError(f"Conv3D: kernel_size {kernel_size} but weight "
                         f"{weight.shape}")
    if out_channel is not None and out_channel != weight.shape[0]:
        raise ValueError(f"Conv3D: out_channel {out_channel} but weight "
                         f"{weight.shape}")
    pads = pad_list if pad_mode == "PAD" and pad_list is not None else pad
    pads = win.resolve_pads(x.shape[2:], weight.shape[2:], stride, dilation,
                            pad_mode, pads)
    win.output_hw(x.shape[2:], weight.shape[2:], stride, dilation, pads)
    return pads


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels.conv import conv_fast  # noqa: E402


@register_kernel("Conv3D", "numba")
def conv3d_numba(x, weight, out_channel=None, kernel_size=None, mode=1,
                 pad_mode="VALID", pad=(0, 0, 0, 0, 0, 0), stride=(1, 1, 1),
                 dilation=(1, 1, 1), group=1, data_format="NCDHW",
                 pad_list=None):
    """Conv3D as vol2col + GEMM (see ops/_conv.py); float16 and mixed
    dtypes through the reference."""
    pads = _pads(x, weight, out_channel, kernel_size, pad_mode, pad, stride,
                 dilation, data_format, pad_list)
    y = conv_fast(x, weight, None, pads, stride, dilation, group)
    if y is None:
        return conv3d(x, weight, out_channel, kernel_size, mode, pad_mode, pad,
                      stride, dilation, group, data_format, pad_list)
    return y
