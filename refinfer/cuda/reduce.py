"""The ``cuda`` kernels of the reductions: ReduceSum, ReduceMean,
ReduceMax, ReduceMin, ReduceProd, ReduceAll, ReduceAny, SumExt, MeanExt,
ProdExt, Argmax, Argmin, ArgMaxExt, ArgMinExt, ArgMaxWithValue,
ArgMinWithValue, MaxDim, MinDim, Max and Min, declared in :data:`KERNELS`:
one kernel for all of them.

Any set of axes: an output element is the kept axes' index, the reduced
elements are read through the reduced axes' strides (layout.split_axes,
layout.offset), no transpose first. A block reduces one output: its
threads stride over the reduced elements, each combining its own, then
the block combines the threads' partial results through shared memory in
a tree (no warp shuffles: the simulator has none). Short reduced axes
(fewer than LONG elements) take a thread per output instead. Every partial result
is a (value, index) pair, so that one combining step serves the sums and
the searches: an index of -1 marks a thread that read nothing.

Rules as the references: sums and products in the compute dtype
(float16 in float32, integers wrap in their dtype), integer means
truncate toward zero, ReduceMax/ReduceMin propagate NaN, the searches
keep the first of equal values and choose a NaN only when it comes first
(MindSpore's CPU scan), bool sums and maxima are logical or, products and
minima logical and. Empty searches and bool means decline (the reference
raises its error). SumExt/MeanExt/ProdExt cast their input first where the
reference does (to their ``dtype``; SumExt's and ProdExt's bool and
integers to int64), by Cast's kernel.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numba
import numpy as np

from refinfer import registry
from refinfer.ops._ref.common import ALL, compute_dtype
from refinfer.ops._ref.reduce import reduce_axes
from refinfer.ops._ref.search import one_axis

from . import device
from .device import cuda, device_function
from .index import cast
from .layout import flat, offset, split_axes

SUM, PROD, MEAN, MAX, MIN, ALL_OF, ANY_OF, ARGMAX, ARGMIN = range(9)
# Threads of a block (a power of two, for the tree): 128 on a GPU, 8 under
# the simulator (each syncthreads waits for every simulated thread).
THREADS = 8 if device.SIMULATED else 128
DTYPES = frozenset(np.dtype(name) for name in ALL)
# Reduced elements from which a block per output pays: a thread per output
# below (each syncthreads of the tree costs the simulator ~1 ms a thread).
LONG = 32 if device.SIMULATED else 256
BOOL_OPS = {SUM: ANY_OF, MAX: ANY_OF, PROD: ALL_OF, MIN: ALL_OF}


@device_function
def _combine(op, acc, at, v, j):
    """The partial result (acc, at) with (v, j) added: a value and, for
    the searches, its index (-1: nothing yet)."""
    if j < 0:
        return acc, at
    if at < 0:
        return v, j
    if op == SUM or op == MEAN:
        return acc + v, at
    if op == PROD:
        return acc * v, at
    if op == MAX or op == MIN:          # NaN propagates
        if acc != acc or not (v != v or (v > acc if op == MAX else v < acc)):
            return acc, at
        return v, j
    if op == ALL_OF:                    # the first falsy value, else any
        return (v, j) if v == 0 else (acc, at)
    if op == ANY_OF:
        return (v, j) if v != 0 else (acc, at)
    better = v > acc if op == ARGMAX else v < acc
    if better or v == acc and j < at:   # ties: the first index
        return v, j
    return acc, at


@device_function
def _scan(x, base, dims, strides, first, size, step, op, fill):
    """The partial result of the reduced elements first, first + step, ...
    of the output at ``base``; ``fill`` stands for NaN in a search (-inf
    or +inf)."""
    acc, at = fill, -1
    for j in range(first, size, step):
        v = x[base + offset(j, dims, strides)]
        if op >= ARGMAX and v != v:     # NaN never wins a scan...
            v = fill
        acc, at = _combine(op, acc, at, v, j)
    return acc, at


@device_function
def _finish(x, out, index, k, base, dims, strides, size, op, acc, at, empty,
            integer):
    """out[k] (and index[k] for a search) from the combined result;
    ``empty`` is the result of nothing (0 for a sum, 1 for a product)."""
    if at < 0:
        out[k] = empty
    elif op >= ARGMAX:
        first = x[base]                 # ...unless it comes first
        at = 0 if first != first else at
        index[k] = at
        out[k] = x[base + offset(at, dims, strides)]
    elif op == ALL_OF or op == ANY_OF:
        out[k] = acc != 0
    elif op == MEAN and integer:        # the wrapped sum, toward zero
        out[k] = acc
        s = out[k]
        out[k] = s // size if s >= 0 else -(-s // size)
    elif op == MEAN:
        out[k] = acc / size
    else:
        out[k] = acc


@device.jit
def reduce_each(x, out, index, kept_dims, kept_strides, dims, strides, size,
                op, fill, empty, integer):
    """A thread per output in a grid-stride loop: short reduced axes."""
    for k in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        base = offset(k, kept_dims, kept_strides)
        acc, at = _scan(x, base, dims, strides, 0, size, 1, op, fill)
        _finish(x, out, index, k, base, dims, strides, size, op, acc, at, empty,
                integer)


@lru_cache(maxsize=None)
def reduce_blocks(dtype: np.dtype):
    """A block per output, for long reduced axes: the threads' partial
    results (in the compute dtype of ``dtype``; bool as uint8) combined
    through shared memory in a tree."""
    work = numba.from_dtype(_work(dtype))

    @device.jit
    def reduce_tree(x, out, index, kept_dims, kept_strides, dims, strides, size,
               op, fill, empty, integer):
        values = cuda.shared.array(THREADS, work)
        found = cuda.shared.array(THREADS, numba.int64)
        t, threads = cuda.threadIdx.x, cuda.blockDim.x
        for k in range(cuda.blockIdx.x, out.size, cuda.gridDim.x):
            base = offset(k, kept_dims, kept_strides)
            values[t], found[t] = _scan(x, base, dims, strides, t, size, threads,
                                        op, fill)
            cuda.syncthreads()
            step = threads // 2
            while step > 0:
                if t < step:
                    values[t], found[t] = _combine(op, values[t], found[t],
                                                   values[t + step], found[t + step])
                cuda.syncthreads()
                step //= 2
            if t == 0:
                _finish(x, out, index, k, base, dims, strides, size, op, values[0],
                        found[0], empty, integer)
            cuda.syncthreads()          # the shared arrays are reused next
    return reduce_tree


def _work(dtype: np.dtype) -> np.dtype:
    """The dtype partial results are kept in."""
    return np.dtype(np.uint8) if dtype == np.bool_ else compute_dtype(dtype)


def ptx_kernels() -> list[tuple]:
    """(name, Python function, argument types) of both reduction kernels
    for tools/check_ptx.py, for float32, float64, int32 and bool inputs
    (int64 indices)."""
    kernels = []
    for dtype in map(np.dtype, ("float32", "float64", "int32", "bool")):
        value, index = numba.from_dtype(dtype)[::1], numba.int64[::1]
        types = (value, value, index, index, index, index, index, numba.int64,
                 numba.int64, numba.from_dtype(_work(dtype)), value.dtype,
                 numba.boolean)
        kernels += [(f"reduce per thread, {dtype.name}", reduce_each.py_func, types),
                    (f"reduce per block, {dtype.name}", reduce_blocks(dtype).py_func,
                     types)]
    return kernels


def reduce(x, axes, keep_dims: bool, op: int, out_dtype=None, index_dtype=None):
    """``op`` over ``axes`` (wrapped ints) of x: the result (and, for
    the searches, the indices of ``index_dtype`` first) as device arrays,
    or None for a dtype the kernel does not take."""
    dtype = np.dtype(x.dtype)
    if dtype not in DTYPES:
        return None
    if dtype == np.bool_:
        op = BOOL_OPS.get(op, op)
    shape = tuple(x.shape) or (1,)
    axes = tuple(axes) if x.ndim else (0,)
    size = math.prod(shape[a] for a in axes)
    out_shape = tuple(1 if a in axes else n for a, n in enumerate(shape)) \
        if keep_dims else tuple(n for a, n in enumerate(shape) if a not in axes)
    if x.ndim == 0:
        out_shape = ()
    if op in (ALL_OF, ANY_OF):
        out_dtype = np.dtype(np.bool_)
    out = device.empty(out_shape, out_dtype or dtype)
    index = device.empty(out_shape if op >= ARGMAX else 0, index_dtype or np.int64)
    if out.size == 0:
        return (index, out) if op >= ARGMAX else out
    work = _work(dtype)
    fill = work.type((-np.inf if op == ARGMAX else np.inf) if work.kind == "f" else 0)
    empty = {PROD: 1, ALL_OF: 1, MEAN: np.nan if dtype.kind == "f" else 0}
    arguments = (flat(x), flat(out), flat(index), *split_axes(shape, axes), size,
                 op, fill, out.dtype.type(empty.get(op, 0)), dtype.kind in "iu")
    if size < LONG:
        device.launch(reduce_each, out.size, *arguments)
    else:
        device.launch_blocks(reduce_blocks(dtype), out.size, THREADS, *arguments)
    return (index, out) if op >= ARGMAX else out


def _axes(axis, x):
    """reduce_axes of the references (an empty or None axis: all)."""
    return reduce_axes(axis, x.ndim)


def reduction(op: int):
    """The kernel of ReduceMax, ReduceMin, ReduceProd, ReduceAll and
    ReduceAny: (x, axis, keep_dims)."""
    def run(x, axis=(), keep_dims=False):
        axes = _axes(axis, x)
        if op in (MAX, MIN) and x.size == 0:
            return None         # the reference's error
        return reduce(x, axes, keep_dims, op)
    return run


def reduce_sum(x, axis=(), keep_dims=False, skip_mode=False):
    """ReduceSum (skip_mode: x itself for an empty axis)."""
    if skip_mode and not axis:
        return x
    return reduce(x, _axes(axis, x), keep_dims, SUM)


def reduce_mean(x, axis=(), keep_dims=False):
    """ReduceMean; a bool input declines (the reference's TypeError)."""
    if x.dtype == np.bool_:
        return None
    return reduce(x, _axes(axis, x), keep_dims, MEAN)


def extension(op: int):
    """SumExt, MeanExt, ProdExt: the input cast first as the reference
    casts it (ops/_ref/reduce.as_sum_dtype: to ``dtype`` where given, else
    SumExt's and ProdExt's bool and integers to int64), by Cast's kernel;
    a bool mean declines (the reference's TypeError)."""
    def run(input, dim=None, keepdim=False, dtype=None):
        widened = op != MEAN and input.dtype.kind in "biu"
        target = np.dtype(dtype) if dtype is not None else \
            np.dtype(np.int64) if widened else input.dtype
        work = input if target == input.dtype else cast(input, target)
        if work is None or op == MEAN and work.dtype == np.bool_:
            return None
        result = reduce(work, _axes(dim, work), keepdim, op)
        if work is not input:
            device.release(work)    # (the cast made here: no one else reads it)
        return result
    return run


def _search(x, axis, keep_dims, op, index_dtype=np.int64):
    """(indices, values) of the max / min along one axis; None for an
    empty axis (the reference's error)."""
    if x.size == 0:
        return None
    axes = (one_axis(axis, x.ndim),) if x.ndim else ()
    return reduce(x, axes, keep_dims, op, index_dtype=index_dtype)


def arg_typed(op: int):
    """Argmax / Argmin: the index along one axis, of ``output_type``."""
    def run(input_x, axis=-1, output_type=np.dtype(np.int32)):
        found = _search(input_x, axis, False, op, np.dtype(output_type))
        return None if found is None else found[0]
    return run


def arg_index(op: int):
    """ArgMaxExt / ArgMinExt: int64 index along ``dim``, or into the
    flattened input when it is None."""
    def run(input, dim=None, keepdim=False):
        if dim is not None:
            found = _search(input, dim, keepdim, op)
            return None if found is None else found[0]
        found = _search(flat(input), 0, False, op)
        if found is None:
            return None
        return found[0].reshape((1,) * input.ndim) if keepdim else found[0]
    return run


def index_and_value(op: int):
    """ArgMaxWithValue / ArgMinWithValue: (indices, values)."""
    def run(input, axis=0, keep_dims=False):
        return _search(input, axis, keep_dims, op)
    return run


def value_and_index(op: int):
    """MaxDim / MinDim: (values, indices)."""
    def run(input, dim, keepdim=False):
        found = _search(input, dim, keepdim, op)
        return None if found is None else found[::-1]
    return run


def whole(op: int):
    """Max / Min: the extreme of all elements, with the searches' rules."""
    def run(input):
        found = _search(flat(input), 0, False, op)
        return None if found is None else found[1]
    return run


KERNELS = {
    "ReduceSum": reduce_sum, "ReduceMean": reduce_mean,
    "ReduceMax": reduction(MAX), "ReduceMin": reduction(MIN),
    "ReduceProd": reduction(PROD), "ReduceAll": reduction(ALL_OF),
    "ReduceAny": reduction(ANY_OF),
    "SumExt": extension(SUM), "MeanExt": extension(MEAN),
    "ProdExt": extension(PROD),
    "Argmax": arg_typed(ARGMAX), "Argmin": arg_typed(ARGMIN),
    "ArgMaxExt": arg_index(ARGMAX), "ArgMinExt": arg_index(ARGMIN),
    "ArgMaxWithValue": index_and_value(ARGMAX),
    "ArgMinWithValue": index_and_value(ARGMIN),
    "MaxDim": value_and_index(ARGMAX), "MinDim": value_and_index(ARGMIN),
    "Max": whole(ARGMAX), "Min": whole(ARGMIN),
}
registry.declare_kernels("cuda", KERNELS)
