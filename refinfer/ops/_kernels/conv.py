"""N-dimensional convolution and transposed convolution as batched GEMMs.

Shared by Conv3D, Conv3DTranspose, Conv2DBackpropInput (Conv2DTranspose)
and the mint convolutions. Arrays are channel-first, (N, C, *spatial);
kernels accumulate in float32 for float16 operands (``compute_dtype``).
"""
from __future__ import annotations

import numpy as np

from .._ref import window as win
from .._ref.common import compute_dtype


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
    if c_in != c_group * group or c_out % group:
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
    if c_out != weight.shape[0] or c_out % group:
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
        v = tuple(int(i) for i in np.asarray(value).reshape(-1))
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
        v = tuple(int(i) for i in np.asarray(value).reshape(-1))
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
    pads = tuple((p, p) for p in per_axis(padding))
    out = None
    if transposed:
        out = tuple((i - 1) * s - 2 * p[0] + (k - 1) * d + 1 + op
                    for i, s, p, k, d, op in zip(x.shape[2:], stride, pads,
                                                 weight.shape[2:], dilation,
                                                 per_axis(output_padding)))
    return x, stride, dilation, pads, out


# -- numba backend -------------------------------------------------------------
# Every rank is run as 3-D (a 1-D or 2-D problem gets leading unit axes),
# so one compiled kernel per dtype serves all of them:
# - convolution: per image and group, GEMMs of the weight (O/g, Cg*taps)
#   by vol2col matrices of a few output rows at a time (kept in the cache),
#   the output rows split across the worker threads; 1-D and 2-D forward
#   convolutions go to Conv2D's kernels instead (depthwise, wide columns);
# - transposed convolution: per image, GEMMs of the transposed weight
#   (Cg*taps, O/g) by the input, a block of result channels at a time, each
#   scattered into its channels by a compiled col2vol pass; the channels
#   are split across the worker threads.
# vol2col and col2vol are one kernel (:func:`_tap_columns`), given a
# geometry tuple (head, top, left, kd, kh, kw, sd, sh, sw, dd, dh, dw, d,
# h, w): the padding, kernel, stride, dilation and the size of the forward
# convolution's output.
import math  # noqa: E402

from refinfer.jit import kernel  # noqa: E402
from refinfer.threads import GEMM_WORK, min_items, parallel_for  # noqa: E402

from . import program as _fast  # noqa: E402
from . import planes as _planes  # noqa: E402
from .. import conv2d  # noqa: E402

BLOCK = 1 << 18     # elements of a column matrix block (~1 MB in float32)


@kernel
def _zero(cols, row, begin, end):
    for j in range(begin, end):
        cols[row, j] = 0


@kernel
def _tap_columns(cols, vol, r0, r1, geometry, scatter):
    """A convolution's column matrix and its volume (C, D, H, W), either
    way. Row ((c*kd + p)*kh + q)*kw + s, column (r - r0)*w + j of cols
    stands for vol[c, i*sd + p*dd - head, l*sh + q*dh - top, j*sw + s*dw -
    left], for the rows r = i*h + l of the (d, h, w) grid in [r0, r1):
    gather (vol2col: the grid is the convolution's output): cols = those
    values, zero outside vol; scatter (col2vol: the grid is the transposed
    convolution's input): vol += cols, tap by tap, where inside vol."""
    head, top, left, kd, kh, kw, sd, sh, sw, dd, dh, dw, _, h, w = geometry
    depth, height, width = vol.shape[1], vol.shape[2], vol.shape[3]
    for c in range(vol.shape[0]):
        for p in range(kd):
            for q in range(kh):
                for s in range(kw):
                    row = ((c * kd + p) * kh + q) * kw + s
                    offset = s * dw - left
                    j0, j1 = _planes.valid_columns(offset, sw, width, w)
                    for r in range(r0, r1):
                        i, l = divmod(r, h)
                        z, y = i * sd + p * dd - head, l * sh + q * dh - top
                        base = (r - r0) * w
                        if z < 0 or z >= depth or y < 0 or y >= height:
                            if not scatter:
                                _zero(cols, row, base, base + w)
                            continue
                        at = np.uint64(base + j0)
                        to, step = np.uint64(j0 * sw + offset), np.uint64(sw)
                        if scatter:
                            for j in range(np.uint64(j1 - j0)):
                                vol[c, z, y, to + j * step] += cols[row, at + j]
                            continue
                        _zero(cols, row, base, base + j0)
                        for j in range(np.uint64(j1 - j0)):
                            cols[row, at + j] = vol[c, z, y, to + j * step]
                        _zero(cols, row, base + j1, base + w)


