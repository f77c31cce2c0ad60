"""N-dimensional convolution and transposed convolution as batched GEMMs.

Shared by Conv3D, Conv3DTranspose, Conv2DBackpropInput (Conv2DTranspose)
and the mint convolutions (their references and kernels), with the
argument checks both need. Arrays are channel-first, (N, C, *spatial);
kernels accumulate in float32 for float16 operands (``compute_dtype``).
"""
from __future__ import annotations

import numpy as np

from refinfer import args

from . import window as win
from .common import compute_dtype


def conv_nd(xp: np.ndarray, weight: np.ndarray, stride, dilation,
            group: int) -> np.ndarray:
    """Cross-correlation of a padded input with weight (O, C/group, *K).

    y[n, o, i...] = sum_{c, k...} xp[n, g*Cg + c, i*s + k*d ...] *
    weight[o, c, k...], g = o // (O / group): one im2col matrix per group,
    multiplied by the group's weights in one batched matmul.
    """
    n, c_in = xp.shape[:2]
    c_out, c_group = weight.shape[:2]
    kernel = weight.shape[2:]
    if group < 1 or c_in != c_group * group or c_out % group:
        raise ValueError(f"{c_in} input channels and weight {weight.shape} "
                         f"do not fit group={group}")
    view = win.windows(xp, kernel, stride, dilation)  # (N, C, *out, *K)
    out = view.shape[2:2 + len(kernel)]
    spatial = len(kernel)
    # (C, *K, N, *out) -> (group, Cg * prod(K), N * prod(out))
    order = (1,) + tuple(range(2 + spatial, 2 + 2 * spatial)) + (0,) \
        + tuple(range(2, 2 + spatial))
    cols = view.transpose(order).reshape(group, c_group * int(np.prod(kernel)),
                                         -1)
    w = weight.reshape(group, c_out // group, -1)
    y = _grouped_matmul(w, cols)  # (group, O/group, N * prod(out))
    return y.reshape((c_out, n) + out).swapaxes(0, 1)


def _grouped_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a[g] @ b[g] for every group, as 2-D products: NumPy's stacked matmul
    does not call BLAS and is many times slower."""
    return np.stack([a[g] @ b[g] for g in range(a.shape[0])])


def conv_transpose_nd(dout: np.ndarray, weight: np.ndarray, stride, dilation,
                      pads, out_size, group: int) -> np.ndarray:
    """Transposed convolution: the gradient of :func:`conv_nd` w.r.t. its
    input, for a forward weight (O, C/group, *K) and dout (N, O, *in).

    x[n, g*Cg + c, i*s + k*d - before] += dout[n, o, i] * weight[o, c, k]
    summed over o in group g, taps k and positions i, then cropped to
    ``out_size`` after the leading padding (``pads``: (before, after) per
    axis; output padding beyond the last tap is zeros).
    """
    n, c_out = dout.shape[:2]
    c_group = weight.shape[1]
    kernel = weight.shape[2:]
    if group < 1 or c_out != weight.shape[0] or c_out % group:
        raise ValueError(f"{c_out} input channels and weight {weight.shape} "
                         f"do not fit group={group}")
    size_in = dout.shape[2:]
    w = weight.reshape(group, c_out // group, -1).swapaxes(1, 2)
    d = dout.reshape(n, group, c_out // group, -1).transpose(1, 2, 0, 3)
    cols = _grouped_matmul(w, d.reshape(group, c_out // group, -1))
    # (group, Cg, *K, N, *in) -> one (N, C, *in) block per tap
    cols = cols.reshape((group * c_group,) + kernel + (n,) + size_in)
    span = [max((i - 1) * s + (k - 1) * dl + 1, p[0] + o)
            for i, s, k, dl, p, o in zip(size_in, stride, kernel, dilation,
                                         pads, out_size)]
    full = np.zeros((n, group * c_group) + tuple(span), dtype=cols.dtype)
    for tap in np.ndindex(*kernel):
        block = cols[(slice(None),) + tap].swapaxes(0, 1)  # (N, C, *in)
        win.tap_nd(full, tap, size_in, stride, dilation)[...] += block
    crop = tuple(slice(p[0], p[0] + o) for p, o in zip(pads, out_size))
    return full[(Ellipsis,) + crop]


def spatial_ints(rank: int):
    """Normaliser: 1, ``rank`` or ``rank + 2`` ints (a classic attribute's
    (1, 1, d, h, w) form) -> ``rank`` ints."""
    def normalise(value):
        v = args.ints(value)
        if len(v) == 1:
            return v * rank
        if len(v) in (rank, rank + 2):
            return v[-rank:]
        raise ValueError(f"expected 1, {rank} or {rank + 2} values, got "
                         f"{value!r}")
    return normalise


def pad_pairs(rank: int):
    """Normaliser: explicit padding as 1 int, ``rank`` ints (symmetric per
    axis) or 2 * ``rank`` (before, after per axis) -> 2 * ``rank`` ints."""
    def normalise(value):
        v = args.ints(value)
        if len(v) == 1:
            return v * (2 * rank)
        if len(v) == rank:
            return tuple(p for p in v for _ in (0, 1))
        if len(v) == 2 * rank:
            return v
        raise ValueError(f"expected 1, {rank} or {2 * rank} padding values, "
                         f"got {value!r}")
    return normalise


def torch_conv(input, weight, bias, stride, padding, dilation, groups,
               transposed=False, output_padding=0):
    """PyTorch-style convolution (the mint / Ext primitives), any rank.

    input (N, C_in, *S) or unbatched (C_in, *S); weight (C_out, C_in/groups,
    *K), or (C_in, C_out/groups, *K) when ``transposed``; bias (C_out,) or
    None. stride, padding (both sides), dilation, output_padding: an int or
    one per spatial axis.
    """
    rank = weight.ndim - 2
    x, stride, dilation, pads, out = torch_layout(
        input, weight, stride, padding, dilation, transposed, output_padding)
    work = compute_dtype(np.result_type(x, weight))
    x, weight = x.astype(work, copy=False), weight.astype(work, copy=False)
    if transposed:
        y = conv_transpose_nd(x, weight, stride, dilation, pads, out,
                              int(groups))
    else:
        y = conv_nd(win.pad_hw(x, pads), weight, stride, dilation,
                    int(groups))
    if bias is not None:
        y = y + bias.astype(work, copy=False).reshape((-1,) + (1,) * rank)
    y = y.astype(input.dtype, copy=False)
    return y[0] if input.ndim == rank + 1 else y


def torch_layout(input, weight, stride, padding, dilation, transposed,
                 output_padding):
    """The geometry of a :func:`torch_conv`: (x, stride, dilation, pads,
    out), x batched (N, C, *S), pads (before, after) per axis, out the
    transposed convolution's output size (None when not transposed)."""
    rank = weight.ndim - 2
    x = input[None] if input.ndim == rank + 1 else input
    if x.ndim != rank + 2:
        raise ValueError(f"input {input.shape} does not fit weight "
                         f"{weight.shape}")
    per_axis = spatial_ints(rank)
    stride, dilation = per_axis(stride), per_axis(dilation)
    win.check_geometry(rank, weight.shape[2:], stride, dilation)
    pads = tuple((p, p) for p in per_axis(padding))
    out = None
    if transposed:
        out = tuple((i - 1) * s - 2 * p[0] + (k - 1) * d + 1 + op
                    for i, s, p, k, d, op in zip(x.shape[2:], stride, pads,
                                                 weight.shape[2:], dilation,
                                                 per_axis(output_padding)))
    return x, stride, dilation, pads, out


def conv3d_pads(x, weight, out_channel, kernel_size, pad_mode, pad, stride,
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


def conv3d_transpose_layout(x, filter, in_channel, out_channel, pad_mode,
                            pad, stride, dilation, group, output_padding,
                            data_format, pad_list, input_size):
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
        if len(input_size) != 5:
            raise ValueError(f"Conv3DTranspose: input_size must be (N, C, D, H, W), "
                             f"got {tuple(input_size)}")
        out_size = tuple(input_size[2:])
    else:
        out_size = _transposed_size(x.shape[2:], kernel, stride, dilation,
                                    pad_mode, explicit, output_padding)
    pads = win.resolve_pads(out_size, kernel, stride, dilation, pad_mode,
                            explicit)
    return pads, out_size


def _transposed_size(size_in, kernel, stride, dilation, pad_mode, pads,
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


def backprop_input_pads(out_backprop, filter, input_size, out_channel,
                        pad_mode, pad, pad_list, stride, dilation, group,
                        data_format):
    """The checked operands' padding ((top, bottom), (left, right))."""
    if out_backprop.ndim != 4 or filter.ndim != 4 or len(input_size) != 4:
        raise ValueError(f"Conv2DBackpropInput: 4-D operands expected, got "
                         f"{out_backprop.shape}, {filter.shape}, "
                         f"input_size {input_size}")
    if data_format != "NCHW":
        raise ValueError("Conv2DBackpropInput: only NCHW is supported")
    if out_channel is not None and out_channel != filter.shape[0]:
        raise ValueError(f"Conv2DBackpropInput: out_channel {out_channel} "
                         f"but filter {filter.shape}")
    if input_size[1] != filter.shape[1] * group:
        raise ValueError(f"Conv2DBackpropInput: input_size {input_size} "
                         f"does not fit filter {filter.shape}, group {group}")
    pads = pad_list if pad_mode == "PAD" and pad_list is not None else pad
    return win.resolve_pads(input_size[2:], filter.shape[2:], stride,
                            dilation, pad_mode, pads)
