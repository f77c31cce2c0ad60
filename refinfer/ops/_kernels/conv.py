"""Convolution kernels (``numba`` backend of Conv2D, Conv3D, the transposed
convolutions and the mint convolutions, and the plan's fused Conv2D).

2-D: dense and grouped convolutions are GEMMs (blas.matmul: NumPy's
OpenBLAS, or MKL; or refinfer's own product, packed.py, for a weight the
plan packed): a 1x1 stride-1 convolution multiplies the weight by the input
itself, other shapes build an im2col matrix with a Numba kernel first (or
go through Winograd F(2x2, 3x3), the plan's choice for 3x3 stride-1
filters; or, for a product with the channels as lanes in vectors, read
each column's values in the image's stride phases: TapPhases).
Depthwise convolutions are a direct Numba kernel.
Bias, residual and activation (fused by the plan) are applied in one pass
after the GEMM, inside the depthwise kernel, in the packed product's
tiles, or, the output channels as lanes, in the pass that transposes a
channel-last product into the output (packed.channels_product) or in
each tile as it is transposed in registers (packed.lanes_product).

N-D: every rank is run as 3-D (a 1-D or 2-D problem gets leading unit
axes), so one compiled kernel per dtype serves all of them:
- convolution: per image and group, GEMMs of the weight (O/g, Cg*taps)
  by vol2col matrices of a few output rows at a time (kept in the cache),
  the output rows split across the worker threads; 1-D and 2-D forward
  convolutions go to Conv2D's kernels instead (depthwise, wide columns);
- transposed convolution: per image, GEMMs of the transposed weight
  (Cg*taps, O/g) by the input, a block of result channels at a time, each
  scattered into its channels by a compiled col2vol pass; the channels
  are split across the worker threads.
vol2col and col2vol are one kernel (:func:`_tap_columns`), given a
geometry tuple (head, top, left, kd, kh, kw, sd, sh, sw, dd, dh, dw, d,
h, w): the padding, kernel, stride, dilation and the size of the forward
convolution's output.
"""
from __future__ import annotations

import math
from functools import lru_cache, partial

import numpy as np

from refinfer.jit import inlined, kernel
from refinfer.threads import GEMM_WORK, gemm_items, min_items, parallel_for

from . import blas, packed, planes, program
from .constants import Holder
from .._ref import window as win
from .._ref.common import require_tensors
from .._ref.conv import (backprop_input_pads, conv3d_pads,
                         conv3d_transpose_layout, torch_layout)


