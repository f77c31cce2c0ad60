"""Matrix products with the weight packed once: C = act(A @ B + bias +
residual), the epilogue applied to each tile while it is in registers;
float32. :func:`multiply` packs the weight on the left (a convolution's
W x, Winograd's 16 products u_k V_k: ops/_kernels/conv.py, 0.72-0.89 of
OpenBLAS's time on ResNet-50's 3x3 layers), :func:`multiply_image` and
:func:`multiply_rows` on the right: x^T W with the image x read in place
(an inverted residual block's channel-last expansion,
ops/_kernels/separable.py: MobileNetV2's, with their bias and ReLU6,
0.61-0.88 of the time of OpenBLAS followed by a pass over the result,
one thread, a piece's pixels; and a convolution's W x on a small output
plane, the output channels as the vectors' lanes, its channel-last
result transposed into the output with the epilogue:
:func:`channels_product`; a channel-last x read in place, each tile
transposed into the output in registers: :func:`multiply_transposed`, an
inverted residual block's projection), and x W with x's rows read in
place (a transformer's Dense and MatMul layers, ops/_kernels/gemm.py, their
weights stored only so: refinfer/stored.py; on an AMD EPYC with AVX-512,
one thread, BERT's shapes (128 rows by 768 x 768, 768 x 3072, 3072 x
768) took 0.80-0.95 of OpenBLAS's time, which packs the weight at each
call, and 0.93-1.10 of ONNX Runtime's, which packs it once too).

A convolution that adds a residual (ResNet's last 1x1 of each block)
multiplies its weight A (C_out x C_in*kh*kw) by the image's columns B with
it, on CPUs where :func:`enabled`. A BLAS call packs A again at every call
and leaves the epilogue a second pass over C and the residual in memory;
here A is packed at plan time and the residual is read once, into the
tiles. Measured single-threaded on the project's AMD EPYC (avx2, fma),
time against NumPy's OpenBLAS 0.3.31 followed by program.epilogue, caches
flushed between calls: with a residual, bias and ReLU 256x64x3136 0.84,
512x128x784 0.94, 1024x256x196 0.96, 64x64x3136 0.95. In ResNet-50, one
process, predicts alternated, its layers with a residual on 56x56 took
0.86-0.87 of their time, on 28x28 0.92-0.93, on 14x14 and 7x7 0.94-1.05
(their planes end in a partial tile: 16 columns computed for 4 or 1).
Without a residual the product alone is 0.82-0.94 of OpenBLAS's speed
(tools/bench_gemm.py): those convolutions stay with the BLAS. On an AMD
EPYC with AVX-512 (Zen 4: 512-bit operations in two halves) the 12 x 32
tile is level with OpenBLAS (0.88-1.18 on the benchmark's shapes):
ResNet-50 took 0.96-1.02 of the BLAS's time, MobileNetV2 0.86-0.95 (one
and two threads, two runs); on Intel's AVX-512 CPUs it is not yet
measured, and the BLAS (MKL where installed) keeps the products there.

Method (BLIS's packing, MLAS's loop order): A is packed into slivers of
TILE_ROWS rows, each stored depth-major (K x TILE_ROWS), zero rows
completing the last. At run time B is packed a panel at a time (at most
DEPTH_BLOCK rows by COLUMN_BLOCK columns) into slivers of TILE_COLUMNS
columns, depth-major, zero columns completing the last. The micro-kernel
:func:`_tile` multiplies one A sliver by one B sliver over the panel's
depth, its TILE_ROWS x TILE_COLUMNS result held in registers throughout
(TILES: on AVX2 12 vectors, per step two vector loads of B, six broadcasts
of A, twelve fused multiply-adds), then adds it to C or writes it, with the
epilogue after the last depth block; the last tile of a row of them, where
B's columns end inside it, reads and writes only those columns (masked
vector loads and stores). It is LLVM IR written here with
explicit vectors: Numba's loops over scalars do not keep such a tile in
registers (that needs LLVM's SLP vectoriser, which Numba leaves off). The
tiles are visited a row of them at a time across a STRIP of columns, so
that C and the residual are read and written in runs of STRIP floats:
visiting them down a column of tiles (BLIS's order) read the residual 64
bytes at a time from rows a page apart, slower than a second pass. In
:func:`multiply_image` the weight W is B, packed once as a panel, and an
A sliver is read from x in place (TILE_ROWS neighbouring pixels of each
channel); its tiles go a row at a time across a block of W's slivers that
stays in L2 (RIGHT_BLOCK).

A weight is read once per call and, the model's weights being larger than
the caches, from memory: the first row of tiles over a block waited for it
while the others found it in L2. So on AVX-512 (PREFETCHES) each tile,
one line per depth step, asks for a part of what the tiles after its own
block will read (:func:`_ahead`): the next block's slivers, spread over
this block's rows of tiles (:func:`multiply`: the next sliver of A,
spread over a row's tiles). ResNet-50's 7x7 layers alone with the weight
in memory took 0.89-0.93 of their time (4 MB: 1.05-1.07 ms against 1.17),
in L3 0.98; the models, one thread: ResNet-50 0.97, BERT-base 0.98,
GPT-2 0.97-0.99.
"""
from __future__ import annotations

import functools
import os

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from refinfer.cpu import cpu_field, cpu_flags
from refinfer.jit import inlined, kernel

from . import program, vectors
from .constants import Holder
from .vectors import broadcast, data, index, signed, vector_at, where

# The register tile (rows, columns, floats per vector) per instruction set:
# AVX2's 16 vector registers hold 12 accumulators (6 x 16), AVX-512's 32
# hold 24 (12 x 32, the shape of MLAS's AVX-512 kernel).
TILES = {"avx2": (6, 16, 8), "avx512": (12, 32, 16)}


def tile_name(setting: str, flags: frozenset) -> str:
    """The tile the kernels are compiled with: ``setting``
    (REFINFER_PACKED_TILE: a name in TILES, or empty for the CPU's own)
    and the CPU's flags. The setting is part of the kernels' cache folder
    (refinfer/process.py): the tile is a compiled constant."""
    if setting and setting not in TILES:
        raise ValueError(f"REFINFER_PACKED_TILE={setting!r}: expected one "
                         f"of {', '.join(TILES)}")
    return setting or ("avx512" if "avx512f" in flags else "avx2")


