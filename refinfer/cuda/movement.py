"""The ``cuda`` kernels of the view forms and pure data movement ops beside
index.py's: TransposeView, TransposeExtView, TExt, ExpandAs, Narrow,
SliceExt(View), SelectExtView, the splits (SplitTensor, SplitWithSize,
Chunk and their View forms), Unstack / Unpack / UnstackExtView, Diagonal
(View), DiagPart, Diag, Triu, MatrixBandPart, Roll, DepthToSpace,
SpaceToDepth, PixelShuffle, ChannelShuffle, BatchToSpaceND, SpaceToBatchND,
RepeatInterleave, OneHotExt, Meshgrid, ConjugateTranspose (real), TypeAs,
FillDiagonal and the device copies (Contiguous, Copy), declared in
:data:`KERNELS`.

Views go through index.py's byte probe (:func:`index.viewed`,
:func:`index.copy_view`): the NumPy view of a probe says where every
element lies, one gather copies it. The block moves (DepthToSpace and
its kin) are a reshape and transpose of the probe, gathered, then
reshaped on the device (C-contiguous, so a free view). Triangles and
bands keep an element where its column minus row lies in [low, high];
Roll reads each output element from its shifted place.

Arguments the references reject decline (None), and the reference then
raises its error.
"""
from __future__ import annotations

import math

import numba
import numpy as np

from refinfer import registry

from . import device
from .device import cuda
from .fill import filled
from .index import (cast, copy_view, gather, one_hot, probe, scatter_view, transpose,
                    view_geometry, viewed)
from .layout import flat
from .padding import padded


# -- the kernels ---------------------------------------------------------------
@device.jit
def band(x, out, rows, cols, low, high):
    """out = x where low <= column - row <= high in the last two axes
    (rows x cols), else 0: Triu and MatrixBandPart."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        above = i % cols - (i // cols) % rows
        out[i] = x[i] if low <= above <= high else 0


@device.jit
def diagonal_matrix(x, out, size):
    """out (size x size) = x on the diagonal, 0 elsewhere: Diag."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        row = i // size
        out[i] = x[row] if i % size == row else 0


@device.jit
def roll_kernel(x, out, dims, shifts):
    """out[..., c, ...] = x[..., (c - shift) mod n, ...] along every axis
    (shift 0 where the axis does not roll; shifts already reduced mod n)."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        at, rest, step = 0, i, 1
        for d in range(dims.size - 1, -1, -1):
            n = dims[d]
            source = rest % n - shifts[d]
            at += (source + n if source < 0 else source) * step
            rest //= n
            step *= n
        out[i] = x[at]


def ptx_kernels() -> list[tuple]:
    """(name, Python function, argument types) of this module's kernels
    for tools/check_ptx.py: float32 data, int64 geometry."""
    f32, i64, n = numba.float32[::1], numba.int64[::1], numba.int64
    return [
        ("band", band.py_func, (f32, f32, n, n, n, n)),
        ("diagonal matrix", diagonal_matrix.py_func, (f32, f32, n)),
        ("roll", roll_kernel.py_func, (f32, f32, i64, i64)),
    ]


# -- views ---------------------------------------------------------------------
def axis_of(x, dim) -> int | None:
    """dim as an axis of x (negative from the end), None outside it."""
    dim = int(dim)
    return dim % x.ndim if x.ndim and -x.ndim <= dim < x.ndim else None


def transpose_view(input, input_perm):
    """TransposeView: Transpose's kernel."""
    return transpose(input, input_perm)


def conjugate_transpose(x, perm):
    """ConjugateTranspose of a real tensor: Transpose by a permutation of
    the axes (no negative ones, as the reference); complex declines."""
    if np.dtype(x.dtype).kind == "c" or sorted(perm) != list(range(x.ndim)):
        return None
    return transpose(x, perm)


def type_as(input, other):
    """TypeAs: Cast's kernel to other's dtype."""
    return cast(input, other.dtype)