def _lift(x, rank):
    """An (N, C, *S) array (or weight) as ``rank`` spatial axes: leading
    unit axes added (a view)."""
    return x.reshape(x.shape[:2] + (1,) * (rank + 2 - x.ndim) + x.shape[2:])


def _geometry(pads, kernel, stride, dilation, size):
    """The geometry tuple of a 1-, 2- or 3-D problem, as 3-D."""
    lead = 3 - len(kernel)
    pads = ((0, 0),) * lead + tuple(pads)
    return tuple(int(v) for v in (
        tuple(p[0] for p in pads) + (1,) * lead + tuple(kernel)
        + (1,) * lead + tuple(stride) + (1,) * lead + tuple(dilation)
        + (1,) * lead + tuple(size)))


def _fast_operands(*arrays) -> bool:
    """All given arrays (None skipped) float32/float64 of one dtype and
    not empty."""
    given = [a for a in arrays if a is not None]
    return _fast.float_operands(*given) is not None \
        and all(isinstance(a, np.ndarray) and a.size for a in given)


def conv_fast(x, weight, bias, pads, stride, dilation, group):
    """y = conv(x, weight) + bias[o] for x (N, C, *S) of rank 1 to 3,
    weight (O, C/group, *K), pads (before, after) per axis; None when the
    operands do not fit (the caller's reference raises the error). 1-D and
    2-D go to Conv2D's kernels, 3-D to vol2col + GEMM."""
    rank = weight.ndim - 2
    if not _fast_operands(x, weight, bias) or rank not in (1, 2, 3) \
            or x.ndim != weight.ndim or group < 1 \
            or x.shape[1] != weight.shape[1] * group \
            or weight.shape[0] % group \
            or (bias is not None and bias.shape != weight.shape[:1]):
        return None
    bias = None if bias is None else _fast.writable(bias)
    if rank < 3:
        lead = 2 - rank
        x4, w4 = _lift(x, 2), _lift(weight, 2)
        pads4 = tuple(v for p in ((0, 0),) * lead + tuple(pads) for v in p)
        y = conv2d.fused_conv2d(_fast.writable(x4), None, _fast.writable(w4),
                                bias, _fast.ACT_NONE, "PAD", pads4,
                                (1,) * lead + tuple(stride),
                                (1,) * lead + tuple(dilation), group)
        return y.reshape(y.shape[:2] + y.shape[2 + lead:])
    out = win.output_hw(x.shape[2:], weight.shape[2:], stride, dilation, pads)
    y = np.empty((x.shape[0], weight.shape[0]) + out, x.dtype)
    _conv3d(_fast.writable(x), _fast.writable(weight), bias,
            _geometry(pads, weight.shape[2:], stride, dilation, out), group, y)
    return y


