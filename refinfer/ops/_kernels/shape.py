"""Numba kernels for the shape, creation and padding ops (``numba`` backend).

Three generic runners serve every op that moves data with index math, and
each op's kernel (at the end, with the op's signature) is a few lines
around one of them:

- :func:`gather`: y[i0, ..., i5] = x[m0[i0], ..., m5[i5]] with one index
  map per axis (an entry -1 gives the fill value). Padding in every mode,
  ReverseV2 and Tile are such maps: the ops only build the short maps,
  the kernel copies the rows, the last axis as runs (a memcpy, a reversed
  copy, a repeated value, a fill).
- :func:`permute`: an N-d transpose as a blocked copy: 8 x 8 blocks are
  transposed in vector registers (eight vector loads, 24 shuffles, eight
  vector stores), and the blocks go in bands that read whole cache lines
  of the source and stream through it.
- :func:`affine`: y[i] = a + i * b (Range, Arange, LinSpace).

Data moves as bit patterns: every dtype is viewed as the unsigned integer
of its size (float32 and int32 as uint32, bool as uint8...), so one
compiled signature per element size serves every dtype. Arrays have at
most six axes (fewer get leading axes of length 1); what the runners do
not handle (more axes, other dtypes, small arrays: see SMALL, invalid
arguments) returns None, and the registry runs the op's reference.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from refinfer.jit import kernel
from refinfer.threads import min_items, parallel_for

from .program import flat
from .._ref.pad import NUMPY_MODES, axis_pairs, index_map, mirror_pairs, torch_pad
from .._ref.sequence import evenly_spaced, progression

RANK = 6
BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
# Below this many elements NumPy's call costs less than a kernel's set-up
# (index maps, layout arrays, the dispatch: 10-30 us on the project's
# machine), and the runners return None (the op's reference runs) unless
# told otherwise: a gather saves less per element than a transpose.
SMALL = 1 << 18
SMALL_PERMUTE = 1 << 15
FILL = -1           # a run or map entry that takes the fill value


def _bits(dtype: np.dtype):
    """The unsigned type holding ``dtype``'s bits, or None."""
    return BITS.get(dtype.itemsize) if dtype.kind in "biuf" else None


def _c_strides(shape) -> list[int]:
    """Element strides of a C-contiguous array of ``shape``."""
    return [math.prod(shape[k + 1:]) for k in range(len(shape))]


# -- gather --------------------------------------------------------------------
# Index maps as the ops give them: an int array of source indices (-1 for
# the fill value), COPY (the source axis as it is) or an int n (n copies
# of the source axis's only element). COPY and repeated axes merge with
# neighbours alike into fewer, longer rows, and need no array.
COPY = None
SHAPE, STRIDE, KIND, OFFSET = range(4)      # the rows of a layout
MAPPED, COPIED, REPEATED = range(3)         # its kinds of axes
_NO_MAPS = np.zeros(0, np.int64)
# Output rows go by blocks of BLOCK_ROWS: their source offsets first, then
# each run of the last axis over the whole block (the per-run set-up, which
# costs as much as copying a short run, is paid once per block).
BLOCK_ROWS = 8


@kernel
def run_end(index, j):
    """Where the run that starts at index[j] ends: fill entries, or source
    indices that go up by 1, stay, or go down by 1."""
    if index[j] < 0:
        j += 1
        while j < index.size and index[j] < 0:
            j += 1
        return j
    step = index[j + 1] - index[j] if j + 1 < index.size and index[j + 1] >= 0 else 2
    j += 1
    while j < index.size and -1 <= step <= 1 and index[j] - index[j - 1] == step:
        j += 1
    return j


@kernel
def map_runs(index):
    """An index map as runs (see run_end): rows of (output start, length,
    source index or FILL, step)."""
    count, j = 0, 0
    while j < index.size:
        j = run_end(index, j)
        count += 1
    runs = np.empty((count, 4), np.int64)
    j = 0
    for k in range(count):
        start, j = j, run_end(index, j)
        first = index[start]
        step = index[start + 1] - first if j - start > 1 else 1
        runs[k] = (start, j - start, first, step) if first >= 0 else (start, j - start, FILL, 0)
    return runs