def transpose_ext_view(input, dim0, dim1):
    """TransposeExtView: two axes swapped (a 0-d input copied)."""
    if input.ndim == 0:
        return device.copy(input)
    if axis_of(input, dim0) is None or axis_of(input, dim1) is None:
        return None
    return viewed(input, lambda v: np.swapaxes(v, int(dim0), int(dim1)))


def t_ext(input):
    """TExt: the transpose of a matrix, rank <= 2."""
    return None if input.ndim > 2 else viewed(input, lambda v: v.T)


def expand_as(input, other):
    """ExpandAs: input broadcast to other's shape."""
    return viewed(input, lambda v: np.broadcast_to(v, tuple(other.shape)))


def _along(axis: int, index) -> tuple:
    """The NumPy index taking ``index`` along ``axis`` (a view; the
    Ellipsis keeps a 0-d result an array)."""
    return (slice(None),) * axis + (index, Ellipsis)


def narrow(input, dim, start, length):
    """Narrow: ``length`` entries from start (negative from the end)."""
    axis = axis_of(input, dim)
    if axis is None:
        return None
    size, start, length = input.shape[axis], int(start), int(length)
    start += size if start < 0 else 0
    if not (0 <= start <= size and 0 <= length <= size - start):
        return None
    return viewed(input, lambda v: v[_along(axis, slice(start, start + length))])


def slice_ext(input, dim, start, end, step):
    """SliceExt / SliceExtView: Python slicing along dim, step >= 1."""
    axis = axis_of(input, dim)
    if axis is None or int(step) < 1:
        return None
    cut = slice(int(start), int(end), int(step))
    return viewed(input, lambda v: v[_along(axis, cut)])


def select_ext_view(input, dim, index):
    """SelectExtView: one index along dim, the axis removed."""
    axis, index = axis_of(input, dim), int(index)
    if axis is None or not -input.shape[axis] <= index < input.shape[axis]:
        return None
    return viewed(input, lambda v: v[_along(axis, index)])


def _pieces(input, views) -> tuple | None:
    """Device copies of ``views`` (a function of the probe giving views of
    it) of input; None where one is not a view."""
    base = probe(tuple(input.shape))
    parts = tuple(copy_view(input, view_geometry(base, v)) for v in views(base))
    return None if any(p is None for p in parts) else parts


def reference_split(op: str):
    """The kernel of a split (SplitTensor, SplitWithSize, Chunk): the
    reference run on a probe with every other axis of length 1 gives the
    pieces' lengths (its checks included), the pieces are views of input."""
    reference = registry.get_op(op).reference

    def run(input, split_size, dim=0):
        axis = axis_of(input, dim)
        if axis is None:
            return None
        unit = tuple(n if a == axis else 1 for a, n in enumerate(input.shape))
        try:
            lengths = [p.shape[axis] for p in reference(probe(unit), split_size, dim)]
        except (ValueError, IndexError, TypeError):
            return None
        cuts = np.cumsum(lengths)[:-1]
        return _pieces(input, lambda v: np.split(v, cuts, axis=axis))
    return run


def unstack(x, axis=0, num=None):
    """Unstack / Unpack / UnstackExtView: the slices along axis."""
    at = axis_of(x, axis)
    if at is None or num is not None and int(num) != x.shape[at]:
        return None
    return _pieces(x, lambda v: [v[_along(at, k)] for k in range(x.shape[at])])


def diagonal(input, offset=0, dim1=0, dim2=1):
    """Diagonal / DiagonalView: np.diagonal's view of the probe."""
    axes = (axis_of(input, dim1), axis_of(input, dim2))
    if input.ndim < 2 or None in axes or axes[0] == axes[1]:
        return None
    return viewed(input, lambda v: np.diagonal(v, int(offset), *axes))


def diag_part(input_x):
    """DiagPart: the diagonal of the (size, size) matrix input_x is."""
    half = input_x.ndim // 2
    shape = tuple(input_x.shape[:half])
    if input_x.ndim == 0 or input_x.ndim % 2 or tuple(input_x.shape[half:]) != shape:
        return None
    size = math.prod(shape)
    part = viewed(input_x, lambda v: v.reshape(size, size).diagonal())
    return part.reshape(shape)