TILE_NAME = tile_name(os.environ.get("REFINFER_PACKED_TILE", ""), cpu_flags())
TILE_ROWS, TILE_COLUMNS, VECTOR = TILES[TILE_NAME]
# The tile of :func:`multiply_image` (the output channels as lanes, pixels
# read in place as its rows): on AVX-512 7 x 48, whose rows fill a 7x7
# plane (49 pixels) and 21 accumulators leave registers for its three B
# vectors (7 x 64 spilled: 2x slower). Zen 4, one thread, GFLOP/s against
# 12 x 32: 2048 x 512 x 49 113 against 84 (the 12 x 32 tile with the
# pixels as lanes fills 49 of 64), 960 x 160 x 49 115 / 94, 576 x 96 x
# 196 115 / 111, 144 x 24 x 3136 107 / 96, 256 x 64 x 3136 100 / 108.
IMAGE_TILES = {"avx2": (6, 16), "avx512": (7, 48)}
IMAGE_ROWS, IMAGE_COLUMNS = IMAGE_TILES[TILE_NAME]
DEPTH_BLOCK = 256       # an A sliver (6 or 12 KB) stays in L1 across a strip
STRIP = 256             # a strip of the B panel (256 KB) stays in L2
COLUMN_BLOCK = 4096     # columns of B per packed panel
RIGHT_BLOCK = 1 << 15   # floats of a packed right weight that stay in L2
STRIP_FLOATS = 1 << 15  # floats of x multiply_transposed reads per strip
LINE_FLOATS = 16        # floats in a cache line (64 bytes)
# Whether the tiles ask for the weight ahead (_ahead): on the AVX2 tile, of
# 12 multiply-adds a depth step, the prefetch's own instructions cost more
# than it saves (Zen 4 with that tile forced: BERT-base 1.018, MobileNetV2
# 1.018-1.027 of the time); on AVX-512's, of 24, it pays (module docstring).
PREFETCHES = TILE_NAME == "avx512"
CHOICES = ("auto", "packed", "blas")
_VECTOR = vectors.float_vector(types.float32, VECTOR)
PER_ROW = TILE_COLUMNS // VECTOR    # vectors in a row of a tile


def choose(setting: str, flags: frozenset, vendor: str) -> bool:
    """Whether weights are packed for this module's products (those of
    convolutions with a residual, and of inverted residual blocks'
    expansions): ``setting`` (REFINFER_CONV_GEMM), the CPU's flags and
    vendor. ``auto`` packs on CPUs with AVX2 and FMA but not on Intel's
    with AVX-512 (see the module's docstring); ``packed`` on any x86 CPU
    with AVX2 and FMA."""
    if setting not in CHOICES:
        raise ValueError(f"REFINFER_CONV_GEMM={setting!r}: expected one of "
                         f"{', '.join(CHOICES)}")
    capable = {"avx2", "fma"} <= flags
    if setting == "auto":
        return capable and not (vendor == "GenuineIntel" and "avx512f" in flags)
    return capable and setting == "packed"


@functools.cache
def enabled() -> bool:
    """:func:`choose` for this process (REFINFER_CONV_GEMM, read once)."""
    return choose(os.environ.get("REFINFER_CONV_GEMM", "auto"), cpu_flags(),
                  cpu_field("vendor_id"))


# From this many output pixels on, a plane takes the VECTOR x VECTOR tile
# transposed in registers (lanes_product); below, whichever of it and the
# 7 x 48 tile with a transpose (channels_product) computes fewer pixels in
# vain (in_vectors; below 64 they never tie): Zen 4, one thread, C_out x
# C_in x pixels, GFLOP/s lanes / channels: 512 x 512 x 16 113 / 82, x 32
# 115 / 100; x 49 (64 computed against 49) 86-90 / 106-111; 256 x 256 x
# 64 113 / 91.
LANES_MIN_PIXELS = 64


def channels_columns(dtype, pixels: int) -> int:
    """The sliver width of a one-group convolution's weight packed with
    the output channels as lanes (:class:`PackedChannels`) for output
    planes of ``pixels``: VECTOR (:func:`lanes_product`) from
    LANES_MIN_PIXELS pixels, and below where its tiles compute fewer
    pixels than IMAGE_ROWS' (16, 29-32 and 43-48 pixels), else
    IMAGE_COLUMNS (:func:`channels_product`) from IMAGE_ROWS pixels; 0
    (not so packed) for smaller planes, other dtypes, where packed weights
    do not serve and on the AVX2 tile. Zen 4, one thread, ResNet-50's
    layers against the better of the BLAS and our product with the pixels
    as lanes, hot: on 7x7 channels_product 0.75-0.82 of the time; from
    14x14 on lanes_product 0.77-0.93 without a residual to add, 0.95-0.99
    with one (level, caches flushed), the stem and the 3x3 stride-2
    convolutions (im2col) 0.85-0.92. With the AVX2 tile (8 lanes, 8
    accumulators) these took 1.02-1.29x and 1.2-1.9x."""
    if not serves(dtype) or TILE_NAME != "avx512" or pixels < IMAGE_ROWS:
        return 0
    return VECTOR if in_vectors(pixels) else IMAGE_COLUMNS


