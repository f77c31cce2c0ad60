"""The ``cuda`` kernels of Sort, SortExt, ArgSort, TopK, TopkExt,
NthElement, Median and MedianExt (and the binary searches of
SearchSorted, LowerBound and UpperBound, one thread per value): one thread per
line along the sorted axis, each element placed at its rank (how many
elements come before it, equal ones in index order), which is the
reference's stable order with no scratch memory; O(n^2) per line, meant
for the short rows these ops see in models. NaN sorts last ascending and
first descending, as the reference's flipped stable sort. float16 values
are sorted as their exact float32 casts (refinfer/cuda/half.py); SearchSorted
and the bounds decline them. Importing this module declares them."""
from __future__ import annotations

import math

import numpy as np

from refinfer import registry
from refinfer.ops._ref.search import one_axis

from . import device
from .device import cuda
from .fill import filled
from .half import in_float32


@device.device_function
def _before(a, b, descending):
    """Whether a sorts strictly before b."""
    if descending:
        return a > b or (a != a and b == b)
    return a < b or (b != b and a == a)


@device.jit
def _rank_sort(x, descending, first, values, index):
    """values[o, r, n], index[o, r, n] = the element of rank first + r of
    the line x[o, :, n] and its position, for r < values.shape[1]."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    length, kept, inner = x.shape[1], values.shape[1], x.shape[2]
    for line in range(start, x.shape[0] * inner, stride):
        o, n = line // inner, line % inner
        for i in range(length):
            mine, rank = x[o, i, n], 0
            for j in range(length):
                other = x[o, j, n]
                if _before(other, mine, descending) or (
                        j < i and not _before(mine, other, descending)):
                    rank += 1
            if first <= rank < first + kept:
                values[o, rank - first, n] = mine
                index[o, rank - first, n] = i


@device.jit
def _search(sequence, values, right, out):
    """out[r, q] = the first index i of row r of ``sequence`` where
    values[r, q] sorts before sequence[r, i] (``right``) or does not sort
    after it (left), NaN sorting last."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    per_row = values.shape[1]
    for i in range(start, values.size, stride):
        r, q = i // per_row, i % per_row
        value, low, high = values[r, q], 0, sequence.shape[1]
        while low < high:
            middle = (low + high) // 2
            if (_before(value, sequence[r, middle], False) if right
                    else not _before(sequence[r, middle], value, False)):
                high = middle
            else:
                low = middle + 1
        out[r, q] = low


def search_sorted(sorted_sequence, values, sorter=None, dtype=np.int64, right=False):
    """SearchSorted; declines a sorter, float16, and shapes the reference
    refuses (rows of values must follow the sequence's leading dims)."""
    sequence = sorted_sequence
    if sorter is not None or np.dtype(np.float16) in (sequence.dtype, values.dtype):
        return None
    length = sequence.shape[sequence.ndim - 1] if sequence.ndim else 0
    rows = math.prod(tuple(sequence.shape)[:-1]) if sequence.ndim > 1 else 1
    if (not sequence.ndim or sequence.dtype != values.dtype
            or (sequence.ndim > 1
                and tuple(values.shape)[:-1] != tuple(sequence.shape)[:-1])):
        return None
    out = device.empty(values.shape, np.dtype(dtype))
    if out.size:
        per_row = values.size // rows
        device.launch(_search, out.size, sequence.reshape(rows, length),
                      values.reshape(rows, per_row), bool(right),
                      out.reshape(rows, per_row))
    return out


def ranked(x, axis, descending: bool, k, index_dtype, first=0):
    """The ``k`` (None: all) elements of x from rank ``first`` on, sorted
    along ``axis``, and their indices, as device arrays; None for float16
    (the kernels take it through half.in_float32) or a k out of range."""
    if x.dtype == np.float16:
        return None
    ax = one_axis(axis, x.ndim)
    shape = tuple(x.shape) or (1,)
    length = shape[ax]
    k = length if k is None else int(k)
    if not 0 <= first + k <= length:
        return None
    outer, inner = math.prod(shape[:ax]), math.prod(shape[ax + 1:])
    out_shape = tuple(x.shape[:ax]) + (k,) + tuple(x.shape[ax + 1:]) if x.ndim else ()
    values, index = device.empty(out_shape, x.dtype), device.empty(out_shape, index_dtype)
    if values.size:
        device.launch(_rank_sort, outer * inner, x.reshape(outer, length, inner),
                      bool(descending), first, values.reshape(outer, k, inner),
                      index.reshape(outer, k, inner))
    return values, index


