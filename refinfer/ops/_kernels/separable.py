"""The inverted residual block of MobileNetV2-style networks as one step
(``numba`` backend; the plan's fused block, passes/separable.py): a 1x1
expansion, a 3x3 depthwise convolution and a 1x1 projection, each with its
folded BatchNorm, bias and activation, the projection maybe with a residual
Add. The expansion may also be a network's stem, any convolution of few
inputs per output: the block then expands the stem's im2col matrix.

Run as three NCHW convolutions, the depthwise one is the slow part: its
planes are small (down to 7x7), and a plane at a time spends more on
padding, copying out and set-up than on arithmetic. Inside the block the
expanded activations are channel-last instead, at no cost: the expansion
computes x^T W_e^T, (pixels, C_e), rather than W_e x. The depthwise kernel
then runs across channels with no copies, in vectors of channels it keeps
in registers for a few pixels at a time, and the projection reads its
channel-last input in place, the output channels as the vectors' lanes,
each tile transposed in registers into the NCHW output
(packed.multiply_transposed; OpenBLAS's W_p d^T, of 16-320 rows, ran at
37-84 GFLOP/s on MobileNetV2's projections, this at 78-109, one thread,
Zen 4: the model took 0.85 of the time). Measured on one thread (AMD
EPYC, MobileNetV2's blocks, against the three convolutions): 0.66-1.00 of
the time, the depthwise kernel alone 2-6x faster on planes up to 28x28.
With more threads each takes pieces of a few output rows through all
three stages: one hand-off per block instead of three (MobileNetV2 on two
threads 10.6-10.7 -> 9.0-9.3 ms); on planes up to 14x14, a range of the
expanded channels instead (each thread reads its share of the weights,
which are most of what such a block reads). A piece is a few output rows
(PIECE_BYTES), so that its expanded activations stay in cache through the
three stages (16-96-24 at 112x112 / 2, one thread: 2.88 -> 1.84 ms); each
thread claims pieces one by one inside one GIL-free call of its kernel
(its products our own or ``blas.gemm``), the pool threads through its
entry point (threads.parallel_entry: no Python, so no wait for the GIL),
and one that starts late takes fewer. MobileNetV2 on two threads, against
a range of pieces each and a Python call a piece: level alone in the
machine, 0.69-0.81 of the time while another process's threads compete
for the cores (tools/bench_ab.py).
"""
from __future__ import annotations

import numpy as np

from llvmlite import ir
from numba import cfunc, types
from numba.core import cgutils
from numba.extending import intrinsic

from refinfer import frames, threads
from refinfer.jit import inlined, kernel
from refinfer.threads import GEMM_WORK, claim, current_threads, min_items

from . import blas, packed, program, vectors
from .constants import Holder
from .conv import columns, conv_geometry, im2col_rows, phases_shape