# -- moves with zeros, shifts and copies -----------------------------------------
def diag(input_x):
    """Diag: input_x on the diagonal of a (size, size) matrix, reshaped to
    input_x.shape * 2."""
    if input_x.ndim == 0:
        return None
    size = input_x.size
    out = device.empty((size, size), input_x.dtype)
    if out.size:
        device.launch(diagonal_matrix, out.size, flat(input_x), flat(out), size)
    return out.reshape(tuple(input_x.shape) * 2)


def _band(x, low: int, high: int):
    """x with only the band low <= column - row <= high of its last two
    axes kept."""
    out = device.empty(tuple(x.shape), x.dtype)
    if out.size:
        rows, cols = x.shape[x.ndim - 2:]
        device.launch(band, out.size, flat(x), flat(out), rows, cols, low, high)
    return out


def triu(input, diagonal=0):
    """Triu: column - row >= diagonal kept, rank >= 2."""
    if input.ndim < 2:
        return None
    return _band(input, int(diagonal), input.shape[input.ndim - 1])


def matrix_band_part(x, lower, upper):
    """MatrixBandPart: ``lower`` sub- and ``upper`` super-diagonals kept (a
    negative count keeps the whole triangle); counts on the device decline
    (reading them back is the host's work)."""
    if x.ndim < 2 or device.is_device_array(lower) or device.is_device_array(upper):
        return None
    rows, cols = x.shape[x.ndim - 2:]
    lower, upper = int(lower), int(upper)
    return _band(x, -rows if lower < 0 else -lower, cols if upper < 0 else upper)


def roll(input, shifts, dims=None):
    """Roll: the flattened tensor when dims is None, else each axis of
    dims by its shift (repeated axes add up, as np.roll)."""
    shape = tuple(input.shape) if dims is not None else (input.size,)
    steps = [0] * len(shape)
    if dims is None:
        steps[0] = sum(int(s) for s in shifts)
    else:
        axes = [axis_of(input, d) for d in dims]
        if len(shifts) != len(dims) or None in axes:
            return None
        for axis, shift in zip(axes, shifts):
            steps[axis] += int(shift)
    out = device.empty(tuple(input.shape), input.dtype)
    if out.size:
        device.launch(roll_kernel, out.size, flat(input), flat(out),
                      device.constant(shape or (1,)),
                      device.constant([s % n for s, n in zip(steps, shape)] or [0]))
    return out


def _moved(x, split: tuple, order: tuple, shape: tuple):
    """x viewed as ``split``, its axes permuted by ``order``, gathered and
    reshaped to ``shape``."""
    moved = viewed(x, lambda v: v.reshape(split).transpose(order))
    return None if moved is None else moved.reshape(shape)