def _conv3d(x, weight, bias, geometry, group, y):
    """The vol2col + GEMM convolution into y (N, O, OD, OH, OW)."""
    c_out, c_group = weight.shape[:2]
    taps, step_out = math.prod(weight.shape[2:]), c_out // group
    w2 = weight.reshape(group, step_out, c_group * taps)
    rows, ow = y.shape[2] * y.shape[3], y.shape[4]
    pointwise = taps == 1 and geometry[:3] == (0, 0, 0) \
        and geometry[6:9] == (1, 1, 1)
    chunk = max(1, BLOCK // (c_group * taps * ow))
    bias = _fast.no_bias(x.dtype) if bias is None else bias
    for b in range(x.shape[0]):
        for g in range(group):
            image = x[b, g * c_group:(g + 1) * c_group]
            dst = y[b, g * step_out:(g + 1) * step_out].reshape(step_out, -1)
            b_g = bias[g * step_out:(g + 1) * step_out] if bias.size else bias

            def output_rows(lo, hi, image=image, dst=dst, w=w2[g], b_g=b_g):
                for r0 in range(lo, hi, chunk):
                    r1 = min(hi, r0 + chunk)
                    if pointwise:
                        cols = image.reshape(c_group, -1)[:, r0 * ow:r1 * ow]
                    else:
                        cols = _fast.scratch("vol2col", (c_group * taps,
                                                         (r1 - r0) * ow),
                                             x.dtype)
                        _tap_columns(cols, image, r0, r1, geometry, False)
                    np.matmul(w, cols, out=dst[:, r0 * ow:r1 * ow])
                    if b_g.size:
                        _fast.epilogue(dst, b_g, _fast.no_residual(x.dtype),
                                       _fast.ACT_NONE, r0 * ow, r1 * ow)
            parallel_for(rows, output_rows, grain=min_items(
                step_out * c_group * taps * ow, GEMM_WORK))


def conv_transpose_fast(dout, weight, bias, pads, out_size, stride,
                        dilation, group):
    """:func:`conv_transpose_nd` (+ bias[c]) of rank 1 to 3 on the fast
    kernels; None when the operands do not fit (the caller's reference
    raises the error)."""
    rank = weight.ndim - 2
    c_in = weight.shape[0]
    c_result = weight.shape[1] * max(group, 1)
    if not _fast_operands(dout, weight, bias) or rank not in (1, 2, 3) \
            or dout.ndim != weight.ndim or group < 1 \
            or dout.shape[1] != c_in or c_in % group \
            or (bias is not None and bias.shape != (c_result,)) \
            or min(out_size) <= 0:
        return None
    y = np.empty(dout.shape[:1] + (c_result,) + tuple(out_size), dout.dtype)
    geometry = _geometry(pads, weight.shape[2:], stride, dilation,
                         dout.shape[2:])
    _conv_transpose3d(_lift(_fast.writable(dout), 3), _lift(weight, 3),
                      _fast.no_bias(dout.dtype) if bias is None
                      else _fast.writable(bias), geometry, group, _lift(y, 3))
    return y


def _conv_transpose3d(dout, weight, bias, geometry, group, y):
    """GEMM + col2vol (+ bias) into y (N, C, D', H', W'), the result
    channels split across the worker threads, in blocks of at most BLOCK
    column values."""
    c_in, c_group = weight.shape[:2]
    taps, step_in = math.prod(weight.shape[2:]), c_in // group
    pixels, rows = math.prod(dout.shape[2:]), dout.shape[2] * dout.shape[3]
    packed = np.ascontiguousarray(
        weight.reshape(group, step_in, c_group * taps).transpose(0, 2, 1))
    per_block = max(1, BLOCK // (taps * pixels))
    for b in range(dout.shape[0]):
        d = dout[b].reshape(group, step_in, pixels)

        def channels(lo, hi, d=d, out=y[b]):
            c0 = lo
            while c0 < hi:
                g, first = divmod(c0, c_group)
                c1 = min(hi, c0 + per_block, (g + 1) * c_group)
                cols = _fast.scratch("col2vol", ((c1 - c0) * taps, pixels),
                                     y.dtype)
                np.matmul(packed[g, first * taps:(first + c1 - c0) * taps],
                          d[g], out=cols)
                planes = out[c0:c1]
                planes[...] = 0
                _tap_columns(cols, planes, 0, rows, geometry, True)
                if bias.size:
                    _fast.epilogue(planes.reshape(c1 - c0, -1), bias[c0:c1],
                                   _fast.no_residual(y.dtype), _fast.ACT_NONE,
                                   0, planes[0].size)
                c0 = c1
        parallel_for(group * c_group, channels, grain=min_items(
            taps * pixels * step_in, GEMM_WORK))


def torch_conv_numba(input, weight, bias, stride, padding, dilation, groups,
                     transposed=False, output_padding=0):
    """:func:`torch_conv` on the fast kernels (float32/float64 operands of
    one dtype, 1-D to 3-D); anything else through the reference."""
    if _fast_operands(input, weight, bias) and weight.ndim in (3, 4, 5):
        x, stride, dilation, pads, out = torch_layout(
            input, weight, stride, padding, dilation, transposed,
            output_padding)
        if transposed:
            y = conv_transpose_fast(x, weight, bias, pads, out, stride,
                                    dilation, int(groups))
        else:
            y = conv_fast(x, weight, bias, pads, stride, dilation, int(groups))
        if y is not None:
            return y[0] if input.ndim == weight.ndim - 1 else y
    return torch_conv(input, weight, bias, stride, padding, dilation, groups,
                      transposed, output_padding)