class InvertedResidual(Holder):
    """The packed constants of a block: the expansion's weight transposed,
    (C*kh*kw, C_e), as :meth:`piece_kernel` gives it (packed for
    packed.multiply_image where packed.enabled(), float32: the bias and
    activation in its tiles, MobileNetV2's expansions 0.61-0.88 of the
    time of OpenBLAS and a pass; else plain, a right operand OpenBLAS
    packs faster than a transposed view: 160 -> 960 on 7x7 0.89 of the
    time, 96 -> 576 on 14x14 0.95, larger planes level); the projection's
    likewise, packed as W_p^T in slivers of packed.VECTOR (``projected``,
    for packed.multiply_transposed) or plain (``project``, (C_p, C_e));
    ``depthwise`` (3, 3, C_e) channel-last, their biases (None: zeros) and
    ``program.ACT_*`` codes (light ones: ``program.activate_light``), the
    depthwise convolution's ``window`` (pad_mode, pads, stride) as Conv2D
    takes it, and the expansion's (pad_mode, pads, stride, dilation): a
    1x1 expansion by default, or a network's stem (passes/separable.py,
    STEM_DEPTH)."""

    POINTWISE = ("VALID", (0,) * 4, (1, 1), (1, 1))
    # Weight sharing may replace these before any run (the depthwise parts
    # are made from ``depthwise`` when first needed).
    SHARED = ("expand", "packed", "depthwise", "project", "projected")

    def __init__(self, expand, depthwise, project, biases, acts, window,
                 expansion=POINTWISE):
        if max(acts) >= program.FIRST_HEAVY:
            raise ValueError(f"an inverted residual block takes light "
                             f"activations only, not codes {acts}")
        if tuple(window[2]) not in ((1, 1), (2, 2)):
            raise ValueError(f"an inverted residual block's depthwise stride "
                             f"is 1 or 2, not {window[2]}")
        self.expanded, self.channels = expand.shape[:2]
        self.taps = expand.shape[2:]
        weight = expand.reshape(self.expanded, -1).T
        self.dtype, self.depth = weight.dtype, weight.shape[0]
        self.packed = packed.PackedRight(weight, packed.IMAGE_COLUMNS) \
            if packed.serves(weight.dtype) else None
        self.expand = None if self.packed else np.ascontiguousarray(weight)
        self.depthwise = np.ascontiguousarray(
            depthwise[:, 0].transpose(1, 2, 0))
        project = np.ascontiguousarray(project[:, :, 0, 0])
        self.outputs = len(project)
        self.projected = packed.PackedRight(project.T, packed.VECTOR) \
            if self.packed else None
        self.project = None if self.packed else project
        self.biases = tuple(np.zeros(len(weight), weight.dtype) if b is None
                            else b for b, weight in zip(biases, (
                                depthwise, depthwise, project)))
        self.acts, self.window = tuple(int(a) for a in acts), window
        self.expansion = expansion
        self._channel_ranges = {}

    def piece_kernel(self, pixels: int, outputs: int):
        """(piece kernel, expansion weight, projection weight) for a piece
        of ``pixels`` input and ``outputs`` output pixels:
        :func:`_packed_piece` and the packed slivers where the block has
        them and the piece has a tile's rows (packed.IMAGE_ROWS and
        packed.VECTOR), else :func:`_blas_piece` and the plain (C*kh*kw,
        C_e) and (C_p, C_e) weights, unpacked once where need be. (Two
        kernels, not a branch in one: Numba compiles both sides of a
        branch on an argument's type, and the side not taken cost seconds
        of the block's first compilation.)"""
        if self.packed is not None and pixels >= packed.IMAGE_ROWS \
                and outputs >= packed.VECTOR:
            return _packed_piece, self.packed.slivers, self.projected.slivers
        if self.expand is None:
            self.expand = self.packed.unpacked()
        if self.project is None:
            self.project = np.ascontiguousarray(self.projected.unpacked().T)
        return _blas_piece, self.expand, self.project

    def expanded_plane(self, hw):
        """(top, left, OH, OW) of the expansion on an H x W image."""
        pad_mode, pads, stride, dilation = self.expansion
        return conv_geometry((1, self.channels) + tuple(hw),
                             (self.expanded, self.channels) + self.taps,
                             pad_mode, pads, stride, dilation)

    def columns(self, image):
        """The expansion's im2col matrix of one image (C x H x W), shaped
        (C*kh*kw, OH, OW) (the thread's scratch), or the image itself for
        a 1x1 expansion."""
        geometry = self.geometry(image.shape[1:])
        cols, _ = columns(image, geometry, wide=False)
        return cols.reshape(-1, *geometry[-2:])

    def geometry(self, hw) -> tuple:
        """The expansion's geometry for conv.columns on an H x W image."""
        _, _, stride, dilation = self.expansion
        return self.taps + tuple(stride) + tuple(dilation) \
            + self.expanded_plane(hw)

    def channel_ranges(self, bounds: tuple) -> tuple:
        """(bounds as an array, the depthwise weights of the channel
        ranges between them, flat, the widest range) for ``bounds`` (0 = c0
        < c1 < ... = C_e), made once: each range's weights (3, 3, c1 - c0)
        from 9 * c0 on, contiguous, as the piece kernels read them
        (:func:`_range_weights`)."""
        ranges = self._channel_ranges.get(bounds)
        if ranges is None:
            ranges = self._channel_ranges.setdefault(bounds, (
                np.array(bounds), np.concatenate([
                    self.depthwise[:, :, c0:c1].ravel()
                    for c0, c1 in zip(bounds, bounds[1:])]),
                max(c1 - c0 for c0, c1 in zip(bounds, bounds[1:]))))
        return ranges