@kernel
def last_axis_runs(layout, maps):
    """The runs of the last axis (see map_runs; one run when it is copied
    or repeated whole). It is the source's own last axis: stride 1."""
    width, kind = layout[SHAPE, RANK - 1], layout[KIND, RANK - 1]
    if kind == MAPPED:
        offset = layout[OFFSET, RANK - 1]
        return map_runs(maps[offset:offset + width])
    runs = np.empty((1, 4), np.int64)
    runs[0] = (0, width, 0, 1 if kind == COPIED else 0)
    return runs


@kernel
def outer_maps(layout, maps):
    """The index maps of the first RANK - 1 axes as one array, the map of
    axis k at [starts[k]:]; returns (indices, starts)."""
    starts = np.zeros(RANK, np.int64)
    for axis in range(RANK - 1):
        starts[axis + 1] = starts[axis] + layout[SHAPE, axis]
    indices = np.empty(starts[RANK - 1], np.int64)
    for axis in range(RANK - 1):
        for i in range(layout[SHAPE, axis]):
            kind = layout[KIND, axis]
            indices[starts[axis] + i] = i if kind == COPIED else 0 if kind == REPEATED \
                else maps[layout[OFFSET, axis] + i]
    return indices, starts


@intrinsic
def copy_elements(typingctx, dst, d, src, s, count):
    """dst[d:d + count] = src[s:s + count] by memcpy (libc's, which beats
    a compiled loop on long rows; the ranges must not overlap)."""
    def codegen(context, builder, signature, arguments):
        dst_array, src_array = (context.make_array(signature.args[k])(
            context, builder, arguments[k]) for k in (0, 2))
        cgutils.raw_memcpy(builder, builder.gep(dst_array.data, [arguments[1]]),
                           builder.gep(src_array.data, [arguments[3]]), arguments[4],
                           dst.dtype.bitwidth // 8)
        return context.get_dummy_value()

    return types.void(dst, types.int64, src, types.int64, types.int64), codegen


@kernel
def copy_run(src, dst, bases, count, width, out0, start, length, offset, step,
             fill):
    """One run of the last axis in ``count`` rows: row r (output offset
    out0 + r * width) reads from source offset bases[r], or takes the fill
    value where that is -1 (a fill row) or the run is FILL."""
    n = np.uint64(length)
    for r in range(count):
        base, d = bases[r], out0 + r * width + start
        if step == 1 and base >= 0:
            copy_elements(dst, d, src, base + offset, length)
        elif step == -1 and base >= 0:     # unsigned indices: no wrap-around checks
            s = np.uint64(base + offset)
            for j in range(n):
                dst[np.uint64(d) + j] = src[s - j]
        else:
            value = fill if base < 0 or offset == FILL else src[base + offset]
            for j in range(n):
                dst[np.uint64(d) + j] = value


@kernel
def gather_rows(src, dst, fill, layout, maps, row0, row1):
    """Output rows row0 <= r < row1 of a gather (a row: an index of the
    first five axes, in C order); ``layout``: see _layout."""
    shape, strides = layout[SHAPE], layout[STRIDE]
    width = shape[RANK - 1]
    runs = last_axis_runs(layout, maps)
    indices, starts = outer_maps(layout, maps)
    position = np.empty(RANK - 1, np.int64)     # the next row's index
    rest = row0
    for axis in range(RANK - 2, -1, -1):
        position[axis] = rest % shape[axis]
        rest //= shape[axis]
    bases = np.empty(BLOCK_ROWS, np.int64)
    for first in range(row0, row1, BLOCK_ROWS):
        count = min(BLOCK_ROWS, row1 - first)
        for r in range(count):
            base = 0
            for axis in range(RANK - 1):
                source = indices[starts[axis] + position[axis]]
                base = -1 if source < 0 or base < 0 else base + source * strides[axis]
            bases[r] = base
            axis = RANK - 2
            while axis >= 0:
                position[axis] += 1
                if position[axis] < shape[axis]:
                    break
                position[axis] = 0
                axis -= 1
        for k in range(runs.shape[0]):
            copy_run(src, dst, bases, count, width, first * width, runs[k, 0],
                     runs[k, 1], runs[k, 2], runs[k, 3], fill)


def _merged(shape, maps) -> list[list]:
    """[map, source stride, output length] per axis of a C-contiguous
    source of ``shape``, neighbours merged where both are COPY or both
    repeated."""
    axes: list[list] = []
    for n, index, stride in zip(shape, maps, _c_strides(shape)):
        length = n if index is COPY else index if isinstance(index, int) else len(index)
        last = axes[-1] if axes else None
        if last is not None and not isinstance(index, np.ndarray) and (
                type(last[0]) is type(index)):
            last[0] = COPY if index is COPY else last[2] * length
            last[1:] = [stride, last[2] * length]
        else:
            axes.append([index, stride, length])
    return axes


def _layout(axes) -> tuple[np.ndarray, np.ndarray]:
    """For at most RANK merged axes: the layout, an int64 array whose rows
    (SHAPE, STRIDE, KIND, OFFSET) give per axis (leading axes of length 1
    first) the output length, the source stride, the kind of map and
    where a MAPPED axis's map starts in the second array, the maps."""
    axes = [[1, 0, 1]] * (RANK - len(axes)) + axes
    mapped = [index for index, _, _ in axes if isinstance(index, np.ndarray)]
    starts = itertools.accumulate((len(m) for m in mapped), initial=0)
    kinds = [COPIED if index is COPY else REPEATED if isinstance(index, int)
             else MAPPED for index, _, _ in axes]
    layout = np.array([length for *_, length in axes] + [s for _, s, _ in axes]
                      + kinds + [next(starts) if k == MAPPED else 0 for k in kinds],
                      np.int64).reshape(4, RANK)
    maps = np.concatenate(mapped) if len(mapped) > 1 else \
        np.ascontiguousarray(mapped[0], np.int64) if mapped else _NO_MAPS
    return layout, maps


def gather(x: np.ndarray, maps, fill=0, small: bool = False) -> np.ndarray | None:
    """y[i0, ..., ik] = x[maps[0][i0], ..., maps[k][ik]], or ``fill`` (cast
    to x's dtype) where a map holds -1: one map per axis of x (see COPY;
    arrays of valid int64 indices). None when the kernel does not handle
    x, or y has fewer than SMALL elements and not ``small``; x must not be
    empty unless y is."""
    bits = _bits(x.dtype)
    if bits is None or x.ndim == 0 or len(maps) != x.ndim:
        return None
    shape = [n if m is COPY else m if isinstance(m, int) else len(m)
             for n, m in zip(x.shape, maps)]
    size = math.prod(shape)
    if 0 < size < SMALL and not small:
        return None
    y = np.empty(shape, x.dtype)
    if y.size == 0:
        return y
    axes = _merged(x.shape, maps)
    if len(axes) > RANK:
        return None
    layout, maps = _layout(axes)
    src = flat(x).view(bits)
    dst = y.reshape(-1).view(bits)
    value = bits(0) if type(fill) is int and fill == 0 else \
        np.asarray(fill).astype(x.dtype).view(bits)[()]
    width = int(layout[SHAPE, -1])
    parallel_for(y.size // width, lambda lo, hi: gather_rows(
        src, dst, value, layout, maps, lo, hi), grain=min_items(width))
    return y