# Indexing as in _kernels/program.py: no sub-array views inside loops, and indices
# Numba cannot prove non-negative made unsigned, so that loops vectorise.
@kernel
def im2col_rows(image, phases, cols, top, left, kh, kw, sh, sw, dh, dw, ow,
                r0, r1, i0, i1):
    """Rows r0 <= r < r1 of the im2col matrix of output rows i0 <= i < i1:
    cols[(c*kh + p)*kw + q, (i - i0)*ow + j] = xpad[c, i*sh + p*dh, j*sw +
    q*dw] for one image (C x H x W), xpad being the image padded with
    zeros. Each plane's rows that those output rows read are split into
    their sh x sw phases first (planes.phases, into ``phases``), where
    every tap's rows are contiguous: the strided reads happen once per
    pixel, not once per tap. (Ranges of rows, not of channels: a stem's
    three channels split across two threads as 13 and 14 rows, not 9 and
    18.)"""
    pitch = ow + (kw - 1) * dw // sw
    rows = i1 - i0 + (kh - 1) * dh // sh
    taps = kh * kw
    where = planes.tap_offsets(kh, kw, sh, sw, pitch, dh, dw)
    phases[...] = 0
    for c in range(r0 // taps, -(-r1 // taps)):
        # (phase row 0 is padded row i0 * sh: the top moves up by that)
        planes.phases(image[c], top - i0 * sh, left, sh, sw, pitch, rows,
                      phases)
        for t in range(max(r0 - c * taps, 0), min(r1 - c * taps, taps)):
            r, f = c * taps + t, where[t, 0]
            for i in range(i1 - i0):
                src = np.uint64(where[t, 1] + i * pitch)
                dst = np.uint64(i * ow)
                for j in range(np.uint64(ow)):
                    cols[r, dst + j] = phases[f, src + j]


@kernel
def _wide_columns(image, plane, cols, top, left, kh, kw, pitch, oh):
    """Stride-1 im2col without per-row work: row (c, p, q) of cols is the
    padded plane c, flattened with row pitch ``pitch``, from p*pitch + q on.
    Output pixel (i, j) is then column i*pitch + j of the product; the
    columns j >= OW are garbage the epilogue drops."""
    h, w = image.shape[1], image.shape[2]
    rows = min(h, plane.size // pitch - top)
    width = np.uint64(max(0, min(w, pitch - left)))
    for c in range(image.shape[0]):
        planes.fill(plane, 0, plane.size, 0)
        for i in range(rows):
            base = np.uint64((i + top) * pitch + left)
            for j in range(width):
                plane[base + j] = image[c, i, j]
        for p in range(kh):
            for q in range(kw):
                r, start = (c * kh + p) * kw + q, np.uint64(p * pitch + q)
                for t in range(np.uint64(oh * pitch)):
                    cols[r, t] = plane[start + t]


@kernel
def _image_phases(image, phases, top, left, sh, sw, pitch, rows, lo, hi):
    """phases[c] = the sh x sw phases of image[c] padded with zeros
    (planes.phases), for channels lo <= c < hi."""
    for c in range(lo, hi):
        phases[c, :, :] = 0
        planes.phases(image[c], top, left, sh, sw, pitch, rows, phases[c])


@kernel
def _depthwise(x, weight, bias, y, sh, sw, dh, dw, top, left, act):
    """y[n, o] = act(bias[o] + sum_{p,q} weight[o, 0, p, q] *
    x[n, o // multiplier, i*sh + p*dh - top, j*sw + q*dw - left]):
    any kernel size, stride and dilation. act: light ones only
    (:func:`program.activate_light`), as in every kernel here."""
    n, c_in, h, w = x.shape
    c_out, oh, ow = y.shape[1], y.shape[2], y.shape[3]
    kh, kw = weight.shape[2], weight.shape[3]
    multiplier = c_out // c_in
    for k in range(n * c_out):
        b, o = divmod(k, c_out)
        plane = x[b, o // multiplier]
        start = bias[o] if bias.size else bias.dtype.type(0)
        for i in range(oh):
            row = y[b, o, i]
            planes.fill(row, 0, ow, start)
            for p in range(kh):
                hi = i * sh + p * dh - top
                if hi < 0 or hi >= h:
                    continue
                line = plane[hi]
                for q in range(kw):
                    tap = weight[o, 0, p, q]
                    offset = q * dw - left
                    j0, j1 = planes.valid_columns(offset, sw, w, ow)
                    for j in range(j0, j1):
                        row[j] += tap * line[j * sw + offset]
            program.activate(row, act)


@kernel
def _depthwise3x3(x, weight, bias, y, stride, top, left, act):
    """The 3x3 stride-1/2 undilated depthwise case, one plane at a time: the
    padded plane (stride 2: its four phases) is laid out with row pitch
    ``pitch`` so that every tap is a constant shift, and the whole plane is
    one vectorised loop of 9 multiply-adds per output (the pitch - OW extra
    columns per row are computed and dropped)."""
    n, c_in = x.shape[0], x.shape[1]
    c_out, oh, ow = y.shape[1], y.shape[2], y.shape[3]
    multiplier = c_out // c_in
    pitch, rows = ow + 2 // stride, oh + 2 // stride
    phases = np.zeros((stride * stride, rows * pitch + 2 // stride + 1),
                      x.dtype)
    wide = np.empty((1, oh * pitch), x.dtype)
    where = planes.tap_offsets(3, 3, stride, stride, pitch)
    for k in range(n * c_out):
        b, o = divmod(k, c_out)
        planes.phases(x[b, o // multiplier], top, left, stride, stride, pitch,
                       rows, phases)
        start = bias[o] if bias.size else bias.dtype.type(0)
        _shifted_taps(wide[0], phases, where, weight[o, 0].ravel(), start)
        program.activate_light(wide, 0, 0, wide.size, act)
        planes.copy_out(wide[0], pitch, y, b, o)


@kernel
def _shifted_taps(out, phases, where, t, start):
    """out[u] = start + sum_k t[k] * phases[where[k, 0], u + where[k, 1]]."""
    a0, a1, a2 = _tap(phases, where, 0), _tap(phases, where, 1), \
        _tap(phases, where, 2)
    a3, a4, a5 = _tap(phases, where, 3), _tap(phases, where, 4), \
        _tap(phases, where, 5)
    a6, a7, a8 = _tap(phases, where, 6), _tap(phases, where, 7), \
        _tap(phases, where, 8)
    for u in range(out.size):
        out[u] = (start + t[0] * a0[u] + t[1] * a1[u] + t[2] * a2[u]
                  + t[3] * a3[u] + t[4] * a4[u] + t[5] * a5[u]
                  + t[6] * a6[u] + t[7] * a7[u] + t[8] * a8[u])


@inlined
def _tap(phases, where, k, block=1):
    return phases[where[k, 0], where[k, 1] * block:]


@kernel
def _shifted_channel_taps(out, phases, where, t, start):
    """Channel-last blocks of ``block`` = t.shape[1] channels:
    out[u*block + c] = start[c] + sum_k t[k, c] * phase_k[(u + shift_k)*block + c]."""
    block = t.shape[1]
    a0, a1, a2 = _tap(phases, where, 0, block), _tap(phases, where, 1, block), \
        _tap(phases, where, 2, block)
    a3, a4, a5 = _tap(phases, where, 3, block), _tap(phases, where, 4, block), \
        _tap(phases, where, 5, block)
    a6, a7, a8 = _tap(phases, where, 6, block), _tap(phases, where, 7, block), \
        _tap(phases, where, 8, block)
    for u in range(out.size // block):
        base = u * block
        for c in range(block):
            v = base + c
            out[v] = (start[c] + t[0, c] * a0[v] + t[1, c] * a1[v]
                      + t[2, c] * a2[v] + t[3, c] * a3[v] + t[4, c] * a4[v]
                      + t[5, c] * a5[v] + t[6, c] * a6[v] + t[7, c] * a7[v]
                      + t[8, c] * a8[v])


CHANNEL_BLOCK = 32
# Input pixels a 3x3 depthwise output plane reads (output pixels x stride
# squared) up to which the channel-blocked kernel is faster: it re-lays every
# input plane out channel-last first. Measured on one thread, plain vs
# blocked ms: 960 x 7x7 stride 1 0.44 vs 0.30, 960 x 4x4 stride 2 0.51 vs
# 0.36, 960 x 10x10 0.40 vs 0.42, 192 x 28x28 0.15 vs 0.41, 576 x 14x14
# stride 2 to 7x7 0.24 vs 0.47.
SMALL_PLANE = 8 * 8


@kernel
def _depthwise3x3_blocked(x, weight, bias, y, stride, top, left, act):
    """The same for small planes (a 7x7 row is too short to vectorise
    along): blocks of CHANNEL_BLOCK channels are laid out channel-last,
    phases as in :func:`_depthwise3x3`, and the inner loop runs across the
    block's channels."""
    n, c_in = x.shape[0], x.shape[1]
    c_out, oh, ow = y.shape[1], y.shape[2], y.shape[3]
    multiplier = c_out // c_in
    pitch, rows = ow + 2 // stride, oh + 2 // stride
    length = rows * pitch + 2 // stride + 1
    block = CHANNEL_BLOCK
    plane = np.zeros((stride * stride, length), x.dtype)
    phases = np.zeros((stride * stride, length * block), x.dtype)
    taps = np.zeros((9, block), x.dtype)
    start = np.zeros(block, x.dtype)
    wide = np.empty(oh * pitch * block, x.dtype)
    where = planes.tap_offsets(3, 3, stride, stride, pitch)
    for b in range(n):
        for first in range(0, c_out, block):
            m = min(block, c_out - first)
            for c in range(m):
                o = first + c
                planes.phases(x[b, o // multiplier], top, left, stride,
                               stride, pitch, rows, plane)
                for f in range(stride * stride):
                    for u in range(length):
                        phases[f, u * block + c] = plane[f, u]
                for k in range(9):
                    taps[k, c] = weight[o, 0, k // 3, k % 3]
                start[c] = bias[o] if bias.size else bias.dtype.type(0)
            _shifted_channel_taps(wide, phases, where, taps, start)
            program.activate(wide, act)
            for c in range(m):
                for i in range(oh):
                    for j in range(ow):
                        y[b, first + c, i, j] = wide[(i * pitch + j) * block + c]


def depthwise(x, weight, bias, y, stride, dilation, top, left, act):
    """Run the depthwise kernel that fits the geometry into y, image by
    image, input channels split across the worker threads."""
    c_in, multiplier = x.shape[1], y.shape[1] // x.shape[1]
    if weight.shape[2:] == (3, 3) and dilation == (1, 1) \
            and stride[0] == stride[1] and stride[0] in (1, 2):
        small = y.shape[2] * y.shape[3] * stride[0] ** 2 <= SMALL_PLANE
        kernel3x3 = _depthwise3x3_blocked if small else _depthwise3x3

        def run(image, w, b, out):
            kernel3x3(image, w, b, out, stride[0], top, left, act)
    else:
        def run(image, w, b, out):
            _depthwise(image, w, b, out, stride[0], stride[1], dilation[0],
                       dilation[1], top, left, act)
    def channels(n, lo, hi):
        out = slice(lo * multiplier, hi * multiplier)
        run(x[n:n + 1, lo:hi], weight[out], bias[out] if bias.size else bias,
            y[n:n + 1, out])
        program.activate_heavy(y[n, out].reshape(-1, y.shape[2] * y.shape[3]),
                               act)
    planes.each_channel_range(x.shape[0], c_in, y.shape[2] * y.shape[3],
                               channels)


@lru_cache(maxsize=1024)
def conv_geometry(x_shape, w_shape, pad_mode, pads, stride, dilation):
    """(top, left, out_h, out_w) of a convolution, as the reference's."""
    pads = win.resolve_pads(x_shape[2:], w_shape[2:], stride, dilation,
                            pad_mode, pads)
    out_hw = win.output_hw(x_shape[2:], w_shape[2:], stride, dilation, pads)
    return pads[0][0], pads[1][0], out_hw[0], out_hw[1]


def fused_conv2d(x, residual, weight, bias, act, pad_mode, pads, stride,
                 dilation, group, onto_residual=False):
    """act(conv2d(x, weight) + bias[o] + residual), NCHW, float32/float64;
    None when x or residual does not fit (the caller falls back).

    ``weight`` (C_out, C_in/group, kh, kw) contiguous, or a
    :class:`WinogradFilter` (3x3, stride 1, one group: the plan's choice),
    or a :class:`packed.PackedWeight` or :class:`packed.PackedChannels`
    (one group, float32);
    bias (C_out,) or None; residual shaped like the output or None; act an
    ``program.ACT_*`` code. The plan folds BatchNorm into weight and bias.
    ``onto_residual``: the plan lets the result be written over the
    residual (nothing else reads it: passes/conv.py), which a packed
    weight's product does: its tiles add the residual where they write,
    so the output is never a cold buffer of its own (ResNet-50's 56x56
    layers with a residual took 0.6-0.7 of the time in a run with cold
    caches).
    """
    winograd = weight if isinstance(weight, WinogradFilter) else None
    c_out, c_group, kh, kw = weight.shape
    if not isinstance(x, np.ndarray) or x.dtype != weight.dtype or x.ndim != 4 \
            or x.shape[1] != c_group * group:
        return None     # (a tuple for x: the reference's check names it)
    top, left, oh, ow = conv_geometry(x.shape, weight.shape, pad_mode, pads,
                                      stride, dilation)
    shape = (x.shape[0], c_out, oh, ow)
    if residual is not None and (not isinstance(residual, np.ndarray)
                                 or residual.shape != shape
                                 or residual.dtype != x.dtype):
        return None
    x = program.writable(x)
    if isinstance(weight, packed.PackedChannels) and oh * ow < weight.min_pixels:
        weight = weight.unpacked()  # too few pixels for its product: the BLAS's
    if onto_residual and isinstance(weight, ONTO_WEIGHTS) \
            and residual.flags.c_contiguous and residual.flags.writeable:
        _gemm_convolution(x, weight, bias, None, act, (top, left), stride,
                          dilation, group, residual, onto=True)
        return residual
    y = np.empty(shape, x.dtype)
    if winograd is not None:
        winograd_conv2d(x, residual, winograd, bias, act, (top, left), y)
        return y
    if group > 1 and c_group == 1:
        depthwise(x, weight, program.no_bias(x.dtype) if bias is None else bias,
                  y, stride, dilation, top, left,
                  act if residual is None else program.ACT_NONE)
        if residual is None:
            return y
        return program.apply_epilogue(y, None, residual, act)
    _gemm_convolution(x, weight, bias, residual, act, (top, left), stride,
                      dilation, group, y)
    return y


WIDE_MIN_WIDTH = 28   # below, the wide trick's garbage columns cost more
# the packed weights whose products can write over the residual
ONTO_WEIGHTS = (packed.PackedWeight, packed.PackedChannels)


def _gemm_convolution(x, weight, bias, residual, act, top_left, stride,
                      dilation, group, y, onto=False):
    """Dense and grouped convolution: per image and group, one GEMM of the
    weight (C_out/g, C_in/g*kh*kw) by the image's columns, then the
    epilogue (bias, residual, activation), split across the worker threads
    by output rows (wide outputs) or output channels. ``onto``: y holds
    the residual (a packed weight's; :class:`Gemm`)."""
    c_out, c_group, kh, kw = weight.shape
    oh, ow = y.shape[2], y.shape[3]
    step_out = c_out // group
    geometry = (kh, kw) + tuple(stride) + tuple(dilation) + tuple(top_left) \
        + (oh, ow)
    bias = program.no_bias(x.dtype) if bias is None else bias
    residual = None if residual is None else program.writable(residual)
    if isinstance(weight, packed.PackedChannels):
        in_place = kh * kw > 1 and weight.columns == packed.VECTOR
        for b in range(x.shape[0]):
            cols = TapPhases(x[b], geometry) if in_place \
                else columns(x[b], geometry, wide=False)[0]
            ChannelsProduct(weight, cols, y[b], bias, None if residual is None
                            else residual[b], act, onto).run()
        return
    w2 = [weight] if isinstance(weight, packed.PackedWeight) \
        else weight.reshape(group, step_out, c_group * kh * kw)
    for b in range(x.shape[0]):
        for g in range(group):
            out = slice(g * step_out, (g + 1) * step_out)
            cols, pitch = columns(x[b, g * c_group:(g + 1) * c_group],
                                   geometry)
            Gemm(w2[g], cols, y[b, out], pitch,
                 bias[out] if bias.size else bias,
                 None if residual is None else residual[b, out], act,
                 onto).run()


def _addend(dst2d, residual, onto: bool) -> np.ndarray:
    """The residual a product adds, shaped like dst2d (C, pixels): dst2d
    itself where it holds the residual (``onto``), empty where there is
    none."""
    if onto:
        return dst2d
    return program.no_residual(dst2d.dtype) if residual is None \
        else residual.reshape(dst2d.shape)


class ChannelsProduct:
    """One image's convolution by a :class:`packed.PackedChannels` weight,
    the output channels as the vectors' lanes, split across the worker
    threads. Slivers of IMAGE_COLUMNS (small planes): by slivers, each
    piece computing its channels into the calling thread's scratch
    (pixels x C_out) and transposing them into the output with the
    epilogue (packed.channels_product). Slivers of VECTOR: each tile
    transposed into the output in registers (packed.lanes_product, or
    packed.taps_product on an image's phases: :class:`TapPhases`), split
    by ranges of pixels where there are more of them than channels (each
    thread reads its part of the image), else by slivers (its part of
    the weight). ``onto``: dst holds the residual."""

    def __init__(self, weight, cols, dst, bias, residual, act, onto=False):
        self.weight, self.cols, self.act = weight, cols, act
        self.dst = dst.reshape(dst.shape[0], -1)
        self.bias = bias
        self.residual = _addend(self.dst, residual, onto)

    def run(self) -> None:
        (channels, pixels), depth = self.dst.shape, self.cols.shape[0]
        step = self.weight.columns
        if step == packed.VECTOR and pixels > channels:
            items, piece = pixels // packed.VECTOR, self.pixels
        else:
            items = -(-channels // step)
            piece = self.lanes if step == packed.VECTOR else self.channels
        macs = channels * pixels * depth
        moved = (depth + channels) * pixels * self.dst.itemsize
        parallel_for(items, piece,
                     grain=gemm_items(macs // items, moved // items))

    def channels(self, lo, hi):
        c0 = lo * packed.IMAGE_COLUMNS
        c1 = min(hi * packed.IMAGE_COLUMNS, self.dst.shape[0])
        product = program.scratch("channels", self.dst.shape[::-1],
                                  self.dst.dtype)
        packed.channels_product(self.cols, self.weight.slivers, c0, c1,
                                product, self.dst, self.bias, self.residual,
                                self.act)
        program.activate_heavy(self.dst[c0:c1], self.act)

    def lanes(self, lo, hi):
        """Slivers lo..hi of VECTOR output channels, every pixel."""
        c1 = min(hi * packed.VECTOR, self.dst.shape[0])
        self._lanes(lo * packed.VECTOR, c1, 0, self.dst.shape[1])

    def pixels(self, lo, hi):
        """Pixels of tiles lo..hi (the last range to the end), every
        output channel."""
        pixels = self.dst.shape[1]
        last = pixels if hi == pixels // packed.VECTOR else hi * packed.VECTOR
        self._lanes(0, self.dst.shape[0], lo * packed.VECTOR, last)

    def _lanes(self, c0, c1, p0, p1):
        product = self.cols.lanes_product if isinstance(self.cols, TapPhases) \
            else partial(packed.lanes_product, self.cols, p0)
        product(self.weight.slivers, c0, c1, p0, p1, self.dst, self.bias,
                self.residual, self.act)
        program.activate_heavy(self.dst[c0:c1, p0:p1], self.act)


class Gemm:
    """One convolution GEMM and its epilogue, computable in pieces: a range
    of output rows, or of output channels. The product goes straight into
    the output, or (wide columns: ``pitch`` > OW) into a scratch buffer of
    the calling thread, from which the epilogue keeps the first OW columns
    of each row. A :class:`packed.PackedWeight` is multiplied by
    :func:`packed.multiply`, the epilogue inside where the product is the
    output, its channel ranges whole slivers; any other weight by the
    BLAS. With ``onto`` (a packed weight only), dst holds the residual and
    the result is written over it (see :func:`fused_conv2d`)."""

    def __init__(self, weight, cols, dst, pitch, bias, residual, act,
                 onto=False):
        self.weight, self.cols, self.pitch = weight, cols, pitch
        self.dst = dst.reshape(dst.shape[0], -1)
        self.width = dst.shape[2]
        self.bias, self.act = bias, act
        self.onto = int(onto)
        self.residual = _addend(self.dst, residual, onto)
        self.plain = bias.size == 0 and residual is None and act == program.ACT_NONE
        self.product = self.dst if pitch == self.width else program.scratch(
            "product", (dst.shape[0], dst.shape[1] * pitch), dst.dtype)
        self.packed = isinstance(weight, packed.PackedWeight)
        self.step = packed.TILE_ROWS if self.packed else 1

    def run(self) -> None:
        """All of it, split across the worker threads by output rows (wide
        outputs) or output channels."""
        channels, depth = self.dst.shape[0], self.cols.shape[0]
        rows = self.dst.shape[1] // self.width
        macs = channels * rows * self.pitch * depth
        moved = (depth + channels) * rows * self.pitch * self.dst.itemsize
        if rows * self.pitch >= channels:
            items, piece = rows, self.rows
        else:
            items, piece = -(-channels // self.step), self.channels
        parallel_for(items, piece, grain=gemm_items(macs // items, moved // items))

    def rows(self, lo, hi):
        self._multiply(slice(None), slice(lo * self.pitch, hi * self.pitch),
                       lo, hi)

    def channels(self, lo, hi):
        """Channels lo:hi, in slivers of the packed weight where it is one."""
        out = slice(lo * self.step, min(hi * self.step, self.dst.shape[0]))
        self._multiply(out, slice(None), 0, self.dst.shape[1] // self.width)

    def _multiply(self, out, span, row0, row1):
        if not self.packed:
            blas.matmul(self.weight[out], self.cols[:, span],
                        self.product[out, span])
        elif self.product is self.dst:
            none = program.no_residual(self.dst.dtype)
            self._multiply_packed(out, span, self.bias, none if self.onto
                                  else self.residual, self.act, self.onto)
            program.activate_heavy(self.dst[out, span], self.act)
            return
        else:   # (the epilogue reads the residual, dst's own where onto)
            self._multiply_packed(out, span, program.no_bias(self.dst.dtype),
                                  program.no_residual(self.dst.dtype),
                                  program.ACT_NONE, 0)
        self._epilogue(out, row0, row1)

    def _multiply_packed(self, out, span, bias, residual, act, onto):
        rows = out.indices(self.product.shape[0])[:2]
        cols = span.indices(self.product.shape[1])[:2]
        packed.multiply(self.weight.slivers, self.weight.depth, self.cols,
                        self.product, bias, residual, act,
                        packed.panel_scratch(), rows, cols, onto)

    def _epilogue(self, out, row0, row1):
        bias = self.bias[out] if self.bias.size else self.bias
        residual = self.residual[out] if self.residual.size else self.residual
        if self.product is not self.dst:
            program.epilogue_rows(self.product[out], self.dst[out], bias, residual,
                                self.act, self.pitch, row0, row1)
        elif not self.plain:
            program.epilogue(self.dst[out], bias, residual, self.act,
                           row0 * self.width, row1 * self.width)
        program.activate_heavy(
            self.dst[out, row0 * self.width:row1 * self.width], self.act)


def columns(image, geometry, wide=True):
    """(columns, row pitch) of one image (C x H x W): its im2col matrix,
    with output rows ``pitch`` apart in it, built by the worker threads
    channel by channel (the wide layout) or in ranges of its rows. A 1x1
    stride-1 unpadded kernel uses the image itself; other stride-1 kernels
    on wide planes use the wide layout (see :func:`_wide_columns`) if
    ``wide``, else pitch is always OW."""
    kh, kw, sh, sw, dh, dw, top, left, oh, ow = geometry
    c_in, dtype, taps = image.shape[0], image.dtype, kh * kw
    if kh == kw == 1 and top == left == 0:
        if sh == sw == 1:
            return image.reshape(c_in, -1), ow
        cols = program.scratch("cols", (c_in, oh, ow), dtype)
        cols[...] = image[:, :(oh - 1) * sh + 1:sh, :(ow - 1) * sw + 1:sw]
        return cols.reshape(c_in, -1), ow
    if wide and sh == sw == dh == dw == 1 and ow >= WIDE_MIN_WIDTH:
        pitch = ow + kw - 1
        cols = program.scratch("cols", (c_in * taps, oh * pitch), dtype)

        def channels(lo, hi):
            plane = program.scratch("plane", ((oh + kh - 1) * pitch + kw - 1,),
                                  dtype)
            _wide_columns(image[lo:hi], plane, cols[lo * taps:hi * taps], top,
                          left, kh, kw, pitch, oh)
        parallel_for(c_in, channels, grain=min_items(taps * oh * pitch))
        return cols, pitch
    cols = program.scratch("cols", (c_in * taps, oh * ow), dtype)
    parallel_for(c_in * taps, lambda lo, hi: column_rows(
        image, geometry, 0, oh, cols, lo, hi), grain=min_items(oh * ow))
    return cols, ow


def column_rows(image, geometry, i0, i1, cols, r0=0, r1=None):
    """Rows r0 <= r < r1 (all by default) of the im2col matrix of one image
    (C x H x W) for output rows i0 <= i < i1, made by the calling thread
    into ``cols`` (C*kh*kw, (i1 - i0) * OW); returns cols."""
    kh, kw, sh, sw, dh, dw, top, left, oh, ow = geometry
    phases = program.scratch("plane", phases_shape(geometry, i1 - i0),
                             image.dtype)
    im2col_rows(image, phases, cols, top, left, kh, kw, sh, sw, dh, dw, ow,
                r0, len(cols) if r1 is None else r1, i0, i1)
    return cols


@inlined
def phases_shape(geometry, rows):
    """The shape of :func:`im2col_rows`'s ``phases`` for ``rows`` output
    rows of ``geometry`` (conv.columns's)."""
    kh, kw, sh, sw, dh, dw = geometry[:6]
    return sh * sw, (rows + (kh - 1) * dh // sh) * (
        geometry[-1] + (kw - 1) * dw // sw)


class TapPhases:
    """An image's im2col matrix (C*kh*kw, OH*OW) for a product with the
    channels as lanes in vectors (:class:`ChannelsProduct`), read where it
    lies: the image is kept as its stride phases (planes.phases: one
    copy, made by the worker threads channel by channel), in which every
    tap of every channel is an offset (``depths``, in im2col's row order)
    and every output pixel another (``pixels``), the sum of the two a
    column's element (packed.taps_product). A matrix kh*kw / (sh*sw)
    times the image's size is neither written nor read back. Zen 4, one
    thread, hot, phases and product against im2col and the product of
    its columns: ResNet-50's 7x7 stem (columns 7.4 MB) 0.87, its 3x3
    stride-2 convolutions of 128 and 256 channels 0.95-1.02, 32 -> 64
    channels on 28x28 0.87-0.94: the product alone runs at 0.90-0.97 of
    the columns' rate (a load more per depth step), about what making
    the columns costs."""

    def __init__(self, image, geometry):
        kh, kw, sh, sw, dh, dw, top, left, oh, ow = geometry
        c_in, (rows, pitch) = image.shape[0], self.plane(geometry)
        self.shape = (c_in * kh * kw, oh * ow)
        phases = program.scratch("phases", (c_in, sh * sw, rows * pitch),
                                 image.dtype)
        self.phases = phases.reshape(-1, rows * pitch)
        self.depths, self.pixels = _tap_offsets(c_in, geometry, rows,
                                                pitch)

        def channels(lo, hi):
            _image_phases(image, phases, top, left, sh, sw, pitch, rows,
                          lo, hi)
        parallel_for(c_in, channels, grain=min_items(phases[0].size))

    @staticmethod
    def plane(geometry) -> tuple[int, int]:
        """(rows, row pitch) of each phase of an image."""
        kh, kw, sh, sw, dh, dw, _, _, oh, ow = geometry
        return oh + (kh - 1) * dh // sh, ow + (kw - 1) * dw // sw

    def lanes_product(self, b, c0, c1, p0, p1, dst, bias, residual, act):
        """packed.lanes_product on these columns (packed.taps_product)."""
        packed.taps_product(self.phases, self.depths, self.pixels, b, c0, c1,
                            p0, p1, dst, bias, residual, act)


@lru_cache(maxsize=64)
def _tap_offsets(channels: int, geometry, rows: int, pitch: int):
    """(depths, pixels) of :class:`TapPhases`: im2col's element (c*kh*kw
    + t, i*OW + j) of an image of ``channels`` lies at depths[c*kh*kw + t]
    + pixels[i*OW + j] from the start of its phases (C, sh*sw,
    rows*pitch): tap t's phase and shift (planes.tap_offsets) in channel
    c's phases, output row i's place in a phase."""
    kh, kw, sh, sw, dh, dw, _, _, oh, ow = geometry
    where = planes.tap_offsets(kh, kw, sh, sw, pitch, dh, dw)
    plane = rows * pitch
    depths = np.arange(channels)[:, None] * (sh * sw * plane) \
        + where[:, 0] * plane + where[:, 1]
    pixels = np.arange(oh)[:, None] * pitch + np.arange(ow)
    return depths.reshape(-1).astype(np.intp), \
        pixels.reshape(-1).astype(np.intp)


# -- Winograd F(2x2, 3x3) ---------------------------------------------------------
# A 3x3 stride-1 convolution computed tile by tile: each 4x4 input tile d and
# each filter g are transformed (V = B^T d B, U = G g G^T), multiplied
# elementwise and summed over input channels -- 16 GEMMs U_k @ V_k over the
# channels -- and transformed back (Y = A^T M A, 2x2 outputs per tile):
# 2.25 times fewer multiplications than the direct form, for a few
# additions per element. The filter transform is done once, at plan time.
class WinogradFilter(Holder):
    """A 3x3 filter (for a stride-1, undilated, one-group convolution) with
    its Winograd transform u (16, C_out, C_in). Measured single-threaded on
    ResNet-50's 3x3 layers (C x HxW: 64x56, 128x28, 256x14, 512x7), against
    im2col + GEMM: 2.74 / 1.77 / 1.62 / 2.99 ms instead of 3.18 / 2.97 /
    2.72 / 3.17; results differ from the direct form by ~5e-7 relative.

    Where our own product is enabled (float32, :func:`packed.enabled`),
    each u_k is kept packed for it instead (u (16, packed size)): the 16
    products, each of a small weight (C_out x C_in) by few columns, took
    0.72-0.89 of OpenBLAS's time that way (one thread, AMD EPYC: OpenBLAS
    packs u_k again at every call). Where the plan knows the output plane
    (``tiles``) and :func:`packed.channels_columns` takes it, u_k is packed
    with the output channels as lanes instead (``columns``: the tiles fill
    a 7 x 48 or 16 x 16 tile's rows, where they left a 12 x 32 tile's
    columns part empty): Zen 4, one thread, the 16 products of 64 x 56x56,
    128 x 28x28 and 256 x 14x14 took 0.74-0.92 of their time so, 512 x
    7x7 0.49-0.58 (there im2col's product had been faster). Only u is kept
    (``shape`` and ``dtype`` are the 3x3 weight's)."""

    @staticmethod
    def applies(weight: np.ndarray, stride, dilation, group) -> bool:
        return (weight.shape[2:] == (3, 3) and tuple(stride) == (1, 1)
                and tuple(dilation) == (1, 1) and group == 1)

    G = np.array([[1, 0, 0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0, 0, 1]])
    SHARED = ("u",)

    @staticmethod
    def tile_grid(oh: int, ow: int) -> tuple[int, int]:
        """(rows, columns) of 2x2 tiles covering an output plane."""
        return -(-oh // 2), -(-ow // 2)

    def __init__(self, weight: np.ndarray, tiles: int | None = None):
        self.shape, self.dtype = weight.shape, weight.dtype
        self.packed = packed.serves(weight.dtype)
        self.columns = packed.channels_columns(weight.dtype, tiles) \
            if tiles else 0
        # u_k one at a time (in float64), into u: no transient of all 16
        parts = (self._packed(self._transform(weight, k)) for k in range(16))
        first = next(parts)
        self.u = np.empty((16, *first.shape), first.dtype)
        self.u[0] = first
        for k, part in enumerate(parts, 1):
            self.u[k] = part

    @classmethod
    def _transform(cls, weight: np.ndarray, k: int) -> np.ndarray:
        """u_k = (G w G^T)[k // 4, k % 4] for every (output, input)
        channel, in float64."""
        return np.einsum("p,ocpq,q->oc", cls.G[k // 4], weight, cls.G[k % 4])

    def _packed(self, u_k: np.ndarray) -> np.ndarray:
        """u_k as :func:`multiply` reads it."""
        if self.columns:
            return packed.PackedChannels(u_k[:, :, None, None],
                                         self.columns).slivers
        if self.packed:
            return packed.PackedWeight(u_k).slivers
        return u_k.astype(self.dtype)

    def pitch(self, tiles: int) -> int:
        """The columns of its products for a plane of ``tiles``: at least
        a tile's rows where u_k is packed with the channels as lanes (the
        columns past the plane's are computed from whatever V holds there,
        and never read)."""
        return max(tiles, packed.fewest_pixels(self.columns)) \
            if self.columns else tiles

    def multiply(self, ks: range, v: np.ndarray, m: np.ndarray,
                 tiles: int) -> None:
        """M_k = u_k @ V_k for k in ``ks``, V_k (C_in, tiles) the first
        elements of v[k], M_k (C_out, tiles) of m[k]; ``tiles`` a
        :func:`pitch`."""
        c_out, c_in = self.shape[:2]
        pairs = [(v[k, :c_in * tiles].reshape(c_in, tiles),
                  m[k, :c_out * tiles].reshape(c_out, tiles)) for k in ks]
        bias, residual = program.no_bias(m.dtype), program.no_residual(m.dtype)
        if self.columns == packed.VECTOR:
            for k, (v_k, m_k) in zip(ks, pairs):
                packed.lanes_product(v_k, 0, self.u[k], 0, c_out, 0, tiles,
                                     m_k, bias, residual, program.ACT_NONE)
        elif self.columns:
            product = program.scratch("channels", (tiles, c_out), m.dtype)
            for k, (v_k, m_k) in zip(ks, pairs):
                packed.channels_product(v_k, self.u[k], 0, c_out, product,
                                        m_k, bias, residual, program.ACT_NONE)
        elif self.packed:
            panel = packed.panel_scratch()
            for k, (v_k, m_k) in zip(ks, pairs):
                packed.multiply(self.u[k], c_in, v_k, m_k, bias, residual,
                                program.ACT_NONE, panel, (0, c_out),
                                (0, tiles), 0)
        else:
            for k, (v_k, m_k) in zip(ks, pairs):
                blas.matmul(self.u[k], v_k, m_k)


def _planes(slot: str, size: int, dtype) -> np.ndarray:
    """Scratch for Winograd's 16 planes of ``size`` elements, (16, pitch):
    each begins a cache line past a multiple of 4 KB from the one before,
    as the transforms go through all 16 at once (16 streams a multiple of
    4 KB apart share one L1 set: 64 x 56x56's output transform took twice
    as long so)."""
    itemsize = np.dtype(dtype).itemsize
    pitch = (-(-size * itemsize // 4096) * 4096 + 64) // itemsize
    return program.scratch(slot, (16, pitch), dtype)


@kernel
def _winograd_input(image, c0, top, left, tiles_y, tiles_x, pitch, plane,
                    v):
    """v[k, (c0 + c) * pitch + ty*tiles_x + tx] = (B^T d B)[k // 4, k % 4]
    for the 4x4 tile d of channel c at rows 2ty - top.., columns 2tx -
    left.. (zero outside the image). Per tile row, B^T combines four
    padded rows at once, then B combines columns across all tiles of the
    row (vectorised loops)."""
    width = plane.shape[1]
    rows = np.empty((4, width), image.dtype)
    for c in range(image.shape[0]):
        planes.pad_plane(image, c, top, left, plane)
        for ty in range(tiles_y):
            r = 2 * ty
            for j in range(width):     # B^T d, for every column at once
                a0, a1 = plane[r, j], plane[r + 1, j]
                a2, a3 = plane[r + 2, j], plane[r + 3, j]
                rows[0, j], rows[1, j] = a0 - a2, a1 + a2
                rows[2, j], rows[3, j] = a2 - a1, a1 - a3
            base = np.uint64((c0 + c) * pitch + ty * tiles_x)
            for i in range(4):         # (B^T d) B, tile by tile
                for tx in range(np.uint64(tiles_x)):
                    q = 2 * tx
                    a0, a1 = rows[i, q], rows[i, q + 1]
                    a2, a3 = rows[i, q + 2], rows[i, q + 3]
                    v[4 * i, base + tx] = a0 - a2
                    v[4 * i + 1, base + tx] = a1 + a2
                    v[4 * i + 2, base + tx] = a2 - a1
                    v[4 * i + 3, base + tx] = a1 - a3


@kernel
def _winograd_output(m, o0, bias, residual, act, tiles_y, tiles_x, pitch,
                     y, wide):
    """y[o] = act(A^T M A + bias[o] + residual[o]) for every 2x2 output
    tile (cropped at the edges), M from m[:, (o0 + o) * pitch:] (as
    :func:`_winograd_input` lays v out), one tile row at a time: A^T and A
    across all tiles of the row (vectorised), into ``wide`` (2 x
    2*tiles_x), then copied out with the residual and the activation."""
    oh, ow = y.shape[1], y.shape[2]
    zero = y.dtype.type(0)
    for o in range(y.shape[0]):
        b = bias[o] if bias.size else zero
        for ty in range(tiles_y):
            base = np.uint64((o0 + o) * pitch + ty * tiles_x)
            for tx in range(np.uint64(tiles_x)):
                t = base + tx
                r00 = m[0, t] + m[4, t] + m[8, t]
                r01 = m[1, t] + m[5, t] + m[9, t]
                r02 = m[2, t] + m[6, t] + m[10, t]
                r03 = m[3, t] + m[7, t] + m[11, t]
                r10 = m[4, t] - m[8, t] - m[12, t]
                r11 = m[5, t] - m[9, t] - m[13, t]
                r12 = m[6, t] - m[10, t] - m[14, t]
                r13 = m[7, t] - m[11, t] - m[15, t]
                wide[0, 2 * tx] = r00 + r01 + r02 + b
                wide[0, 2 * tx + 1] = r01 - r02 - r03 + b
                wide[1, 2 * tx] = r10 + r11 + r12 + b
                wide[1, 2 * tx + 1] = r11 - r12 - r13 + b
            for i in range(min(2, oh - 2 * ty)):
                row = 2 * ty + i
                if residual.size:
                    for j in range(np.uint64(ow)):
                        wide[i, j] += residual[o, row, j]
                program.activate_light(wide, i, 0, ow, act)
                for j in range(np.uint64(ow)):
                    y[o, row, j] = wide[i, j]


def winograd_conv2d(x, residual, weight, bias, act, top_left, y):
    """The Winograd F(2x2, 3x3) path of :func:`fused_conv2d` (stride 1,
    dilation 1, one group), image by image."""
    c_out, c_in = weight.shape[:2]
    oh, ow = y.shape[2], y.shape[3]
    tiles_y, tiles_x = WinogradFilter.tile_grid(oh, ow)
    pitch = weight.pitch(tiles_y * tiles_x)
    bias = program.no_bias(x.dtype) if bias is None else bias
    for n in range(x.shape[0]):
        v = _planes("winograd_v", c_in * pitch, x.dtype)
        m = _planes("winograd_m", c_out * pitch, x.dtype)
        def inputs(lo, hi):
            plane = program.scratch("plane", (2 * tiles_y + 2, 2 * tiles_x + 2),
                                  x.dtype)
            _winograd_input(x[n, lo:hi], lo, *top_left, tiles_y, tiles_x,
                            pitch, plane, v)
        parallel_for(c_in, inputs, grain=min_items(16 * pitch))
        def products(lo, hi):      # M_k = U_k @ V_k
            weight.multiply(range(lo, hi), v, m, pitch)
        parallel_for(16, products, grain=min_items(c_out * c_in * pitch,
                                                   GEMM_WORK))
        res = program.no_residual(x.dtype).reshape(0, 0, 0) if residual is None \
            else residual[n]

        def channels(lo, hi):
            wide = program.scratch("wide", (2, 2 * tiles_x), x.dtype)
            _winograd_output(m, lo, bias[lo:hi] if bias.size else bias,
                             res[lo:hi] if res.size else res, act, tiles_y,
                             tiles_x, pitch, y[n, lo:hi], wide)
            program.activate_heavy(y[n, lo:hi].reshape(hi - lo, -1), act)
        # (as the inputs: 16 values of M a tile, from 14x14 planes on split)
        parallel_for(c_out, channels, grain=min_items(16 * pitch))


# -- N-D convolutions (vol2col / col2vol) -------------------------------------------
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
                    j0, j1 = planes.valid_columns(offset, sw, width, w)
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
    return program.float_operands(*given) is not None \
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
    bias = None if bias is None else program.writable(bias)
    if rank < 3:
        lead = 2 - rank
        x4, w4 = _lift(x, 2), _lift(weight, 2)
        pads4 = tuple(v for p in ((0, 0),) * lead + tuple(pads) for v in p)
        y = fused_conv2d(program.writable(x4), None, program.writable(w4),
                                bias, program.ACT_NONE, "PAD", pads4,
                                (1,) * lead + tuple(stride),
                                (1,) * lead + tuple(dilation), group)
        return y.reshape(y.shape[:2] + y.shape[2 + lead:])
    out = win.output_hw(x.shape[2:], weight.shape[2:], stride, dilation, pads)
    y = np.empty((x.shape[0], weight.shape[0]) + out, x.dtype)
    _conv3d(program.writable(x), program.writable(weight), bias,
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
    bias = program.no_bias(x.dtype) if bias is None else bias
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
                        cols = program.scratch("vol2col", (c_group * taps,
                                                         (r1 - r0) * ow),
                                             x.dtype)
                        _tap_columns(cols, image, r0, r1, geometry, False)
                    blas.matmul(w, cols, dst[:, r0 * ow:r1 * ow])
                    if b_g.size:
                        program.epilogue(dst, b_g, program.no_residual(x.dtype),
                                       program.ACT_NONE, r0 * ow, r1 * ow)
            parallel_for(rows, output_rows, grain=min_items(
                step_out * c_group * taps * ow, GEMM_WORK))


def conv_transpose_fast(dout, weight, bias, pads, out_size, stride,
                        dilation, group):
    """:func:`conv_transpose_nd` (+ bias[c]) of rank 1 to 3 on the fast
    kernels; None when the operands do not fit (the caller's reference
    raises the error), or the steps are not positive (the scatter's column
    arithmetic, unchecked, would write outside y)."""
    rank = weight.ndim - 2
    c_in = weight.shape[0]
    c_result = weight.shape[1] * max(group, 1)
    if not _fast_operands(dout, weight, bias) or rank not in (1, 2, 3) \
            or min(stride) < 1 or min(dilation) < 1 \
            or dout.ndim != weight.ndim or group < 1 \
            or dout.shape[1] != c_in or c_in % group \
            or (bias is not None and bias.shape != (c_result,)) \
            or min(out_size) <= 0:
        return None
    y = np.empty(dout.shape[:1] + (c_result,) + tuple(out_size), dout.dtype)
    geometry = _geometry(pads, weight.shape[2:], stride, dilation,
                         dout.shape[2:])
    _conv_transpose3d(_lift(program.writable(dout), 3), _lift(weight, 3),
                      program.no_bias(dout.dtype) if bias is None
                      else program.writable(bias), geometry, group, _lift(y, 3))
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
                cols = program.scratch("col2vol", ((c1 - c0) * taps, pixels),
                                     y.dtype)
                blas.matmul(packed[g, first * taps:(first + c1 - c0) * taps],
                            d[g], cols)
                result = out[c0:c1]
                result[...] = 0
                _tap_columns(cols, result, 0, rows, geometry, True)
                if bias.size:
                    program.epilogue(result.reshape(c1 - c0, -1), bias[c0:c1],
                                   program.no_residual(y.dtype), program.ACT_NONE,
                                   0, result[0].size)
                c0 = c1
        parallel_for(group * c_group, channels, grain=min_items(
            taps * pixels * step_in, GEMM_WORK))


# -- the ops' kernels ----------------------------------------------------------------
def conv2d(x, weight, out_channel=None, kernel_size=None, mode=1,
           pad_mode="VALID", pad=(0, 0, 0, 0), stride=(1, 1),
           dilation=(1, 1), group=1, data_format="NCHW", pad_list=None):
    """Conv2D through :func:`fused_conv2d` (NCHW float32/float64; anything
    else, and every error, declines)."""
    require_tensors("Conv2D", x=x, weight=weight)
    if not _fast_conv_applies(x, weight, out_channel, kernel_size, group,
                              data_format):
        return None
    pads = pad_list if pad_mode == "PAD" and pad_list is not None else pad
    return fused_conv2d(x, None, program.writable(weight), None,
                        program.ACT_NONE, pad_mode, tuple(pads), tuple(stride),
                        tuple(dilation), group)


def _fast_conv_applies(x, weight, out_channel, kernel_size, group,
                       data_format) -> bool:
    if data_format != "NCHW" or program.float_operands(x, weight) is None:
        return False
    if x.ndim != 4 or weight.ndim != 4 or group < 1:
        return False
    c_out, c_group, kh, kw = weight.shape
    return (x.shape[1] == c_group * group and c_out % group == 0
            and kernel_size in (None, (kh, kw))
            and out_channel in (None, c_out))


def conv3d(x, weight, out_channel=None, kernel_size=None, mode=1,
           pad_mode="VALID", pad=(0, 0, 0, 0, 0, 0), stride=(1, 1, 1),
           dilation=(1, 1, 1), group=1, data_format="NCDHW", pad_list=None):
    """Conv3D as vol2col + GEMM; float16 and mixed dtypes decline."""
    pads = conv3d_pads(x, weight, out_channel, kernel_size, pad_mode, pad,
                       stride, dilation, data_format, pad_list)
    return conv_fast(x, weight, None, pads, stride, dilation, group)


def conv3d_transpose(x, filter, in_channel=None, out_channel=None,
                     kernel_size=None, mode=1, pad_mode="VALID",
                     pad=(0, 0, 0, 0, 0, 0), stride=(1, 1, 1),
                     dilation=(1, 1, 1), group=1, output_padding=(0, 0, 0),
                     data_format="NCDHW", pad_list=None, input_size=None):
    """Conv3DTranspose as GEMM + col2vol scatter; float16 and mixed dtypes
    decline."""
    pads, out_size = conv3d_transpose_layout(
        x, filter, in_channel, out_channel, pad_mode, pad, stride, dilation,
        group, output_padding, data_format, pad_list, input_size)
    return conv_transpose_fast(x, filter, None, pads, out_size, stride,
                               dilation, group)


def conv2d_backprop_input(out_backprop, filter, input_size, out_channel=None,
                          kernel_size=None, pad_mode="VALID",
                          pad=(0, 0, 0, 0), pad_list=None, mode=1,
                          stride=(1, 1), dilation=(1, 1), group=1,
                          data_format="NCHW"):
    """Conv2DBackpropInput as GEMM + col2vol scatter; float16 and mixed
    dtypes decline."""
    pads = backprop_input_pads(out_backprop, filter, input_size, out_channel,
                               pad_mode, pad, pad_list, stride, dilation,
                               group, data_format)
    return conv_transpose_fast(out_backprop, filter, None, pads,
                               tuple(input_size[2:]), stride, dilation, group)


def _torch_conv(input, weight, bias, stride, padding, dilation, groups,
                transposed, output_padding):
    """:func:`refinfer.ops._ref.conv.torch_conv` on the fast kernels
    (float32/float64 operands of one dtype, 1-D to 3-D; anything else
    declines): forward as Conv2D / vol2col + GEMM, transposed as GEMM +
    col2vol."""
    if not _fast_operands(input, weight, bias) or weight.ndim not in (3, 4, 5):
        return None
    x, stride, dilation, pads, out = torch_layout(
        input, weight, stride, padding, dilation, transposed, output_padding)
    if transposed:
        y = conv_transpose_fast(x, weight, bias, pads, out, stride, dilation,
                                int(groups))
    else:
        y = conv_fast(x, weight, bias, pads, stride, dilation, int(groups))
    if y is None:
        return None
    return y[0] if input.ndim == weight.ndim - 1 else y


def conv_ext(input, weight, bias=None, stride=(1,), padding=(0,),
             dilation=(1,), groups=1):
    """Conv1DExt / Conv2DExt / Conv3DExt: :func:`_torch_conv`."""
    return _torch_conv(input, weight, bias, stride, padding, dilation, groups,
                       False, 0)


def conv_transpose2d(input, weight, bias=None, stride=(1,), padding=(0,),
                     output_padding=(0,), groups=1, dilation=(1,)):
    """ConvTranspose2D: :func:`_torch_conv`, transposed."""
    return _torch_conv(input, weight, bias, stride, padding, dilation, groups,
                       True, output_padding)


def convolution(input, weight, bias=None, stride=(1,), padding=(0,),
                dilation=(1,), transposed=False, output_padding=(0,),
                groups=1):
    """Convolution: :func:`_torch_conv`."""
    return _torch_conv(input, weight, bias, stride, padding, dilation, groups,
                       transposed, output_padding)