def inverted_residual(x, residual, block: InvertedResidual):
    """act_p(W_p dw(act_e(W_e x + b_e)) + b_p + residual), NCHW, float32 or
    float64; None when x or residual does not fit (the caller falls back).
    ``dw`` is act_d(depthwise3x3(.) + b_d). None as well where kernels
    cannot call BLAS (``blas.native_gemm``)."""
    expanded = block.expanded
    if not blas.native_gemm() or not isinstance(x, np.ndarray) \
            or x.dtype != block.dtype or x.ndim != 4 \
            or x.shape[1] != block.channels:
        return None
    x = program.writable(x)
    n, (h, w) = len(x), block.expanded_plane(x.shape[2:])[2:]
    pad_mode, pads, stride = block.window
    top, left, oh, ow = conv_geometry((n, expanded, h, w), (expanded, 1, 3, 3),
                                      pad_mode, pads, stride, (1, 1))
    y = np.empty((n, block.outputs, oh, ow), x.dtype)
    if residual is not None and (not isinstance(residual, np.ndarray)
                                 or residual.shape != y.shape
                                 or residual.dtype != y.dtype):
        return None
    residual = None if residual is None else program.writable(residual)
    split = _Channels if oh * ow <= CHANNEL_SPLIT_PIXELS else _Bands
    for b in range(n):
        split(block, x[b], y[b], None if residual is None else residual[b],
              top, left).run_all()
    return y


# Output pixels up to which a block is split across threads by its
# expanded channels rather than by bands of rows (see _Channels).
CHANNEL_SPLIT_PIXELS = 14 * 14


# Bytes of expanded activations a piece of a band computes at most: they
# stay in cache between the expansion, the depthwise convolution and the
# projection. Measured on MobileNetV2's blocks of 56x56 planes and more,
# ms at 1 / 2 threads, whole bands against pieces of 512 KB: 16-96-24 at
# 112x112 / 2 2.88 / 2.06 -> 1.84 / 1.39, 24-144-24 at 56x56 1.91 / 1.22 ->
# 1.50 / 1.08, 24-144-32 at 56x56 / 2 1.17 / 0.74 -> 0.84 / 0.65 (1 MB and
# 256 KB within 5 % of 512 KB; 128 KB and less slower); 28x28 blocks level.
PIECE_BYTES = 1 << 19