def pad(x: np.ndarray, widths, mode: str = "constant", value=0) -> np.ndarray | None:
    """_ref.pad.pad (np.pad with negative widths cropping) as a gather;
    None where the gather cannot (or must refuse: an axis cropped away)."""
    if mode not in NUMPY_MODES or len(widths) != x.ndim or x.ndim == 0 or any(
            n - max(-b, 0) - max(-a, 0) <= 0 for n, (b, a) in zip(x.shape, widths)):
        return None
    maps = [COPY if b == a == 0 else index_map(n, b, a, mode)
            for n, (b, a) in zip(x.shape, widths)]
    return gather(x, maps, value, small=True)    # np.pad costs more than the set-up


# -- permute -------------------------------------------------------------------
BLOCK = 8           # the side of the blocks transposed in registers
BAND_BYTES = 4096   # source bytes of a band's rows that one item reads


@intrinsic
def transpose_block(typingctx, src, dst, s, d, src_pitch, dst_pitch):
    """dst[d + c * dst_pitch + r] = src[s + r * src_pitch + c] for r, c <
    BLOCK: BLOCK vector loads, log2(BLOCK) rounds of shuffles, BLOCK vector
    stores (1-D arrays of one unsigned type; int64 offsets)."""
    width = src.dtype.bitwidth
    vector = ir.VectorType(ir.IntType(width), BLOCK)

    def rows_at(builder, array, base, pitch):
        return [builder.bitcast(builder.gep(array.data, [builder.add(
            base, builder.mul(pitch, ir.Constant(pitch.type, k)))]),
            vector.as_pointer()) for k in range(BLOCK)]

    def codegen(context, builder, signature, arguments):
        src_array, dst_array = (context.make_array(t)(context, builder, a)
                                for t, a in zip(signature.args[:2], arguments[:2]))
        s, d, src_pitch, dst_pitch = arguments[2:]
        rows = [builder.load(p, align=width // 8)
                for p in rows_at(builder, src_array, s, src_pitch)]
        half = BLOCK // 2       # swap the off-diagonal half x half blocks
        while half:
            for i in (i for i in range(BLOCK) if not i & half):
                a, b = rows[i], rows[i + half]
                low = [j if not j & half else BLOCK + j - half for j in range(BLOCK)]
                high = [j + half if not j & half else BLOCK + j for j in range(BLOCK)]
                rows[i], rows[i + half] = (builder.shuffle_vector(a, b, ir.Constant(
                    ir.VectorType(ir.IntType(32), BLOCK), mask)) for mask in (low, high))
            half //= 2
        for row, pointer in zip(rows, rows_at(builder, dst_array, d, dst_pitch)):
            builder.store(row, pointer, align=width // 8)
        return context.get_dummy_value()

    return types.void(src, dst, types.int64, types.int64, types.int64,
                      types.int64), codegen


@kernel
def transpose_small(src, dst, s, d, rows, cols, src_pitch, dst_pitch):
    """dst[d + c * dst_pitch + r] = src[s + r * src_pitch + c] for r <
    rows, c < cols, element by element (the edges of the blocks)."""
    pitch = np.uint64(src_pitch)
    for c in range(cols):
        source, target = np.uint64(s + c), np.uint64(d + c * dst_pitch)
        for r in range(np.uint64(rows)):
            dst[target + r] = src[source + r * pitch]


@kernel
def permute_items(src, dst, loop, tile, item0, item1):
    """dst[i . dst_strides] = src[i . src_strides] for the indices i of
    ``shape`` (the rows of ``loop``: six axes; axis 5 has destination
    stride 1, axis 4 source stride 1). An item: an index of axes 0-3 (C
    order) and ``tile`` indices of axis 4, copied in bands of BLOCK
    indices of axis 5, each band a row of BLOCK x BLOCK blocks along axis
    4; the last band and the last columns (fewer than BLOCK) go element by
    element."""
    shape, src_strides, dst_strides = loop[0], loop[1], loop[2]
    n4, n5 = shape[4], shape[5]
    src_pitch, dst_pitch = src_strides[5], dst_strides[4]
    tiles = (n4 + tile - 1) // tile
    bands = n5 - n5 % BLOCK
    for item in range(item0, item1):
        rest, first4 = item // tiles, item % tiles * tile
        last4 = min(first4 + tile, n4)
        blocks = last4 - (last4 - first4) % BLOCK
        src0, dst0 = 0, 0
        for axis in range(3, -1, -1):
            i = rest % shape[axis]
            rest //= shape[axis]
            src0 += i * src_strides[axis]
            dst0 += i * dst_strides[axis]
        for band in range(0, bands, BLOCK):
            for i4 in range(first4, blocks, BLOCK):
                transpose_block(src, dst, src0 + band * src_pitch + i4,
                                dst0 + i4 * dst_pitch + band, src_pitch, dst_pitch)
        transpose_small(src, dst, src0 + bands * src_pitch + first4,
                        dst0 + first4 * dst_pitch + bands, n5 - bands,
                        blocks - first4, src_pitch, dst_pitch)
        transpose_small(src, dst, src0 + blocks, dst0 + blocks * dst_pitch, n5,
                        last4 - blocks, src_pitch, dst_pitch)


def _coalesced(shape, strides) -> list[tuple[int, int]]:
    """(length, source stride) of the output axes, length-1 axes dropped
    and neighbours merged where the source holds them contiguously too."""
    axes: list[tuple[int, int]] = []
    for n, stride in zip(shape, strides):
        if n == 1:
            continue
        if axes and axes[-1][1] == stride * n:
            axes[-1] = (axes[-1][0] * n, stride)
        else:
            axes.append((n, stride))
    return axes


def _loop(axes) -> list[list[int]]:
    """:func:`permute_items`'s loop for coalesced output ``axes`` whose last
    one is not the source's contiguous one: the output's last axis goes
    last (contiguous writes), the source's contiguous one just before it,
    the rest in front. Rows: shape, source strides, destination strides."""
    dst_strides = _c_strides([n for n, _ in axes])
    unit = min(range(len(axes)), key=lambda k: axes[k][1])
    order = [k for k in range(len(axes) - 1) if k != unit] + [unit, len(axes) - 1]
    lead = [0] * (RANK - len(order))
    return [[1] * len(lead) + [axes[k][0] for k in order],
            lead + [axes[k][1] for k in order], lead + [dst_strides[k] for k in order]]


def permute(x: np.ndarray, perm) -> np.ndarray | None:
    """np.transpose(x, perm) as a new C-contiguous array; None when perm
    is no permutation of range(x.ndim) (negative axes allowed) or the
    kernel does not handle x (or it has fewer than SMALL_PERMUTE elements).
    Permutations that keep the source's rows whole (the last axis stays
    last, as in the attention (0, 2, 1, 3)) are row copies, which NumPy
    does at memcpy speed."""
    bits = _bits(x.dtype)
    if bits is None or x.size < SMALL_PERMUTE or len(perm) != x.ndim or sorted(
            p % x.ndim for p in perm if -x.ndim <= p < x.ndim) != list(range(x.ndim)):
        return None
    perm = [p % x.ndim for p in perm]
    shape = tuple(x.shape[p] for p in perm)
    strides = _c_strides(x.shape)
    axes = _coalesced(shape, [strides[p] for p in perm])
    if len(axes) > RANK or not axes or axes[-1][1] == 1:
        return np.ascontiguousarray(np.transpose(x, perm)) if \
            len(axes) > 1 else x.copy().reshape(shape)
    y = np.empty(shape, x.dtype)
    loop = _loop(axes)
    tile = BAND_BYTES // x.itemsize
    src = flat(x).view(bits)
    dst = y.reshape(-1).view(bits)
    items = math.prod(loop[0][:4]) * -(-loop[0][4] // tile)
    table = np.array(loop, np.int64)
    parallel_for(items, lambda lo, hi: permute_items(src, dst, table, tile, lo, hi),
                 grain=min_items(tile * loop[0][5]))
    return y


# -- affine sequences ----------------------------------------------------------
AFFINE_DTYPES = {np.dtype(t) for t in (np.float32, np.float64, np.int8, np.int16,
                                       np.int32, np.int64, np.uint8, np.uint16,
                                       np.uint32, np.uint64)}


@kernel
def affine_fill(out, coefficients):
    """out[i] = a + i * b with (a, b) = coefficients, in their dtype, cast
    to out's on the store (as the reference's astype)."""
    start, step = coefficients[0], coefficients[1]
    for i in range(out.size):
        out[i] = start + coefficients.dtype.type(i) * step


def affine(length: int, coefficients: np.ndarray, dtype) -> np.ndarray | None:
    """_ref.sequence.affine in one pass; None for float16 and
    float-to-integer outputs (Numba's casts differ there)."""
    dtype = np.dtype(dtype)
    if dtype not in AFFINE_DTYPES or (dtype.kind != "f") != (
            coefficients.dtype.kind != "f") or coefficients.dtype not in AFFINE_DTYPES:
        return None
    out = np.empty(length, dtype)
    affine_fill(out, coefficients)
    return out


# -- the ops' kernels ----------------------------------------------------------
def arange(start, end, step, dtype=None):
    """Arange: the progression in one pass (:func:`affine`)."""
    return progression(start, end, step, dtype, "Arange", fill=affine)


def range_(start, end, step, maxlen=1000000):
    """Range: the progression in one pass (:func:`affine`)."""
    return progression(start, end, step, None, "Range", int(maxlen), affine)


def lin_space(start, stop, num):
    """LinSpace: the values in one pass (:func:`affine`)."""
    return evenly_spaced(start, stop, num, start.dtype, affine)


def lin_space_ext(start, end, steps, dtype=None):
    """LinSpaceExt: the values in one pass (:func:`affine`)."""
    return evenly_spaced(start, end, steps, dtype, affine)


def constant_pad_nd(input, padding, value=0.0):
    """ConstantPadND: constant padding as a gather (:func:`pad`)."""
    return torch_pad(input, padding, "constant", value, runner=pad)


def pad_v3(x, paddings, constant_value=None, mode="constant", paddings_contiguous=True):
    """PadV3: every mode as a gather (:func:`pad`)."""
    return torch_pad(x, paddings, mode, constant_value, paddings_contiguous,
                     runner=pad)


def zero_pad(x, paddings):
    """Pad: zero padding as a gather (:func:`pad`)."""
    return pad(x, axis_pairs(x, paddings))


def mirror_pad(x, paddings, mode="reflect"):
    """MirrorPad: mirror padding as a gather (:func:`pad`)."""
    return pad(x, mirror_pairs(x, paddings, mode), mode)


def reverse_v2(input, axis):
    """ReverseV2 with a flipped last axis as a gather (reversed runs, a
    vectorised loop where NumPy steps backwards element by element).
    Flips of other axes only copy whole rows, which NumPy does at memcpy
    speed: None for them, as for small tensors and invalid axes."""
    rank = input.ndim
    flipped = {a % rank for a in axis if -rank <= a < rank} if rank else set()
    if len(flipped) != len(axis) or rank - 1 not in flipped or input.size < SMALL:
        return None
    return gather(input, [np.arange(n)[::-1] if k in flipped else COPY
                          for k, n in enumerate(input.shape)])


def tile(input, dims):
    """Tile in one pass, as a gather with the index maps i mod n, where
    np.tile makes a pass per repeated axis. None for one repeated axis (a
    single np.repeat, memcpy-class), small outputs and negative dims."""
    rank = max(input.ndim, len(dims))
    if min(dims, default=0) < 0 or sum(r != 1 for r in dims) <= 1 \
            or input.size * math.prod(dims) < SMALL:
        return None
    x = input.reshape((1,) * (rank - input.ndim) + input.shape)
    reps = (1,) * (rank - len(dims)) + tuple(dims)
    return gather(x, [COPY if r == 1 else n * r if n == 1 else np.arange(n * r) % n
                      for n, r in zip(x.shape, reps)])


def transpose(input, dims):
    """Transpose and TransposeView: a blocked copy (:func:`permute`)."""
    return permute(input, dims)


def t_ext(input):
    """TExt: a matrix's transpose as a blocked copy; None for other ranks."""
    return permute(input, (1, 0)) if input.ndim == 2 else None


def transpose_ext_view(input, dim0, dim1):
    """TransposeExtView: the swap as a blocked copy; None for 0-d inputs
    and dims out of range."""
    dim0, dim1, rank = int(dim0), int(dim1), input.ndim
    if not (-rank <= dim0 < rank and -rank <= dim1 < rank):
        return None
    perm = list(range(rank))
    perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
    return permute(input, perm)


def unstack(x, axis=0, num=None):
    """Unstack: the axis moved to the front by a blocked copy, then split
    into its rows; None for invalid arguments."""
    axis, rank = int(axis), x.ndim
    if rank == 0 or not -rank <= axis < rank or (
            num is not None and int(num) != x.shape[axis]):
        return None
    axis %= rank
    y = permute(x, [axis] + [k for k in range(rank) if k != axis])
    return None if y is None else tuple(y)