def in_vectors(pixels: int) -> bool:
    """Whether a product with the channels as lanes over ``pixels`` output
    pixels takes the VECTOR x VECTOR tile (:func:`channels_columns`)."""
    whole = -(-pixels // VECTOR) * VECTOR <= -(-pixels // IMAGE_ROWS) * IMAGE_ROWS
    return pixels >= LANES_MIN_PIXELS or pixels >= VECTOR and whole


def fewest_pixels(columns: int) -> int:
    """The fewest output pixels a product with the channels as lanes in
    slivers of ``columns`` takes (its tile's rows)."""
    return VECTOR if columns == VECTOR else IMAGE_ROWS


def serves(dtype) -> bool:
    """Whether a weight of ``dtype`` is packed for this module's products:
    float32, where :func:`enabled`."""
    return np.dtype(dtype) == np.float32 and enabled()


class PackedWeight(Holder):
    """A float32 weight (C_out, ...) as a matrix of C_out rows, packed for
    :func:`multiply`: ``slivers`` (ceil(C_out / TILE_ROWS), depth,
    TILE_ROWS) flattened. ``shape`` is the weight's."""

    dtype = np.dtype(np.float32)
    SHARED = ("slivers",)

    def __init__(self, weight: np.ndarray):
        """``weight`` of any float dtype, rounded to float32 as it is
        packed (no other copy is made)."""
        self.shape = weight.shape
        matrix = weight.reshape(weight.shape[0], -1)
        rows, self.depth = matrix.shape
        whole = rows // TILE_ROWS
        slivers = np.zeros((-(-rows // TILE_ROWS), self.depth, TILE_ROWS),
                           np.float32)
        slivers[:whole] = matrix[:whole * TILE_ROWS].reshape(
            whole, TILE_ROWS, self.depth).transpose(0, 2, 1)
        slivers[whole:, :, :rows % TILE_ROWS] = matrix[whole * TILE_ROWS:].T
        self.slivers = slivers.reshape(-1)

    def unpacked(self) -> np.ndarray:
        """The weight, as it was given, in float32."""
        count = self.slivers.size // (self.depth * TILE_ROWS)
        matrix = self.slivers.reshape(count, self.depth, TILE_ROWS)
        return matrix.transpose(0, 2, 1).reshape(-1, self.depth)[
            :self.shape[0]].reshape(self.shape)


class PackedRight(Holder):
    """A float32 weight W (K, N) that multiplies from the right (x^T W:
    pixels by output channels), packed for :func:`multiply_image`:
    ``slivers`` (ceil(N / TILE_COLUMNS), K, TILE_COLUMNS) flattened, the
    layout a panel of B has in :func:`multiply`, zero columns completing
    the last."""

    dtype = np.dtype(np.float32)
    SHARED = ("slivers",)

    def __init__(self, weight: np.ndarray, columns: int = TILE_COLUMNS):
        """``weight`` (K, N) of any float dtype, rounded to float32, in
        slivers of ``columns`` (IMAGE_COLUMNS for :func:`multiply_image`)."""
        self.shape, self.columns = weight.shape, columns
        self.depth, width = weight.shape
        count = -(-width // columns)
        slivers = np.zeros((count, self.depth, columns), np.float32)
        for s in range(count):
            part = weight[:, s * columns:(s + 1) * columns]
            slivers[s, :, :part.shape[1]] = part
        self.slivers = slivers.reshape(-1)

    @classmethod
    def of(cls, slivers: np.ndarray, shape: tuple) -> "PackedRight":
        """The packed weight of ``shape`` (K, N) whose ``slivers`` (of
        TILE_COLUMNS) these are (another process's, in shared memory:
        refinfer/sharing.py)."""
        packed = cls.__new__(cls)
        packed.shape, packed.slivers = tuple(shape), slivers
        packed.depth, packed.columns = packed.shape[0], TILE_COLUMNS
        return packed

    def matrix(self) -> np.ndarray:
        """The slivers as (count, K, columns)."""
        count = self.slivers.size // (self.depth * self.columns)
        return self.slivers.reshape(count, self.depth, self.columns)

    def unpacked(self) -> np.ndarray:
        """The weight, as it was given, in float32 (contiguous)."""
        return np.ascontiguousarray(self.matrix().transpose(1, 0, 2).reshape(
            self.depth, -1)[:, :self.shape[1]])


class PackedChannels(PackedRight):
    """A convolution's float32 weight W (C_out, C_in, kh, kw) packed as
    W^T (C_in*kh*kw, C_out) for a product whose vectors' lanes are the
    output channels: in slivers of IMAGE_COLUMNS for
    :func:`channels_product`, of VECTOR for :func:`lanes_product`
    (:func:`channels_columns`). ``shape`` is the weight's."""

    def __init__(self, weight: np.ndarray, columns: int = IMAGE_COLUMNS):
        super().__init__(weight.reshape(weight.shape[0], -1).T, columns)
        self.shape = weight.shape

    @property
    def min_pixels(self) -> int:
        """The fewest output pixels its product takes (a tile's rows)."""
        return fewest_pixels(self.columns)

    def unpacked(self) -> np.ndarray:
        return np.ascontiguousarray(self.matrix().transpose(0, 2, 1).reshape(
            -1, self.depth)[:self.shape[0]]).reshape(self.shape)


NO_EPILOGUE = -1    # _tile's act where the depth block is not the last


def _tile_of(tile_rows: int, per_row: int):
    """The micro-kernel of a tile of ``tile_rows`` x ``per_row`` vectors."""
    @intrinsic
    def tile(typingctx, depth, a, a_off, a_step, a_row, b, b_off, c, c_off,
             ldc, accumulate, rows, cols, bias, bias_off, along, residual,
             r_off, ldr, act, weight, ahead, lines):
        return _tile_codegen(tile_rows, per_row, a, a_row, b, c, bias,
                             residual, weight)
    return tile


def _tile_codegen(shape_rows, per_row, a, a_row, b, c, bias, residual,
                  weight):
    """The micro-kernel: C[:rows, :cols] (+)= the A sliver at a[a_off:]
    (element (i, p) at a[a_off + p * a_step + i * a_row]: a_step the
    tile's rows and a_row None (1, a compiled constant) where A is packed,
    a_step 1 and a_row the row pitch where A's rows are read in place,
    rows past ``rows`` then reading the last real one) times the B sliver
    at b[b_off:], over ``depth``. C starts at c's element c_off, rows ldc
    apart; the product is added to C where ``accumulate`` is not 0, else
    written. Unless ``act`` is NO_EPILOGUE the tile then gets, in
    registers, the epilogue act(C + bias + residual[r_off + i * ldr + j]),
    act light (program.ACT_*; a heavy one is left out), the bias where
    bias_off >= 0 (bias[bias_off + i], or bias[bias_off + j] where
    ``along`` is not 0: along the columns), the residual where ldr >= 0.
    The whole tile is computed; only
    its first ``rows`` rows and ``cols`` columns are read and written
    (masked where cols is less than the tile's columns). Each stage of
    the epilogue is one branch for the whole tile: a branch per vector
    made the epilogue cost as much as the product on shallow tiles (depth
    16-32), and compile time follows the branches. Meanwhile the tile asks
    for ``lines`` cache lines of ``weight`` from its element ``ahead`` on,
    one a depth step (:func:`_products`). (The intrinsic's arguments:
    :func:`_tile_of`.)"""
    def codegen(context, builder, signature, args):
        (depth, a, a_off, a_step, a_row, b, b_off, c, c_off, ldc, accumulate,
         rows, cols, bias, bias_off, along, residual, r_off, ldr, act, weight,
         ahead, lines) = args
        types_ = signature.args
        tile_rows = _Rows(builder, rows, shape_rows, per_row)
        in_place = not isinstance(types_[4], types.NoneType)
        sums = _products(builder, depth,
                         data(context, builder, types_[1], a, a_off), a_step,
                         data(context, builder, types_[5], b, b_off),
                         shape_rows, per_row, a_row if in_place else None,
                         ahead=(data(context, builder, types_[20], weight,
                                     ahead), lines),
                         at=tile_rows.at if in_place else None)
        final = signed(builder, ">=", act, NO_EPILOGUE + 1)
        columns = _Columns(builder, cols, per_row)
        targets = tile_rows.pointers(data(context, builder, types_[7], c, c_off), ldc)
        values = where(builder, signed(builder, "!=", accumulate, 0),
                       lambda vs: _add(builder, vs, columns.load(targets)), sums)
        biased = builder.and_(final, signed(builder, ">=", bias_off, 0))
        along = signed(builder, "!=", along, 0)
        bias = data(context, builder, types_[13], bias, bias_off)
        values = where(builder, builder.and_(biased, builder.not_(along)),
                       lambda vs: _add(builder, vs, tile_rows.broadcasts(bias)), values)
        values = where(builder, builder.and_(biased, along),
                       lambda vs: _add(builder, vs, columns.load([bias]) * len(
                           tile_rows.at)),
                       values)
        residual = tile_rows.pointers(data(context, builder, types_[16], residual,
                                           r_off), ldr)
        values = where(builder, builder.and_(final, signed(builder, ">=", ldr, 0)),
                       lambda vs: _add(builder, vs, columns.load(residual)), values)
        columns.store(vectors.Activation(builder, _VECTOR, act)(values), targets, rows)
        return context.get_dummy_value()

    signature = types.void(types.intp, a, types.intp, types.intp,
                           a_row, b, types.intp, c, types.intp,
                           types.intp, types.intp, types.intp, types.intp,
                           bias, types.intp, types.intp, residual, types.intp,
                           types.intp, types.intp, weight, types.intp,
                           types.intp)
    return signature, codegen


_tile = _tile_of(TILE_ROWS, PER_ROW)
_image_tile = _tile_of(IMAGE_ROWS, IMAGE_COLUMNS // VECTOR)
# A last row of tiles of this many rows or fewer is computed by a tile of
# TAIL_ROWS rows, which reads A as the full tile does: a transformer's 128
# tokens are 10 tiles of 12 and 8 rows (1.42 ms a 128 x 768 x 768 product,
# as long as 132 rows, where 120 take 1.30).
TAIL_ROWS = TILE_ROWS * 2 // 3
_tail_tile = _tile_of(TAIL_ROWS, PER_ROW)


@inlined
def _rows_tile(depth, a, a_off, a_step, a_row, b, b_off, c, c_off, ldc,
               accumulate, rows, cols, bias, bias_off, along, residual, r_off,
               ldr, act, weight, ahead, lines):
    """The tile (:func:`_tile_codegen`'s arguments) of TILE_ROWS rows, or
    of TAIL_ROWS for ``rows`` that fit those."""
    if rows <= TAIL_ROWS:
        _tail_tile(depth, a, a_off, a_step, a_row, b, b_off, c, c_off, ldc,
                   accumulate, rows, cols, bias, bias_off, along, residual,
                   r_off, ldr, act, weight, ahead, lines)
    else:
        _tile(depth, a, a_off, a_step, a_row, b, b_off, c, c_off, ldc,
              accumulate, rows, cols, bias, bias_off, along, residual, r_off,
              ldr, act, weight, ahead, lines)


def _products(builder, depth, a, a_step, b, tile_rows, per_row, a_row=None,
              ahead=None, offsets=None, a_next=None, at=None):
    """The tile's sums, vector j of row i at i * per_row + j: sum over p <
    depth of a[p * a_step + at[i] * a_row] * b[p * per_row * VECTOR + j],
    in registers (allocas that LLVM promotes); a_row (an IR value) None: 1;
    ``at`` (IR values) None: at[i] = i.
    ``offsets`` (IR pointers to intp: depths, and rows or None) puts A's
    element (p, i) at a[depths[p] + rows[i]] instead, or at a[depths[p] +
    i * a_row] (a convolution's taps read where they lie:
    :func:`multiply_transposed`). ``ahead`` (pointer, lines; IR values):
    step p asks for the cache line min(p, lines - 1) lines after the
    pointer (into L2), so that a weight streaming from memory arrives
    while tiles compute (:func:`_ahead`); with ``a_next`` (an IR value),
    also for A's element a_next after its own (into L1): the next tile's
    pixels, read in place from rows far apart, where the hardware's
    prefetcher loses them (ResNet-50 and MobileNetV2, one and two
    threads, ten runs: 0.97-1.01 of the time, most near 0.985)."""
    fma = vectors.fma(builder, _VECTOR)
    sums = [[cgutils.alloca_once_value(builder, ir.Constant(
        _VECTOR, [0.0] * VECTOR)) for _ in range(per_row)] for _ in range(tile_rows)]
    if offsets is not None and offsets[1] is not None:
        rows = [builder.load(builder.gep(offsets[1], [index(i)]))
                for i in range(tile_rows)]
    else:
        at = at or [index(i) for i in range(tile_rows)]
        rows = at if a_row is None else [builder.mul(a_row, i) for i in at]
    with cgutils.for_range(builder, depth) as loop:
        if ahead is not None and PREFETCHES:
            _prefetch(builder, *ahead, loop.index)
        a_p = builder.gep(a, [builder.mul(loop.index, a_step) if offsets is None
                              else builder.load(builder.gep(offsets[0],
                                                            [loop.index]))])
        if a_next is not None and PREFETCHES:
            _ask_for(builder, builder.gep(a_p, [a_next]), L1_HINT)
        b_p = builder.gep(b, [builder.mul(loop.index, index(per_row * VECTOR))])
        bs = [builder.load(vector_at(builder, b_p, j * VECTOR, _VECTOR), align=4)
              for j in range(per_row)]
        for i in range(tile_rows):
            a_i = broadcast(builder, builder.load(builder.gep(a_p, [rows[i]])),
                            _VECTOR)
            for j in range(per_row):
                builder.store(builder.call(fma, [a_i, bs[j], builder.load(
                    sums[i][j])]), sums[i][j])
    return [builder.load(s) for row in sums for s in row]


def _prefetch(builder, pointer, lines, line):
    """IR asking for cache line min(line, lines - 1) after ``pointer``
    into L2 (:func:`_ask_for`)."""
    line = builder.select(builder.icmp_signed("<", line, lines), line,
                          builder.sub(lines, index(1)))
    _ask_for(builder, builder.gep(pointer, [builder.mul(line, index(
        LINE_FLOATS))]), L2_HINT)


L1_HINT, L2_HINT = 3, 2     # llvm.prefetch's locality: the cache to fill


def _ask_for(builder, pointer, locality):
    """IR asking for the cache line at ``pointer`` (llvm.prefetch of a
    read, into the cache ``locality`` names). Asked again, a line costs a
    load slot; a prefetch never faults."""
    byte = ir.IntType(8).as_pointer()
    i32 = ir.IntType(32)
    prefetch = cgutils.get_or_insert_function(builder.module, ir.FunctionType(
        ir.VoidType(), [byte, i32, i32, i32]), "llvm.prefetch.p0i8")
    builder.call(prefetch, [builder.bitcast(pointer, byte), ir.Constant(
        i32, 0), ir.Constant(i32, locality), ir.Constant(i32, 1)])


def _add(builder, values: list, others: list) -> list:
    return [builder.fadd(v, o) for v, o in zip(values, others)]


class _Rows:
    """A tile's rows, of which the first ``rows`` are real: the others are
    computed all the same, read the last real row's memory (their loads
    stay inside the arrays) and are never stored."""

    def __init__(self, builder, rows, tile_rows, per_row):
        self.builder, self.per_row = builder, per_row
        last = builder.sub(rows, index(1))
        self.at = [builder.select(signed(builder, ">", rows, i), index(i), last)
                   for i in range(tile_rows)]

    def pointers(self, start, step) -> list:
        """Each row's first element, rows ``step`` apart from ``start``."""
        return [self.builder.gep(start, [self.builder.mul(step, i)])
                for i in self.at]

    def broadcasts(self, start) -> list:
        """start[i] in every vector of row i (a bias along the rows)."""
        rows = [broadcast(self.builder, self.builder.load(self.builder.gep(
            start, [i])), _VECTOR) for i in self.at]
        return [row for row in rows for _ in range(self.per_row)]


class _Columns:
    """Loads and stores of a tile's vectors, masked to its first ``cols``
    columns where it has fewer than TILE_COLUMNS (plain ones otherwise: a
    masked store is several times slower); one branch for the tile."""

    def __init__(self, builder, cols, per_row):
        self.builder, self.per_row = builder, per_row
        self.full = signed(builder, "==", cols, per_row * VECTOR)
        lanes = ir.VectorType(ir.IntType(64), VECTOR)
        limit = broadcast(builder, cols, lanes)
        self.masks = [builder.icmp_signed("<", ir.Constant(lanes, [
            j * VECTOR + k for k in range(VECTOR)]), limit)
            for j in range(per_row)]
        pointer = _VECTOR.as_pointer()
        module, mask = builder.module, ir.VectorType(ir.IntType(1), VECTOR)
        i32 = ir.IntType(32)
        self.four = ir.Constant(i32, 4)
        self.masked_load = cgutils.get_or_insert_function(module, ir.FunctionType(
            _VECTOR, [pointer, i32, mask, _VECTOR]),
            f"llvm.masked.load.v{VECTOR}f32.p0v{VECTOR}f32")
        self.masked_store = _masked_store(module)

    def load(self, rows: list) -> list:
        """The vectors of rows starting at these pointers (0 beyond cols),
        row by row."""
        builder, zeros = self.builder, ir.Constant(_VECTOR, [0.0] * VECTOR)
        at = [(vector_at(builder, row, j * VECTOR, _VECTOR), j) for row in rows
              for j in range(self.per_row)]
        slots = [cgutils.alloca_once(builder, _VECTOR) for _ in at]
        with builder.if_else(self.full, likely=True) as (plain, masked):
            with plain:
                for slot, (address, _) in zip(slots, at):
                    builder.store(builder.load(address, align=4), slot)
            with masked:
                for slot, (address, j) in zip(slots, at):
                    builder.store(builder.call(self.masked_load, [
                        address, self.four, self.masks[j], zeros]), slot)
        return [builder.load(slot) for slot in slots]

    def store(self, values: list, rows: list, count):
        """The tile's vectors into its first ``count`` rows (pointers)."""
        builder = self.builder
        with builder.if_else(self.full, likely=True) as (plain, masked):
            for branch, store in ((plain, self._plain), (masked, self._masked)):
                with branch:
                    for i, row in enumerate(rows):
                        with builder.if_then(signed(builder, ">", count, i),
                                             likely=True):
                            for j in range(self.per_row):
                                store(values[i * self.per_row + j], vector_at(
                                    builder, row, j * VECTOR, _VECTOR), j)

    def _plain(self, value, address, j):
        self.builder.store(value, address, align=4)

    def _masked(self, value, address, j):
        self.builder.call(self.masked_store, [value, address, self.four, self.masks[j]])


def _masked_store(module):
    """LLVM's masked store of a vector of floats (value, pointer, alignment,
    mask)."""
    return cgutils.get_or_insert_function(module, ir.FunctionType(
        ir.VoidType(), [_VECTOR, _VECTOR.as_pointer(), ir.IntType(32),
                        ir.VectorType(ir.IntType(1), VECTOR)]),
        f"llvm.masked.store.v{VECTOR}f32.p0v{VECTOR}f32")


@intrinsic
def _copy_sliver_row(typingctx, dst, d, src, s):
    """dst[d:d + TILE_COLUMNS] = the TILE_COLUMNS floats at src's element s
    (vector loads and stores: a loop of scalars here did not vectorise)."""
    def codegen(context, builder, signature, args):
        dst, d, src, s = args
        pointer = vectors.float_vector(types.float32, TILE_COLUMNS).as_pointer()
        source = builder.bitcast(data(context, builder, signature.args[2],
                                       src, s), pointer)
        target = builder.bitcast(data(context, builder, signature.args[0],
                                       dst, d), pointer)
        builder.store(builder.load(source, align=4), target, align=4)
        return context.get_dummy_value()

    return types.void(dst, types.intp, src, types.intp), codegen


PACK_ROWS = 8   # B rows packed per pass over a panel's slivers


@inlined
def _pack_panel(b, pc, kc, jc, nc, panel):
    """panel = B[pc:pc + kc, jc:jc + nc] as slivers of TILE_COLUMNS
    columns, each depth-major (kc x TILE_COLUMNS), the last zero-padded.
    A few rows at a time across all slivers: one sliver's rows are a
    page apart in B, and walking them one sliver at a time missed the TLB."""
    ldb = b.strides[0] // b.itemsize
    full = nc // TILE_COLUMNS * TILE_COLUMNS
    for p0 in range(0, kc, PACK_ROWS):
        for s in range(0, full, TILE_COLUMNS):
            for p in range(p0, min(p0 + PACK_ROWS, kc)):
                _copy_sliver_row(panel, s * kc + p * TILE_COLUMNS, b,
                                 (pc + p) * ldb + jc + s)
    if full < nc:
        for p in range(kc):
            o = full * kc + p * TILE_COLUMNS
            for j in range(TILE_COLUMNS):
                panel[o + j] = b[pc + p, jc + full + j] if full + j < nc else 0


@inlined
def _ahead(start, size, part, parts):
    """(element, lines): part ``part`` of ``parts`` of the ``size`` floats
    of a weight from element ``start`` on, in whole cache lines: what a
    tile asks for ahead (:func:`_products`) while it computes, the parts
    spread over the tiles that run before those floats are read. A weight
    read once per call streams from memory; without this its first reads
    waited for it (ResNet-50's 7x7 layers, 4 MB weights: 1.17 ms with it
    cold in memory against 0.97 in L3)."""
    lines = -(-size // LINE_FLOATS)
    first = lines * part // parts
    return start + first * LINE_FLOATS, lines * (part + 1) // parts - first


@inlined
def _depth_step(depth):
    """Rows of the depth blocks: at most DEPTH_BLOCK, all alike."""
    return -(-depth // -(-depth // DEPTH_BLOCK))


@kernel
def multiply(a, depth, b, c, bias, residual, act, panel, rows, cols, onto):
    """c[r0:r1, c0:c1] = act(A[r0:r1] @ b[:, c0:c1] + bias[r0:r1, None] +
    residual[r0:r1, c0:c1]), (r0, r1) = rows, (c0, c1) = cols, r0 a
    multiple of TILE_ROWS; A is the packed ``a`` (:class:`PackedWeight`'s
    slivers), act light (a heavy one is left out). b (depth, N), c and
    residual (M, N) float32 with unit column steps, bias (M,); bias and
    residual may be empty. Where ``onto`` is not 0, c holds the residual
    (written in place: conv.fused_conv2d) and the product is added to it.
    ``panel`` (DEPTH_BLOCK * (COLUMN_BLOCK + TILE_COLUMNS)) is scratch.
    (Whole arrays and ranges, not views: the callers' views of a piece
    differ in layout, and each layout would be a compilation of its
    own.)"""
    r0, r1 = rows
    ldc = c.strides[0] // c.itemsize
    ldr = residual.strides[0] // residual.itemsize if residual.size else -1
    step = _depth_step(depth)
    for jc in range(cols[0], cols[1], COLUMN_BLOCK):
        nc = min(COLUMN_BLOCK, cols[1] - jc)
        for pc in range(0, depth, step):
            kc = min(step, depth - pc)
            final = act if pc + kc == depth else NO_EPILOGUE
            _pack_panel(b, pc, kc, jc, nc, panel)
            # a row of tiles at a time across a strip (module docstring)
            for jn in range(0, nc, STRIP):
                tiles = -(-min(STRIP, nc - jn) // TILE_COLUMNS)
                for row in range(r0, r1, TILE_ROWS):
                    a_off = (row // TILE_ROWS * depth + pc) * TILE_ROWS
                    # the tiles ask for the next row's sliver of A
                    following = kc * TILE_ROWS if row + TILE_ROWS < r1 else 0
                    for jr in range(jn, min(jn + STRIP, nc), TILE_COLUMNS):
                        ahead, lines = _ahead(
                            a_off + depth * TILE_ROWS, following,
                            (jr - jn) // TILE_COLUMNS, tiles)
                        _rows_tile(kc, a, a_off, TILE_ROWS, None, panel,
                                   jr * kc, c, row * ldc + jc + jr, ldc,
                                   pc + onto,
                                   min(TILE_ROWS, r1 - row),
                                   min(TILE_COLUMNS, nc - jr), bias,
                                   row if bias.size else -1, 0, residual,
                                   row * ldr + jc + jr, ldr, final, a,
                                   ahead, lines)


def panel_scratch() -> np.ndarray:
    """The calling thread's panel buffer for :func:`multiply`."""
    return program.scratch("packed_panel",
                           (DEPTH_BLOCK * (COLUMN_BLOCK + TILE_COLUMNS),),
                           np.float32)


L1_SETS = 64     # sets of 64-byte lines in L1 (32 and 48 KB, x86 cores alike)


@functools.cache
def rows_pitch(depth: int) -> int:
    """The row pitch (floats) at which :func:`multiply_rows` reads rows of
    ``depth`` floats: ``depth``, unless a tile's rows would then fall into
    fewer than 4 of L1's sets (each holding more than 3 of them: a pitch
    that is a multiple of 1024 floats puts all 12 in one), where they
    evict one another; then a line more. 128 x 3072 by 3072 x 768, one
    thread: 6.11 ms in place, 5.62 copied to the longer pitch (the copy
    0.04 ms)."""
    sets = {i * depth // LINE_FLOATS % L1_SETS for i in range(TILE_ROWS)}
    return depth if len(sets) >= 4 else depth + LINE_FLOATS


def pitched(x: np.ndarray) -> np.ndarray:
    """x (m, depth) C-contiguous float32 as :func:`multiply_rows` reads it:
    itself, or a copy at :func:`rows_pitch` (the calling thread's
    scratch)."""
    m, depth = x.shape
    pitch = rows_pitch(depth)
    if pitch == depth:
        return x
    rows = program.scratch("pitched_rows", (m, pitch), np.float32)
    np.copyto(rows[:, :depth], x)
    return rows


@kernel
def multiply_rows(x, depth, b, c, bias, act, cols):
    """c[:, c0:c1] = act(x[:, :depth] @ W[:, c0:c1] + bias[c0:c1]), (c0, c1)
    = cols, c0 a multiple of TILE_COLUMNS: x (m, pitch) C-contiguous, its
    rows read in place (:func:`rows_pitch`), W the packed ``b``
    (:class:`PackedRight`'s slivers), bias maybe empty, act light; c (m, N)
    with unit column steps. A depth block at a time across all of the
    columns, so that W is read once, x's block stays in L2 and C's tiles
    are revisited there (all depth blocks for a row of tiles at a time,
    :func:`multiply_image`'s order, re-read a block of W's columns, 1.5 MB
    at depth 3072, from L3 for every row of tiles: 0.85x as fast on BERT's
    3072-deep product). A tile reads a value a depth step from each of its
    rows, lines from as many streams: packing the rows into slivers first
    took 41 us of a 128 x 768 x 768 product's 1.39 ms, and 255 of 5.73 at
    depth 3072."""
    m, ldx = x.shape
    ldc = c.strides[0] // c.itemsize
    step = _depth_step(depth)
    block = max(1, RIGHT_BLOCK // (step * TILE_COLUMNS)) * TILE_COLUMNS
    for pc in range(0, depth, step):
        kc = min(step, depth - pc)
        final = act if pc + kc == depth else NO_EPILOGUE
        for j0 in range(cols[0], cols[1], block):
            # the tiles ask for the slivers of W the next block reads: the
            # next columns, or the first ones one depth block down
            last = j0 + block >= cols[1]
            shift, down = (cols[0] - j0, pc + step) if last else (block, pc)
            size = min(step, depth - down) * TILE_COLUMNS if down < depth \
                else 0
            for row in range(0, m, TILE_ROWS):
                for jr in range(j0, min(j0 + block, cols[1]), TILE_COLUMNS):
                    ahead, lines = _ahead(
                        (jr + shift) * depth + down * TILE_COLUMNS,
                        size if jr + shift < cols[1] else 0,
                        row // TILE_ROWS, -(-m // TILE_ROWS))
                    _rows_tile(kc, x, row * ldx + pc, 1, ldx, b,
                               jr * depth + pc * TILE_COLUMNS,
                               c, row * ldc + jr, ldc, pc,
                               min(TILE_ROWS, m - row),
                               min(TILE_COLUMNS, cols[1] - jr), bias,
                               jr if bias.size else -1, 1, c, 0, -1, final,
                               b, ahead, lines)


@inlined
def multiply_image(x, b, first, c, bias, act):
    """c = act(x^T @ W[:, first:first + N] + bias[first:first + N]), c (M,
    N), x (K, M) (an image's channels by its pixels, M >= IMAGE_ROWS),
    W the packed ``b`` (:class:`PackedRight`'s slivers of IMAGE_COLUMNS;
    ``first`` a multiple of IMAGE_COLUMNS), bias (the whole weight's)
    maybe empty, act light. x is read in place, a sliver of A being
    IMAGE_ROWS pixels of each of its rows; a last, partial tile of rows is
    computed as the last IMAGE_ROWS rows (those it shares with the tile
    before are written again, equal), never reading past x's end. Rows
    ``c.strides[0]`` apart, unit column steps."""
    depth, (m, n) = x.shape[0], c.shape
    if m < IMAGE_ROWS:   # its last tile would read before x's start
        raise ValueError("multiply_image: fewer pixels than a tile")
    ldx = x.strides[0] // x.itemsize
    ldc = c.strides[0] // c.itemsize
    step = _depth_step(depth)
    block = max(1, RIGHT_BLOCK // (step * IMAGE_COLUMNS)) * IMAGE_COLUMNS
    for j0 in range(0, n, block):
        for tile_row in range(0, m, IMAGE_ROWS):
            row = min(tile_row, m - IMAGE_ROWS)
            for pc in range(0, depth, step):
                kc = min(step, depth - pc)
                final = act if pc + kc == depth else NO_EPILOGUE
                for jr in range(j0, min(j0 + block, n), IMAGE_COLUMNS):
                    # (the slivers of W the next block reads, spread over
                    # this block's rows of tiles)
                    ahead, lines = _ahead(
                        (first + jr + block) * depth + pc * IMAGE_COLUMNS,
                        kc * IMAGE_COLUMNS if jr + block < n else 0,
                        tile_row // IMAGE_ROWS, -(-m // IMAGE_ROWS))
                    _image_tile(kc, x, pc * ldx + row, ldx, None, b,
                          (first + jr) * depth + pc * IMAGE_COLUMNS, c,
                          row * ldc + jr, ldc, pc, IMAGE_ROWS,
                          min(IMAGE_COLUMNS, n - jr), bias,
                          first + jr if bias.size else -1, 1, c, 0, -1, final,
                          b, ahead, lines)


@intrinsic
def _transposed_block(typingctx, src, s_off, lds, dst, d_off, ldd, bias,
                      b_off, residual, r_off, ldr, act):
    """dst's VECTOR x VECTOR block at d_off (rows ldd apart) = act(the
    block of src at s_off (rows lds apart), transposed, + bias[b_off + i]
    along its rows where b_off >= 0 + residual's block at r_off where ldr
    >= 0), act light. The residual may be dst: it is read first."""
    def codegen(context, builder, signature, args):
        src, s_off, lds = args[:3]
        start = data(context, builder, signature.args[0], src, s_off)
        rows = [builder.load(vector_at(builder, start, builder.mul(lds, index(
            i)), _VECTOR), align=4) for i in range(VECTOR)]
        _channels_epilogue(context, builder, signature.args[3:], args[3:],
                           vectors.transpose(builder, rows))
        return context.get_dummy_value()

    signature = types.void(src, types.intp, types.intp, dst, types.intp,
                           types.intp, bias, types.intp, residual, types.intp,
                           types.intp, types.intp)
    return signature, codegen


@intrinsic
def _transposed_tile(typingctx, depth, a, a_off, a_step, lda, b, b_off, dst,
                     d_off, ldd, bias, bias_off, residual, r_off, ldr, act,
                     count, skip, ahead, lines, depths, pixels):
    """The first ``count`` rows of dst's VECTOR x VECTOR block at d_off
    (rows ldd apart) = act((A B)^T + bias + residual), as
    :func:`_transposed_block` adds them, but for each row's first ``skip``
    columns (left as they are): A the VECTOR rows (pixels) of a from
    a_off, lda apart, their ``depth`` values a_step apart, B the sliver of
    VECTOR columns at b[b_off:] (depth-major), the product in registers
    throughout; meanwhile ``lines`` cache lines of b from its element
    ``ahead`` on are asked for (:func:`_products`). Where ``depths`` is
    an intp array (not None), A's element (p, i) is a[depths[p] + a_off +
    i * lda] instead, or, ``pixels`` an intp array too, a[depths[p] +
    pixels[a_off + i]] (a_step unused)."""
    def codegen(context, builder, signature, args):
        depth, a, a_off, a_step, lda, b, b_off = args[:7]
        types_ = signature.args
        indirect = not isinstance(types_[21], types.NoneType)
        offsets = None if isinstance(types_[20], types.NoneType) else (
            data(context, builder, types_[20], args[20], index(0)),
            data(context, builder, types_[21], args[21], a_off)
            if indirect else None)
        start = index(0) if indirect else a_off
        sums = _products(builder, depth,
                         data(context, builder, types_[1], a, start), a_step,
                         data(context, builder, types_[5], b, b_off), VECTOR,
                         1, lda, (data(context, builder, types_[5], b,
                                       args[18]), args[19]), offsets,
                         None if offsets else builder.mul(lda, index(VECTOR)))
        _channels_epilogue(context, builder, types_[7:16], args[7:16],
                           vectors.transpose(builder, sums), args[16],
                           args[17])
        return context.get_dummy_value()

    signature = types.void(types.intp, a, types.intp, types.intp, types.intp,
                           b, types.intp, dst, types.intp, types.intp, bias,
                           types.intp, residual, types.intp, types.intp,
                           types.intp, types.intp, types.intp, types.intp,
                           types.intp, depths, pixels)
    return signature, codegen


def _channels_epilogue(context, builder, types_, args, values, count=None,
                       skip=None):
    """Store VECTOR vectors, row i an output channel's pixels, with the
    epilogue: args (dst, d_off, ldd, bias, b_off, residual, r_off, ldr,
    act) as :func:`_transposed_block` takes them (types_ theirs); only the
    first ``count`` rows (an IR value; None: all) are stored, and of each
    only the lanes from ``skip`` on (an IR value; None: all; a masked
    store where it is not 0)."""
    dst, d_off, ldd, bias, b_off, residual, r_off, ldr, act = args

    def row(i):
        """Row i where it is stored, else row 0: a partial sliver's rows
        past ``count`` may lie past the bias's and the residual's ends."""
        if count is None:
            return index(i)
        return builder.select(signed(builder, ">", count, i), index(i),
                              index(0))
    biases = data(context, builder, types_[3], bias, b_off)
    values = where(builder, signed(builder, ">=", b_off, 0), lambda vs: [
        builder.fadd(v, broadcast(builder, builder.load(builder.gep(
            biases, [row(i)])), _VECTOR)) for i, v in enumerate(vs)],
        values)
    added = data(context, builder, types_[5], residual, r_off)
    values = where(builder, signed(builder, ">=", ldr, 0), lambda vs: [
        builder.fadd(v, builder.load(vector_at(builder, added, builder.mul(
            ldr, row(i)), _VECTOR), align=4)) for i, v in enumerate(vs)],
        values)
    rows = _RowStores(builder, vectors.Activation(builder, _VECTOR, act)(
        values), data(context, builder, types_[0], dst, d_off), ldd, count)
    if skip is None:
        rows.store()
        return
    with builder.if_else(signed(builder, "==", skip, 0), likely=True) as (
            whole, part):
        with whole:
            rows.store()
        with part:
            rows.store(skip)


class _RowStores:
    """IR storing a block's rows (vectors ``values``) at ``target``, rows
    ldd apart, the first ``count`` of them (an IR value; None: all)."""

    def __init__(self, builder, values, target, ldd, count):
        self.builder, self.values = builder, values
        self.target, self.ldd, self.count = target, ldd, count

    def store(self, skip=None):
        """Whole rows, or each from lane ``skip`` on (a masked store)."""
        builder = self.builder
        put = self._plain if skip is None else self._masked(skip)
        for i, v in enumerate(self.values):
            address = vector_at(builder, self.target, builder.mul(
                self.ldd, index(i)), _VECTOR)
            if self.count is None:
                put(v, address)
                continue
            with builder.if_then(signed(builder, ">", self.count, i),
                                 likely=True):
                put(v, address)

    def _plain(self, value, address):
        self.builder.store(value, address, align=4)

    def _masked(self, skip):
        """A store of the lanes from ``skip`` on."""
        builder = self.builder
        lanes = ir.VectorType(ir.IntType(64), VECTOR)
        mask = builder.icmp_signed(">=", ir.Constant(lanes, list(range(
            VECTOR))), broadcast(builder, skip, lanes))
        masked = _masked_store(builder.module)
        four = ir.Constant(ir.IntType(32), 4)
        return lambda value, address: builder.call(masked, [
            value, address, four, mask])


@inlined
def _transposed_out(product, dst, bias, residual, act, c0, c1):
    """dst[c0:c1] (C_out, pixels) = act(product[:, c0:c1]^T + bias +
    residual) of the channel-last product (pixels, C_out): VECTOR x
    VECTOR blocks transposed in registers (a loop of scalars took 1 ns an
    element, as long as the product's columns), the edges one by one.
    residual may be dst (each element is read before it is written)."""
    pixels, item = dst.shape[1], dst.itemsize
    lds, ldd = product.strides[0] // item, dst.strides[0] // item
    ldr = residual.strides[0] // item if residual.size else -1
    full_o = c0 + (c1 - c0) // VECTOR * VECTOR
    full_j = pixels // VECTOR * VECTOR
    for o0 in range(c0, full_o, VECTOR):
        for j0 in range(0, full_j, VECTOR):
            _transposed_block(product, j0 * lds + o0, lds, dst, o0 * ldd + j0,
                              ldd, bias, o0 if bias.size else -1, residual,
                              max(o0 * ldr + j0, 0), ldr, act)
    zero = dst.dtype.type(0)
    for o in range(c0, c1):
        first = full_j if o < full_o else 0
        b = bias[o] if bias.size else zero
        for j in range(first, pixels):
            value = product[j, o] + b
            dst[o, j] = value + residual[o, j] if residual.size else value
        program.activate_light(dst, o, first, pixels - first, act)


@inlined
def multiply_transposed(x, b, c0, dst, bias, residual, act, depths=None,
                        pixels=None):
    """dst (N, M) = act((x @ W[c0:c0 + K])^T + bias[:, None] + residual):
    x (M, K), M pixels of K channels (channel-last, or an NCHW image's
    columns transposed: any strides), W the packed ``b``
    (:class:`PackedRight`'s slivers of VECTOR columns; N, dst's rows, its
    columns) from its depth c0 on, bias (N,) and residual (N, M) maybe
    empty, act light; the residual may be dst. Each tile, VECTOR pixels by
    a sliver, is transposed in registers (:func:`_transposed_tile`): no
    channel-last product in memory. M >= VECTOR: a last, partial tile of
    pixels is computed as the last VECTOR pixels, those it shares with
    the tile before left as they are. Rows of dst and residual their
    strides apart, unit column steps. Where ``depths`` (K,) and ``pixels``
    (M,) are given (intp), x is contiguous (and 2-D: Numba types both
    branches below) and pixel i's value at depth p is its element
    depths[p] + pixels[i] from the first: a convolution's image read where
    it lies, each tap an offset (:class:`~ops._kernels.conv.TapPhases`)."""
    if pixels is None:
        (m, depth), item = x.shape, x.itemsize
        ldx, step = x.strides[0] // item, x.strides[1] // item
    else:
        m, depth, item = pixels.size, depths.size, x.itemsize
    n = dst.shape[0]
    if m < VECTOR:      # its last tile would read before x's start
        raise ValueError("multiply_transposed: fewer pixels than a vector")
    whole = b.size // (-(-n // VECTOR) * VECTOR)    # W's depth
    ldd = dst.strides[0] // item
    ldr = residual.strides[0] // item if residual.size else -1
    block = max(1, RIGHT_BLOCK // (depth * VECTOR)) * VECTOR
    strip = min(max(1, STRIP_FLOATS // (depth * VECTOR)), 32) * VECTOR
    for j0 in range(0, n, block):
        for p0 in range(0, m, strip):
            for j in range(j0, min(j0 + block, n), VECTOR):
                for tile_row in range(p0, min(p0 + strip, m), VECTOR):
                    row = min(tile_row, m - VECTOR)
                    # (the sliver of W the next block reads in its place)
                    ahead, lines = _ahead(
                        (j + block) * whole + c0 * VECTOR,
                        depth * VECTOR if j + block < n else 0,
                        tile_row // VECTOR, -(-m // VECTOR))
                    tile = (b, j * whole + c0 * VECTOR, dst, j * ldd + row,
                            ldd, bias, j if bias.size else -1, residual,
                            max(j * ldr + row, 0), ldr, act,
                            min(VECTOR, n - j), tile_row - row, ahead, lines)
                    if pixels is None:
                        _transposed_tile(depth, x, row * ldx, step, ldx,
                                         *tile, None, None)
                    elif pixels[row + VECTOR - 1] - pixels[row] == VECTOR - 1:
                        # (a tile inside an output row: its pixels in a run)
                        _transposed_tile(depth, x, pixels[row], 0, 1, *tile,
                                         depths, None)
                    else:
                        _transposed_tile(depth, x, row, 0, 1, *tile, depths,
                                         pixels)


@kernel
def lanes_product(x, x0, b, c0, c1, p0, p1, dst, bias, residual, act):
    """Output channels c0:c1 and pixels p0:p1 of a convolution whose
    weight W is the :class:`PackedChannels` slivers ``b`` of VECTOR: dst
    (C_out, pixels) = act(W x + bias + residual), x (depth, columns) its
    image's columns from pixel p0 on at column x0, read in place
    (:func:`multiply_transposed`; the residual may be dst). c0 a multiple
    of VECTOR, p1 - p0 >= VECTOR, act light."""
    multiply_transposed(x[:, x0:x0 + p1 - p0].T, _slivers(b, x.shape[0], c0, c1),
                        0, dst[c0:c1, p0:p1], bias[c0:c1 if bias.size else 0],
                        residual[c0:c1, p0:p1], act)


@kernel
def taps_product(x, depths, pixels, b, c0, c1, p0, p1, dst, bias, residual,
                 act):
    """:func:`lanes_product` of columns read where they lie: pixel q's
    value at depth p is the element depths[p] + pixels[q] from the start
    of x (contiguous, 2-D; an image's stride phases: conv.TapPhases)."""
    multiply_transposed(x, _slivers(b, depths.size, c0, c1), 0,
                        dst[c0:c1, p0:p1], bias[c0:c1 if bias.size else 0],
                        residual[c0:c1, p0:p1], act, depths, pixels[p0:p1])


@inlined
def _slivers(b, depth, c0, c1):
    """The slivers of VECTOR output channels c0:c1 of a packed weight of
    ``depth``."""
    return b[c0 * depth:(c0 + -(-(c1 - c0) // VECTOR) * VECTOR) * depth]


@kernel
def channels_product(x, b, c0, c1, product, dst, bias, residual, act):
    """Output channels c0:c1 of a convolution whose weight W is the
    :class:`PackedChannels` slivers ``b``: dst (C_out, pixels) = act(W x +
    bias + residual), x (depth, pixels) its image's columns. The product
    goes channel-last into ``product`` (pixels, C_out; scratch), x read in
    place by :func:`multiply_image`, then into dst with the epilogue
    (:func:`_transposed_out`; residual may be dst). c0 a multiple of
    IMAGE_COLUMNS, act light."""
    multiply_image(x, b, c0, product[:, c0:c1], bias[:0], program.ACT_NONE)
    _transposed_out(product, dst, bias, residual, act, c0, c1)
