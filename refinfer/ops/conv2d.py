"""Conv2D."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import conv
from ._ref import window as win
from ._ref.common import FLOATS, compute_dtype, optional, require_tensors


@register("Conv2D", family="nn", dtypes=FLOATS,
          attrs={"format": "data_format", "groups": "group"},
          convert={"kernel_size": optional(args.pair),
                   "pad_mode": args.pad_mode, "pad": args.pads4,
                   "stride": args.pair, "dilation": args.pair,
                   "group": args.integer, "data_format": args.data_format,
                   "pad_list": optional(args.pads4)},
          kernels={"numba": conv.conv2d})
def conv2d(x, weight, out_channel=None, kernel_size=None, mode=1,
           pad_mode="VALID", pad=(0, 0, 0, 0), stride=(1, 1),
           dilation=(1, 1), group=1, data_format="NCHW", pad_list=None):
    """2-D cross-correlation (no bias; MindSpore adds it with BiasAdd).

    y[n, o, i, j] = sum_{c, p, q} xpad[n, g*Cg + c, i*sh + p*dh, j*sw + q*dw]
                    * weight[o, c, p, q],   g = o // (C_out / group)

    Operands: x (N, C_in, H, W); weight (C_out, C_in/group, kh, kw). With
    data_format "NHWC" (GPU-only in MindSpore) x is (N, H, W, C_in) and
    weight (C_out, kh, kw, C_in/group), as nn.Conv2d lays them out.

    Attributes (classic PRIMITIVE): out_channel, kernel_size (both only
    checked against the weight), mode=1, pad_mode="valid" ("pad"/"same"/
    "valid" in any case, or codes 0/1/2), pad=0 (top, bottom, left, right),
    stride=1, dilation=1 (ints, pairs or (1, 1, h, w)), group=1 (the
    exporter also writes it as "groups"), data_format="NCHW" (exported as
    "format"), pad_list: the padding MindSpore's shape inference computed;
    used for pad_mode "PAD" (falling back to ``pad``), while "SAME" padding
    is recomputed: total = max((ceil(H/s) - 1)*s + (k - 1)*d + 1 - H, 0),
    top = total // 2, bottom gets the odd pixel.

    dtypes: float16 (accumulated in float32), float32, float64.
    """
    require_tensors("Conv2D", x=x, weight=weight)
    if x.ndim != 4 or weight.ndim != 4:
        raise ValueError(f"Conv2D: x and weight must be 4-D, got {x.shape} "
                         f"and {weight.shape}")
    if data_format == "NHWC":
        weight = weight.transpose(0, 3, 1, 2)
    x = win.to_nchw(x, data_format)
    c_out, c_group, kh, kw = weight.shape
    if x.shape[1] != c_group * group or c_out % group:
        raise ValueError(f"Conv2D: {x.shape[1]} input channels and weight "
                         f"{weight.shape} do not fit group={group}")
    if kernel_size is not None and tuple(kernel_size) != (kh, kw):
        raise ValueError(f"Conv2D: kernel_size {kernel_size} but weight "
                         f"{weight.shape}")
    if out_channel is not None and out_channel != c_out:
        raise ValueError(f"Conv2D: out_channel {out_channel} but weight "
                         f"{weight.shape}")

    pads = pad_list if pad_mode == "PAD" and pad_list is not None else pad
    pads = win.resolve_pads(x.shape[2:], (kh, kw), stride, dilation,
                            pad_mode, pads)
    out_hw = win.output_hw(x.shape[2:], (kh, kw), stride, dilation, pads)
    work = compute_dtype(np.result_type(x, weight))
    xp = win.pad_hw(x.astype(work, copy=False), pads)
    weight = weight.astype(work, copy=False)

    if group == 1:
        y = _dense_conv(xp, weight, stride, dilation)
    elif c_group == 1:
        y = _depthwise_conv(xp, weight, out_hw, stride, dilation)
    else:
        step_in, step_out = c_group, c_out // group
        y = np.concatenate([
            _dense_conv(xp[:, g * step_in:(g + 1) * step_in],
                        weight[g * step_out:(g + 1) * step_out],
                        stride, dilation)
            for g in range(group)], axis=1)
    return win.from_nchw(y.astype(x.dtype, copy=False), data_format)


def _dense_conv(xp, weight, stride, dilation):
    """groups == 1: weight (C_out, C*kh*kw) @ im2col (C*kh*kw, N*OH*OW)."""
    view = win.windows(xp, weight.shape[2:], stride, dilation)
    n, c, oh, ow, kh, kw = view.shape
    cols = view.transpose(1, 4, 5, 0, 2, 3).reshape(c * kh * kw, n * oh * ow)
    y = weight.reshape(weight.shape[0], -1) @ cols
    return y.reshape(weight.shape[0], n, oh, ow).transpose(1, 0, 2, 3)


def _depthwise_conv(xp, weight, out_hw, stride, dilation):
    """One input channel per group: accumulate kh*kw shifted products.
    Output channel o reads input channel o // multiplier."""
    c_out = weight.shape[0]
    multiplier = c_out // xp.shape[1]
    if multiplier != 1:
        xp = xp[:, np.arange(c_out) // multiplier]
    y = np.zeros((xp.shape[0], c_out) + tuple(out_hw), dtype=xp.dtype)
    product = np.empty_like(y)
    for i in range(weight.shape[2]):
        for j in range(weight.shape[3]):
            taps = weight[:, 0, i, j].reshape(1, c_out, 1, 1)
            np.multiply(win.tap(xp, i, j, out_hw, stride, dilation), taps,
                        out=product)
            y += product
    return y