def sort(x, axis=-1, descending=False):
    """Sort: (values, int32 indices)."""
    return ranked(x, axis, descending, None, np.int32)


def arg_sort(input, dim=-1, descending=False, stable=False):
    """ArgSort: the int64 indices (always stable)."""
    result = ranked(input, dim, descending, None, np.int64)
    return None if result is None else result[1]


def top_k(input, k, sorted=True):
    """TopK: the k largest along the last axis, int32 indices; a 0-d
    input is declined."""
    return ranked(input, -1, True, k, np.int32) if input.ndim else None


def topk_ext(input, k, dim=-1, largest=True, sorted=True):
    """TopkExt: the k largest (or smallest) along dim, int64 indices; a
    0-d input is declined."""
    return ranked(input, dim, largest, k, np.int64) if input.ndim else None


def median(x, global_median=False, axis=0, keep_dims=False, ignore_nan=False):
    """Median: the lower median (rank (n - 1) // 2 ascending) and its int64
    index; declines ignore_nan (the reference refuses it), an empty axis
    and a 0-d x."""
    if ignore_nan or not x.ndim or not x.size:
        return None
    if global_median:       # the median of every element, index 0
        result = median(x.reshape(-1), axis=0)
        return None if result is None else (
            result[0], filled((), np.zeros((), np.int64)))
    ax = one_axis(axis, x.ndim)
    result = ranked(x, ax, False, 1, np.int64, (x.shape[ax] - 1) // 2)
    if result is None or keep_dims:
        return result
    squeezed = tuple(n for k, n in enumerate(x.shape) if k != ax)
    return tuple(part.reshape(squeezed) for part in result)


def sort_ext(input, dim=-1, descending=False, stable=False):
    """SortExt: (values, int64 indices), always stable."""
    return ranked(input, dim, descending, None, np.int64)


def nth_element(input, n, reverse=False):
    """NthElement: the element of ascending rank n (reverse: length - 1 -
    n) along the last axis, the axis dropped; declines an n out of range
    (the reference raises) and a 0-d input."""
    n, length = int(n), input.shape[input.ndim - 1] if input.ndim else 0
    if not 0 <= n < length:
        return None
    result = ranked(input, -1, False, 1, np.int64, length - 1 - n if reverse else n)
    return None if result is None else result[0].reshape(tuple(input.shape)[:-1])


def median_ext(input):
    """MedianExt: the lower median of every element, 0-d."""
    result = median(input.reshape(input.size), axis=0)
    return None if result is None else result[0]


def bound(right: bool):
    """LowerBound (``right`` False) / UpperBound: SearchSorted row by row
    of 2-D sorted_x and values with the same rows (the reference refuses
    other shapes)."""
    def run(sorted_x, values, out_type=np.dtype(np.int32)):
        if sorted_x.ndim != 2 or values.ndim != 2 \
                or sorted_x.shape[0] != values.shape[0]:
            return None
        return search_sorted(sorted_x, values, None, out_type, right)
    return run


KERNELS = {"Sort": sort, "SortExt": sort_ext, "ArgSort": arg_sort, "TopK": top_k,
           "TopkExt": topk_ext, "NthElement": nth_element,
           "SearchSorted": search_sorted, "LowerBound": bound(False),
           "UpperBound": bound(True), "Median": median, "MedianExt": median_ext}
# float16 values order as their (exact) float32 casts: sorted in float32.
KERNELS.update({name: in_float32(KERNELS[name]) for name in (
    "Sort", "SortExt", "ArgSort", "TopK", "TopkExt", "NthElement", "Median",
    "MedianExt")})
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [(f"rank sort, {dtype}", _rank_sort,
        f"void({dtype}[:, :, ::1], boolean, int64, {dtype}[:, :, ::1],"
        f" {index}[:, :, ::1])")
       for dtype, index in [("float32", "int32"), ("int64", "int64"), ("uint8", "int64")]]
PTX += [(f"search, {dtype}", _search,
         f"void({dtype}[:, ::1], {dtype}[:, ::1], boolean, int64[:, ::1])")
        for dtype in ("float32", "int32")]