def depth_to_space(x, block_size):
    """DepthToSpace (NCHW, DCR order): channel blocks into b x b tiles."""
    b = int(block_size)
    if x.ndim != 4 or b < 2 or x.shape[1] % (b * b):
        return None
    n, c, h, w = x.shape
    return _moved(x, (n, b, b, c // (b * b), h, w), (0, 3, 4, 1, 5, 2),
                  (n, c // (b * b), h * b, w * b))


def space_to_depth(x, block_size):
    """SpaceToDepth (NCHW): b x b spatial tiles into channels."""
    b = int(block_size)
    if x.ndim != 4 or b < 2 or x.shape[2] % b or x.shape[3] % b:
        return None
    n, c, h, w = x.shape
    return _moved(x, (n, c, h // b, b, w // b, b), (0, 3, 5, 1, 2, 4),
                  (n, c * b * b, h // b, w // b))


def pixel_shuffle(input, upscale_factor):
    """PixelShuffle: channel-major blocks into r x r tiles, rank >= 3."""
    r = int(upscale_factor)
    if input.ndim < 3 or r < 1 or input.shape[input.ndim - 3] % (r * r):
        return None
    *lead, c, h, w = input.shape
    k = len(lead)
    return _moved(input, (*lead, c // (r * r), r, r, h, w),
                  (*range(k), k, k + 3, k + 1, k + 4, k + 2),
                  (*lead, c // (r * r), h * r, w * r))


def channel_shuffle(x, group):
    """ChannelShuffle: (N, group, C / group, *) with axes 1 and 2 swapped."""
    group = int(group)
    if x.ndim < 3 or group < 1 or x.shape[1] % group:
        return None
    n, c, *rest = x.shape
    order = (0, 2, 1) + tuple(range(3, x.ndim + 1))
    return _moved(x, (n, group, c // group, *rest), order, tuple(x.shape))


def _block_axes(x, block, pairs) -> bool:
    """Whether BatchToSpaceND / SpaceToBatchND's block and (start, end)
    pairs fit x: one pair per block axis, x with a batch axis before them,
    blocks >= 1 and widths >= 0."""
    return len(pairs) == len(block) and x.ndim >= len(block) + 1 \
        and min(block, default=1) >= 1 and min(sum(pairs, ()), default=0) >= 0


def batch_to_space_nd(input_x, block_shape, crops):
    """BatchToSpaceND: the batch's blocks moved into the last M axes (one
    gather), then the crops cut (another)."""
    block = tuple(int(k) for k in block_shape)
    pairs = [tuple(int(c) for c in pair) for pair in np.reshape(crops, (-1, 2))]
    m, blocks = len(block), math.prod(block)
    if not _block_axes(input_x, block, pairs) or input_x.shape[0] % blocks:
        return None
    batch, *rest = input_x.shape[:input_x.ndim - m]
    spatial = tuple(input_x.shape[input_x.ndim - m:])
    lead = len(rest) + 1
    order = [m] + [m + 1 + i for i in range(len(rest))]
    for i in range(m):
        order += [m + lead + i, i]
    grown = tuple(s * k for s, k in zip(spatial, block))
    moved = _moved(input_x, block + (batch // blocks, *rest) + spatial, tuple(order),
                   (batch // blocks, *rest) + grown)
    window = tuple(slice(a, n - b) for (a, b), n in zip(pairs, grown))
    return viewed(moved, lambda v: v[(Ellipsis,) + window])


def space_to_batch_nd(input_x, block_shape, paddings):
    """SpaceToBatchND: the last M axes padded with zeros (one gather), then
    their blocks moved into the batch (another)."""
    block = tuple(int(k) for k in block_shape)
    pairs = [tuple(int(p) for p in pair) for pair in np.reshape(paddings, (-1, 2))]
    m = len(block)
    if not _block_axes(input_x, block, pairs):
        return None
    x = padded(input_x, [(0, 0)] * (input_x.ndim - m) + pairs, "constant",
               device.to_device(np.zeros(1, input_x.dtype)))
    batch, *rest = x.shape[:x.ndim - m]
    sizes = tuple(x.shape[x.ndim - m:])
    if any(size % k for size, k in zip(sizes, block)):
        return None
    lead = 1 + len(rest)
    order = ([lead + 2 * i + 1 for i in range(m)] + list(range(lead))
             + [lead + 2 * i for i in range(m)])
    split = (batch, *rest) + sum(((s // k, k) for s, k in zip(sizes, block)), ())
    return _moved(x, split, tuple(order), (batch * math.prod(block), *rest)
                  + tuple(s // k for s, k in zip(sizes, block)))


def repeat_interleave(input, repeats, dim=None, output_size=None):
    """RepeatInterleaveInt / Tensor: Gather's kernel along dim (the whole
    tensor flattened where None) at the source index of each output
    position, np.repeat of the positions on the host (a tensor of repeats
    is read back: the output's length depends on it)."""
    x = flat(input) if dim is None else input
    axis = 0 if dim is None else axis_of(x, dim)
    if axis is None:
        return None
    counts = device.to_host(repeats) if device.is_device_array(repeats) else int(repeats)
    try:
        sources = np.repeat(np.arange(x.shape[axis]), counts)
    except ValueError:
        return None
    if output_size is not None and sources.size != int(output_size):
        return None
    return gather(x, device.to_device(sources), axis)


def one_hot_ext(tensor, num_classes, on_value, off_value, axis=-1):
    """OneHotExt: OneHot's kernel; num_classes -1 (the maximum plus one, a
    read-back) declines."""
    depth = int(num_classes)
    return None if depth == -1 else one_hot(tensor, depth, on_value, off_value, axis)


def meshgrid(inputs, indexing="xy"):
    """Meshgrid: each 1-D input broadcast across the grid (np.meshgrid's
    views of the probes, copy=False)."""
    inputs = list(inputs)
    if not inputs or any(t.ndim != 1 for t in inputs) or indexing not in ("xy", "ij"):
        return None
    bases = [probe(tuple(t.shape)) for t in inputs]
    views = np.meshgrid(*bases, indexing=indexing, copy=False)
    parts = tuple(copy_view(t, view_geometry(base, view))
                  for t, base, view in zip(inputs, bases, views))
    return None if any(p is None for p in parts) else parts


def fill_diagonal(input_x, fill_value, wrap=False):
    """FillDiagonal: a copy with fill_value written at the flat positions
    0, step, 2 step... as np.fill_diagonal (step: the sum of the strides;
    a matrix's diagonal stops after its columns unless ``wrap``)."""
    shape = tuple(input_x.shape)
    if len(shape) < 2 or len(shape) > 2 and len(set(shape)) != 1:
        return None
    step = 1 + sum(math.prod(shape[:k + 1]) for k in range(len(shape) - 1)) \
        if len(shape) > 2 else shape[1] + 1
    end = input_x.size if wrap or len(shape) > 2 else min(shape[1] * shape[1],
                                                           input_x.size)
    out = device.copy(input_x)
    count = -(-end // step)
    if count:
        value = filled((count,), np.asarray(fill_value).astype(input_x.dtype))
        device.launch(scatter_view, count, value, flat(out), device.constant((count,)),
                      device.constant((step,)), 0)
    return out


def device_copy(input_x):
    """Contiguous / Copy / Identity: a device copy (plan.py places Identity
    as a reshape, so only a direct call of its kernel copies)."""
    return device.copy(input_x)


KERNELS = {"TransposeView": transpose_view, "TransposeExtView": transpose_ext_view,
           "TExt": t_ext, "ExpandAs": expand_as, "Narrow": narrow,
           "SliceExt": slice_ext, "SliceExtView": slice_ext,
           "SelectExtView": select_ext_view,
           **{op: reference_split(op) for op in (
               "SplitTensor", "SplitTensorView", "SplitWithSize",
               "SplitWithSizeView", "Chunk", "ChunkView")},
           "Unstack": unstack, "Unpack": unstack, "UnstackExtView": unstack,
           "ConjugateTranspose": conjugate_transpose, "TypeAs": type_as,
           "FillDiagonal": fill_diagonal, "Diagonal": diagonal, "DiagonalView": diagonal,
           "DiagPart": diag_part, "Diag": diag, "Triu": triu,
           "MatrixBandPart": matrix_band_part, "Roll": roll,
           "DepthToSpace": depth_to_space, "SpaceToDepth": space_to_depth,
           "PixelShuffle": pixel_shuffle, "ChannelShuffle": channel_shuffle,
           "BatchToSpaceND": batch_to_space_nd, "SpaceToBatchND": space_to_batch_nd,
           "RepeatInterleaveInt": repeat_interleave,
           "RepeatInterleaveTensor": repeat_interleave, "OneHotExt": one_hot_ext,
           "Meshgrid": meshgrid, "Contiguous": device_copy, "Copy": device_copy,
           "Identity": device_copy}
registry.declare_kernels("cuda", KERNELS)