class _Bands:
    """One image of a block, computed in pieces of a few output rows
    (PIECE_BYTES), each through all three stages, so that its expanded
    activations stay in cache between them. The threads take the pieces
    one by one in their piece kernel (:meth:`InvertedResidual.piece_kernel`)
    as a native job (threads.parallel_entry): pool threads join it without
    the GIL, and one that starts late takes fewer pieces instead of being
    waited for."""

    def __init__(self, block, image, out, residual, top, left):
        self.block, self.top, self.left = block, top, left
        # A stem's im2col is made a piece at a time, in cache (MobileNetV2's
        # whole matrix, 1.35 MB, was written out and read back); a 1x1
        # expansion reads the image itself.
        self.banded = block.taps != (1, 1)
        self.image = image if self.banded else block.columns(image)
        self.geometry = block.geometry(image.shape[1:])
        self.plane = self.geometry[-2:]
        self.out = out.reshape(out.shape[0], -1)
        self.residual = program.no_residual(out.dtype) if residual is None \
            else residual.reshape(self.out.shape)
        expanded, width = block.expanded, self.plane[1]
        self.out_hw = out.shape[1:]
        self.stride = block.window[2][0]
        work_per_row = expanded * (self.stride * width * block.depth
                                   + out.shape[2] * (9 + out.shape[0]))
        rows = self.out_hw[0]
        most = max(1, PIECE_BYTES // (
            self.stride * width * expanded * out.itemsize))
        self.grain = min_items(work_per_row, GEMM_WORK)     # rows
        # a piece for each thread at least, where the work is worth it
        self.pieces = max(-(-rows // most),
                          min(current_threads(), rows // self.grain))
        self.piece_rows = -(-rows // self.pieces)   # all alike

    def run_all(self):
        """The pieces, claimed by the threads in their piece kernel's
        calls (threads.parallel_entry), each in its seat's scratch."""
        block, width, dtype = self.block, self.plane[1], self.out.dtype
        seats = threads.seats(self.pieces, self.grain // self.piece_rows)
        channels, spans = block.expanded, min(
            self.plane[0], (self.piece_rows - 1) * self.stride + 3)
        stem = _Stem.of(block, self.geometry, spans, seats) if self.banded \
            else _Stem.none(dtype, seats)
        lo, hi, first, last = _piece_rows(    # the last piece: the smallest
            self.pieces - 1, self.piece_rows, self.out_hw[0], self.stride,
            self.top, self.plane[0])
        piece, weight, project = block.piece_kernel(
            (last - first) * width, (hi - lo) * self.out_hw[1])
        _ENTRIES[piece].run(seats, _job(
            block, self.image, weight, project, self.top, self.left,
            (0, channels), self.piece_rows, self.out_hw, stem,
            self.geometry, spans * width, seats, self.out, self.residual,
            True, np.empty((0,) + self.out.shape, dtype)))


class _Stem:
    """A piece kernel's scratch for a stem's im2col rows (columns and
    phases: conv.column_rows), as large as a piece needs; none (empty) for
    a 1x1 expansion, which reads the image itself."""

    def __init__(self, columns, phases):
        self.columns, self.phases = columns, phases

    @classmethod
    def of(cls, block, geometry, rows: int, seats: int) -> "_Stem":
        phases, size = phases_shape(geometry, rows)
        return cls(program.scratch("band columns", (
                       seats, block.depth * rows * geometry[-1]), block.dtype),
                   program.scratch("plane", (seats, phases * size),
                                   block.dtype))

    @classmethod
    def none(cls, dtype, seats: int) -> "_Stem":
        empty = np.empty((seats, 0), dtype)
        return cls(empty, empty)


@inlined
def _piece_rows(k, piece_rows, rows, stride, top, height):
    """Output rows lo <= i < hi of piece k (of ``piece_rows`` rows, the last
    one fewer, of ``rows``) and the rows first <= r < last of the expanded
    plane (``height`` rows) that their 3x3 window (``stride``, ``top``
    padding) reads."""
    lo = k * piece_rows
    hi = min(rows, lo + piece_rows)
    first = max(0, lo * stride - top)
    last = min(height, (hi - 1) * stride - top + 3)
    return lo, hi, first, last


@inlined
def _piece_pixels(image, columns, phases, geometry, first, last):
    """The expansion's input for its output rows first <= r < last,
    (C*kh*kw, (last - first) * OW): the pixels of those rows of ``image``
    (C*kh*kw, OH, OW) when ``columns`` is empty, else the stem's im2col
    rows of ``image`` (C x H x W, of ``geometry``: conv.columns), made in
    the scratch ``columns`` and ``phases`` (1-D, large enough)."""
    if columns.size == 0:
        width = image.shape[2]
        return image.reshape(image.shape[0], -1)[:, first * width:last * width]
    kh, kw, sh, sw, dh, dw, top, left, _, ow = geometry
    depth, pixels = image.shape[0] * kh * kw, (last - first) * ow
    cols = columns[:depth * pixels].reshape(depth, pixels)
    count, size = phases_shape(geometry, last - first)
    im2col_rows(image, phases[:count * size].reshape(count, size), cols, top,
                left, kh, kw, sh, sw, dh, dw, ow, 0, depth, first, last)
    return cols


@inlined
def _next_piece(claims, bounds, piece_rows, rows, stride, top, height):
    """The next piece a thread claims (the row pieces of each channel
    range in turn): (channel range q, output rows lo..hi, expanded rows
    first..last), q -1 when none is left."""
    ranges = bounds.size - 1
    k = claim(claims)
    if k >= -(-rows // piece_rows) * ranges:
        return -1, 0, 0, 0, 0
    lo, hi, first, last = _piece_rows(k // ranges, piece_rows, rows, stride,
                                      top, height)
    return k % ranges, lo, hi, first, last


@inlined
def _range_weights(depthwise, bounds, q):
    """Channel range q's depthwise weights, (3, 3, c1 - c0), in
    ``depthwise`` (:meth:`InvertedResidual.channel_ranges`)."""
    c0, c1 = bounds[q], bounds[q + 1]
    return depthwise[9 * c0:9 * c1].reshape(3, 3, c1 - c0)


@inlined
def _piece_scratch(image, columns, phases, geometry, expanded, depthwise_out,
                   seat, first, last, lo, hi, width, c0, c1):
    """A piece's input pixels (:func:`_piece_pixels`) and, in its seat's
    scratch, room for its expanded rows (pixels, c1 - c0) and its
    depthwise rows (hi - lo, width, c1 - c0)."""
    pixels = _piece_pixels(image, columns[seat], phases[seat], geometry,
                           first, last)
    count, channels = pixels.shape[1], c1 - c0
    part = expanded[seat, :count * channels].reshape(count, channels)
    rows = depthwise_out[seat, :(hi - lo) * width * channels].reshape(
        hi - lo, width, channels)
    return pixels, part, rows


@kernel
def _packed_piece(image, weight, depthwise, project, biases, acts, stride,
                  top, left, bounds, piece_rows, rows, width, claims, height,
                  columns, phases, geometry, expanded, depthwise_out, out,
                  partials, residual, finish, seat):
    """The pieces of a block this thread claims (:func:`_next_piece`,
    :func:`_depthwise_rows`), whose expansion is act_e(x^T W_e^T + b_e)
    by the packed ``weight``, in one pass, and whose projection reads the
    channel-last rows in place, the packed ``project`` (W_p^T) on the
    right, its tiles transposed into the NCHW output (channel range q:
    ``out`` for the first, partials[q - 1] for the others) with the
    epilogue in registers (packed.multiply_transposed) if ``finish``."""
    q, lo, hi, first, last = _next_piece(claims, bounds, piece_rows, rows,
                                         stride, top, height)
    while q >= 0:
        c0, c1 = bounds[q], bounds[q + 1]
        pixels, part, band = _piece_scratch(
            image, columns, phases, geometry, expanded, depthwise_out, seat,
            first, last, lo, hi, width, c0, c1)
        packed.multiply_image(pixels, weight, c0, part, biases[0], acts[0])
        depthwise_rows = _depthwise_rows(
            geometry[-1], _range_weights(depthwise, bounds, q), biases, acts,
            stride, top, left, c0, c1, first, last, lo, hi, part, band)
        dst = out if q == 0 else partials[q - 1]
        kept = out.shape[0] if finish else 0    # the epilogue's rows
        packed.multiply_transposed(depthwise_rows, project, c0,
                                   dst[:, lo * width:hi * width],
                                   biases[2][:kept],
                                   residual[:kept, lo * width:hi * width],
                                   acts[2] if finish else program.ACT_NONE)
        q, lo, hi, first, last = _next_piece(claims, bounds, piece_rows, rows,
                                             stride, top, height)


@kernel
def _blas_piece(image, weight, depthwise, project, biases, acts, stride,
                top, left, bounds, piece_rows, rows, width, claims, height,
                columns, phases, geometry, expanded, depthwise_out, out,
                partials, residual, finish, seat):
    """The pieces of a block this thread claims (:func:`_next_piece`,
    :func:`_depthwise_rows`), whose expansion is x^T W_e^T by BLAS
    (``weight`` plain, (C*kh*kw, C_e)), then a pass for the bias and
    activation, and whose projection is W_p rows^T by BLAS (``project``
    plain, (C_p, C_e); channel range q: into ``out`` for the first,
    partials[q - 1] for the others), then a pass for the epilogue if
    ``finish``."""
    q, lo, hi, first, last = _next_piece(claims, bounds, piece_rows, rows,
                                         stride, top, height)
    while q >= 0:
        c0, c1 = bounds[q], bounds[q + 1]
        pixels, part, band = _piece_scratch(
            image, columns, phases, geometry, expanded, depthwise_out, seat,
            first, last, lo, hi, width, c0, c1)
        blas.gemm(True, pixels, False, weight[:, c0:c1], part)
        bias_activation_rows(part, biases[0][c0:c1], acts[0])
        depthwise_rows = _depthwise_rows(
            geometry[-1], _range_weights(depthwise, bounds, q), biases, acts,
            stride, top, left, c0, c1, first, last, lo, hi, part, band)
        dst = out if q == 0 else partials[q - 1]
        blas.gemm(False, project[:, c0:c1], True, depthwise_rows,
                  dst[:, lo * width:hi * width])
        if finish:
            program.epilogue(out, biases[2], residual, acts[2], lo * width,
                             hi * width)
        q, lo, hi, first, last = _next_piece(claims, bounds, piece_rows, rows,
                                             stride, top, height)


def _packed_entry(kind):
    """:func:`_packed_piece`'s entry point for arguments of ``kind``."""
    @cfunc(frames.ENTRY, cache=True)
    def entry(frame, seat):
        _packed_piece(*frames.load(frame, kind), seat)
    return entry


def _blas_entry(kind):
    """:func:`_blas_piece`'s entry point for arguments of ``kind``."""
    @cfunc(frames.ENTRY, cache=True)
    def entry(frame, seat):
        _blas_piece(*frames.load(frame, kind), seat)
    return entry


# the piece kernels' entry points, for threads.parallel_entry
_ENTRIES = {_packed_piece: frames.Entries(_packed_entry),
            _blas_piece: frames.Entries(_blas_entry)}


@inlined
def _depthwise_rows(width, depthwise, biases, acts, stride, top, left, c0, c1,
                    first, last, lo, hi, expanded, depthwise_out):
    """The middle of a piece of a block, its expanded channels c0 <= c <
    c1 for output rows lo <= i < hi: the input rows first <= r < last (the
    piece's and the halo its 3x3 window adds), ``width`` pixels each, are
    in ``expanded`` (this thread's), channel-last; their depthwise
    convolution (``depthwise``: those channels' weights) goes to the first
    hi - lo rows of depthwise_out (this thread's: (at least hi - lo, OW,
    c1 - c0)), and those rows are returned as ((hi - lo) * OW, c1 - c0).
    The piece kernel then projects them into out (C_p, OH*OW), those rows'
    pixels, with the projection's bias, residual and activation if
    ``finish`` (else the bare partial product of these channels)."""
    # output row lo + i reads the band's row (lo + i) * stride - band_top
    band_top = top + first - lo * stride
    depthwise3x3_nhwc(expanded.reshape(last - first, width, c1 - c0),
                      depthwise, biases[1][c0:c1], depthwise_out, stride,
                      band_top, left, acts[1], 0, hi - lo)
    ow = depthwise_out.shape[1]
    return depthwise_out[:hi - lo].reshape((hi - lo) * ow, c1 - c0)


class _Channels:
    """One image of a block, computable in ranges of its expanded channels
    (a piece each, in the threads' piece kernel calls): each range is
    expanded, convolved and projected on its own, and the projections
    (partial sums over the channels) are added at the end. For small
    planes, where the
    weights are most of what a block reads: bands of rows would each read
    all of them (and expand their halo rows twice), ranges of channels read
    their share."""

    STEP = packed.IMAGE_COLUMNS  # channels: whole slivers, whole SIMD vectors

    def __init__(self, block, image, out, residual, top, left):
        self.block, self.top, self.left = block, top, left
        self.image = block.columns(image)
        self.geometry = block.geometry(image.shape[1:])
        self.shape = out.shape[1:]
        self.out = out.reshape(out.shape[0], -1)
        self.residual = program.no_residual(out.dtype) if residual is None \
            else residual.reshape(self.out.shape)

    def run_all(self):
        """The ranges, claimed by the threads in their piece kernel's
        calls (threads.parallel_entry); range k's projection goes to
        partial k - 1 (the first range's to the output), so that each
        range's sum is the same whichever thread took it, and the partial
        sums are added in order at the end."""
        block, pixels, dtype = self.block, self.out.shape[1], self.out.dtype
        channels, expanded = block.depth, block.expanded
        per_step = self.STEP * (self.image[0].size * channels
                                + pixels * (9 + self.out.shape[0]))
        steps = -(-expanded // self.STEP)
        ranges = threads.seats(steps, min_items(per_step, GEMM_WORK))
        bounds = (0, expanded) if ranges == 1 else tuple(
            min(self.STEP * (steps * k // ranges), expanded)
            for k in range(ranges + 1))
        partials = np.empty((ranges - 1,) + self.out.shape, dtype)
        piece, weight, project = block.piece_kernel(self.image[0].size,
                                                    pixels)
        _ENTRIES[piece].run(ranges, _job(
            block, self.image, weight, project, self.top, self.left, bounds,
            self.shape[0], self.shape, _Stem.none(dtype, ranges),
            self.geometry, self.image[0].size, ranges, self.out,
            self.residual, False, partials))
        for partial in partials:
            self.out += partial
        program.epilogue(self.out, block.biases[2], self.residual,
                         block.acts[2], 0, pixels)


def _job(block, image, weight, project, top, left, bounds, piece_rows,
         out_hw, stem, geometry, pixels, seats, out, residual, finish,
         partials):
    """A piece kernel's arguments: pieces of ``piece_rows`` output rows
    by the channel ranges between ``bounds`` (a tuple), ``pixels``
    expanded pixels at most a piece, scratch for ``seats`` threads (the
    caller's)."""
    dtype = out.dtype
    bounds, parts, widest = block.channel_ranges(bounds)
    expanded = program.scratch("expanded", (seats, pixels * widest), dtype)
    depthwise = program.scratch("depthwise", (
        seats, piece_rows * out_hw[1] * widest), dtype)
    return (image, weight, parts, project, block.biases, block.acts,
            block.window[2][0], top, left, bounds, piece_rows, out_hw[0],
            out_hw[1], np.zeros(1, np.int64), geometry[-2], stem.columns,
            stem.phases, geometry, expanded, depthwise, out, partials,
            residual, finish)


@inlined
def bias_activation_rows(y, bias, act):
    """In place: y[r] = act(y[r] + bias) for every row of y (bias along the
    last axis; y contiguous, activated as one span: rows may be short),
    act light (:func:`program.activate_light`)."""
    for r in range(y.shape[0]):
        for k in range(y.shape[1]):
            y[r, k] += bias[k]
    program.activate_light(y.reshape(1, y.size), 0, 0, y.size, act)


@inlined
def depthwise3x3_nhwc(x, w, bias, y, stride, top, left, act, lo, hi):
    """Channel-last depthwise 3x3 for output rows lo <= i < hi:
    y[i, j, c] = act(bias[c] + sum_{p,q} w[p, q, c] *
    x[i*stride + p - top, j*stride + q - left, c]), taps outside x being
    zeros (padding); x (H, W, C), w (3, 3, C), bias (C,), y (OH, OW, C),
    all contiguous; stride 1 or 2. Where the window is inside x, whole
    vectors of channels go through :func:`_depthwise_pixels`; the rest
    (border pixels, the channels after the last whole vector) through
    :func:`_border`. act: light ones only (:func:`program.activate_light`).
    """
    h, width, channels = x.shape
    ow = y.shape[1]
    flat = y.reshape(y.shape[0], ow * channels)
    vectored = channels - channels % (vectors.VECTOR_BYTES // x.itemsize)
    # output columns whose window is inside the image's width
    inside_lo = min(ow, -(-left // stride))
    inside_hi = max(inside_lo, min(ow, (width - 3 + left) // stride + 1))
    for i in range(lo, hi):
        r = i * stride - top
        a, b = (inside_lo, inside_hi) if 0 <= r and r + 2 < h else (ow, ow)
        _depthwise_pixels(x, (r * width + a * stride - left) * channels,
                          stride, width * channels, w, bias, y,
                          (i * ow + a) * channels, b - a, act)
        for j in range(ow):
            k0 = vectored if a <= j < b else 0
            if k0 < channels:
                _border(x, w, bias, y, i, j, r, j * stride - left, k0)
                program.activate_light(flat, i, j * channels + k0,
                                       channels - k0, act)


@inlined
def _border(x, w, bias, y, i, j, r, c, k0):
    """y[i, j, k] for channels k >= k0 of depthwise3x3_nhwc, its window
    at (r, c) in x, taps outside x left out. (Indices are unsigned: Numba
    wraps indices that may be negative, which stops vectorisation.)"""
    h, width = x.shape[0], x.shape[1]
    out, base = y[i, j], np.uint64(k0)
    count = np.uint64(x.shape[2] - k0)
    for k in range(count):
        out[base + k] = bias[base + k]
    for p in range(max(0, -r), min(3, h - r)):
        for q in range(max(0, -c), min(3, width - c)):
            tap, src = w[p, q], x[r + p, c + q]
            for k in range(count):
                out[base + k] += tap[base + k] * src[base + k]


# Output pixels _depthwise_pixels computes together: each weight vector
# loaded is used for all of them, and with stride 1 or 2 neighbours share
# their inputs' loads.
PIXELS = 4


@intrinsic
def _depthwise_pixels(typingctx, x, x_at, stride, x_row, w, bias, y, y_at,
                      count, act):
    """``count`` output pixels of :func:`depthwise3x3_nhwc` whose windows
    are inside the image, their whole vectors of channels (C = bias's
    length, less C % the vector's lanes): y[y_at + j * C + k] = act(bias[k] +
    sum_{p,q} w[(3p + q) * C + k] * x[x_at + j * stride * C + p * x_row +
    q * C + k]), the nine taps fused multiply-adds in that order; stride 1
    or 2 (any other runs as 2). Written with explicit vectors
    (:mod:`vectors`): PIXELS pixels at a time, every weight vector loaded
    once for them and every input vector once for the neighbours that
    share it. Measured on MobileNetV2's stride-1 blocks, one thread, a
    piece's rows in cache (AMD EPYC): 16-19 GMAC/s, where Numba's loop
    over channels reached 5-10."""
    lanes = vectors.VECTOR_BYTES // (x.dtype.bitwidth // 8)
    vector = vectors.float_vector(x.dtype, lanes)

    def codegen(context, builder, signature, args):
        x, x_at, stride, x_row, w, bias, y, y_at, count, act = args
        arrays = signature.args
        channels = context.make_array(arrays[5])(context, builder, bias).shape
        channels = builder.extract_value(channels, 0)
        rows = _Window(builder, vector, vectors.data(context, builder, arrays[0], x, x_at),
                       x_row, channels,
                       vectors.data(context, builder, arrays[4], w, vectors.index(0)),
                       vectors.data(context, builder, arrays[5], bias, vectors.index(0)),
                       vectors.data(context, builder, arrays[6], y, y_at),
                       vectors.Activation(builder, vector, act))
        blocks = builder.udiv(channels, vectors.index(lanes))
        with builder.if_else(vectors.signed(builder, "==", stride, 1)) as (
                one, two):     # the stride a compiled constant: shared loads
            with one:
                rows.run(count, blocks, 1)
            with two:
                rows.run(count, blocks, 2)
        return context.get_dummy_value()

    signature = types.void(x, types.intp, types.intp, types.intp, w, bias, y,
                           types.intp, types.intp, types.intp)
    return signature, codegen


class _Window:
    """IR of :func:`_depthwise_pixels`' loops, given pointers to the first
    window's corner ``x``, the weights ``w`` and ``bias``, and the first
    output pixel ``y``; x_row and channels as it takes them."""

    def __init__(self, builder, vector, x, x_row, channels, w, bias, y,
                 activation):
        self.builder, self.vector, self.activation = builder, vector, activation
        self.x, self.x_row = x, x_row
        self.channels, self.w, self.bias, self.y = channels, w, bias, y
        self.align = 4 if isinstance(vector.element, ir.FloatType) else 8

    def run(self, count, blocks, stride):
        """All ``count`` pixels, PIXELS at a time."""
        builder, index = self.builder, vectors.index
        groups = builder.udiv(count, index(PIXELS))
        with cgutils.for_range(builder, groups) as group:
            self._pixels(builder.mul(group.index, index(PIXELS)), PIXELS,
                         blocks, stride)
        done = builder.mul(groups, index(PIXELS))
        with cgutils.for_range(builder, builder.sub(count, done)) as rest:
            self._pixels(builder.add(done, rest.index), 1, blocks, stride)

    def _pixels(self, first, n, blocks, stride):
        """Pixels first .. first + n - 1, a vector of channels at a time."""
        builder, index = self.builder, vectors.index
        fma = vectors.fma(builder, self.vector)
        with cgutils.for_range(builder, blocks) as block:
            k = builder.mul(block.index, index(self.vector.count))
            sums = [self._load(self.bias, k)] * n
            corner = builder.gep(self.x, [builder.add(builder.mul(
                first, builder.mul(self.channels, index(stride))), k)])
            for p in range(3):
                row = builder.gep(corner, [builder.mul(self.x_row, index(p))])
                loaded = {}
                for q in range(3):
                    weight = self._load(self.w, builder.add(
                        builder.mul(self.channels, index(3 * p + q)), k))
                    for u in range(n):
                        sums[u] = builder.call(fma, [weight, self._input(
                            row, loaded, u, q, stride), sums[u]])
            for u, value in enumerate(self.activation(sums)):
                pixel = builder.add(first, index(u))
                builder.store(value, vectors.vector_at(
                    builder, self.y, builder.add(builder.mul(pixel, self.channels), k),
                    self.vector), align=self.align)

    def _input(self, row, loaded, u, q, stride):
        """Pixel u's input at tap column q of a window row, loaded once
        per column (``loaded``)."""
        column = u * stride + q
        if column not in loaded:
            loaded[column] = self._load(row, self.builder.mul(
                self.channels, vectors.index(column)))
        return loaded[column]

    def _load(self, pointer, offset):
        return self.builder.load(vectors.vector_at(
            self.builder, pointer, offset, self.vector), align=self.align)
