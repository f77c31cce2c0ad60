"""Indexing and rearranging ops against element-by-element loops over every
dtype: BroadcastTo, Slice, Unstack, the splits, GatherD/GatherNd/IndexSelect,
ScatterNd and TensorScatter*, OneHot, MaskedSelect, NonZero, ReverseV2, Roll,
RepeatInterleave, Meshgrid, the view forms and Einsum."""
import itertools

import numpy as np
import pytest

from shape_helpers import DTYPES, loop_fill, same, values


# --- broadcasting and slicing -------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,target,out", [
    ((3, 1), (2, 3, 4), (2, 3, 4)), ((3, 1), (2, -1, 4), (2, 3, 4)),
    ((), (2, 2), (2, 2)), ((1, 0), (3, 0), (3, 0)), ((4,), (4,), (4,))])
def test_broadcast_to(call, dtype, shape, target, out):
    x = values(shape, dtype)
    pad = (1,) * (len(out) - x.ndim) + x.shape
    expected = loop_fill(out, dtype, lambda i: x.reshape(pad)[
        tuple(k if pad[a] > 1 else 0 for a, k in enumerate(i))])
    same(call("BroadcastTo", x, target), expected)
    same(call("ExpandAs", x, np.zeros(out, np.int8)), expected)


@pytest.mark.parametrize("target", [(3,), (2, -1, 1), (-1, 3)])
def test_broadcast_to_rejects(call, target):
    with pytest.raises(ValueError):
        call("BroadcastTo", values((2, 4)), target)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("begin,size", [((0, 1, 1), (2, 2, -1)),
                                        ((1, 0, 3), (1, 3, 1)),
                                        ((0, 3, 0), (2, 0, 4))])
def test_slice(call, dtype, begin, size):
    x = values((2, 3, 4), dtype)
    out = tuple(x.shape[a] - begin[a] if s == -1 else s
                for a, s in enumerate(size))
    expected = loop_fill(out, dtype, lambda i: x[tuple(
        b + k for b, k in zip(begin, i))])
    same(call("Slice", x, begin, size), expected)


@pytest.mark.parametrize("begin,size", [((0, 0), (3, 1)), ((-1, 0), (1, 1)),
                                        ((0,), (1,))])
def test_slice_rejects(call, begin, size):
    with pytest.raises(ValueError):
        call("Slice", values((2, 3)), begin, size)


@pytest.mark.parametrize("dim,start,length", [(1, 1, 2), (-1, -2, 2),
                                              (0, 2, 0)])
def test_narrow(call, dim, start, length):
    x = values((2, 3, 4))
    axis = dim % 3
    first = start % x.shape[axis]
    expected = x.take(range(first, first + length), axis)
    same(call("Narrow", x, dim, start, length), expected)


def test_narrow_rejects_overrun(call):
    with pytest.raises(ValueError):
        call("Narrow", values((2, 3)), 1, 2, 2)
    with pytest.raises(ValueError, match="axis 3 out of range for rank 2"):
        call("Narrow", values((2, 3)), 3, 0, 1)     # (it wrapped to axis 1)


def test_split_and_chunk_refuse_an_axis_out_of_range(call):
    for op, size in (("SplitTensor", 1), ("Chunk", 2)):
        with pytest.raises(ValueError, match="axis 2 out of range for rank 2"):
            call(op, values((2, 3)), size, 2)


# --- splitting and stacking ---------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_unstack(call, dtype, axis):
    x = values((2, 3, 4), dtype)
    got = call("Unstack", x, axis=axis)
    assert isinstance(got, tuple) and len(got) == x.shape[axis]
    for k, part in enumerate(got):
        same(part, loop_fill(np.delete(x.shape, axis % 3), dtype,
                             lambda i: x[i[:axis % 3] + (k,) + i[axis % 3:]]))


def test_unstack_checks_num(call):
    with pytest.raises(ValueError):
        call("Unstack", values((2, 3)), axis=1, num=2)


def pieces(x, sizes, dim):
    """Consecutive runs of ``sizes`` along dim, by explicit index lists."""
    out, start = [], 0
    for size in sizes:
        out.append(x.take(list(range(start, start + size)), dim))
        start += size
    return out


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("sizes,dim", [((1, 3), 2), ((2, 0, 1), 1),
                                       ((2,), 0), ((4, 0), -1)])
def test_split_with_size(call, dtype, sizes, dim):
    x = values((2, 3, 4), dtype)
    got = call("SplitWithSize", x, sizes, dim)
    assert isinstance(got, tuple) and len(got) == len(sizes)
    for part, expected in zip(got, pieces(x, sizes, dim)):
        same(part, expected)


def test_split_with_size_rejects_bad_total(call):
    with pytest.raises(ValueError):
        call("SplitWithSize", values((2, 5)), (2, 2), 1)


@pytest.mark.parametrize("length,size,sizes", [(7, 3, (3, 3, 1)),
                                               (6, 3, (3, 3)),
                                               (2, 5, (2,)), (0, 2, (0,))])
def test_split_tensor(call, length, size, sizes):
    x = values((2, length))
    got = call("SplitTensor", x, size, 1)
    assert [p.shape[1] for p in got] == list(sizes)
    for part, expected in zip(got, pieces(x, sizes, 1)):
        same(part, expected)


@pytest.mark.parametrize("length,chunks,sizes", [(5, 3, (2, 2, 1)),
                                                 (5, 4, (2, 2, 1)),
                                                 (6, 3, (2, 2, 2)),
                                                 (2, 5, (1, 1)), (0, 3, (0,))])
def test_chunk(call, length, chunks, sizes):
    x = values((length, 2))
    got = call("Chunk", x, chunks)
    assert [p.shape[0] for p in got] == list(sizes)
    for part, expected in zip(got, pieces(x, sizes, 0)):
        same(part, expected)


@pytest.mark.parametrize("dtype", DTYPES)
def test_stack_ext(call, dtype):
    a, b = values((2, 3), dtype, 1), values((2, 3), dtype, 2)
    same(call("StackExt", (a, b), 1),
         loop_fill((2, 2, 3), dtype, lambda i: (a, b)[i[1]][i[0], i[2]]))


@pytest.mark.parametrize("shape,start,end,out", [
    ((2, 3, 4, 5), 1, 2, (2, 12, 5)), ((2, 3, 4), 0, -1, (24,)),
    ((2, 3), -1, -1, (2, 3)), ((), 0, -1, (1,)), ((2, 0, 3), 1, 2, (2, 0))])
def test_flatten_ext(call, shape, start, end, out):
    x = values(shape, np.int32)
    same(call("FlattenExt", x, start, end),
         np.array(list(x.flat), np.int32).reshape(out))


# --- gathers ------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_gather_d(call, dtype, dim, rng):
    x = values((3, 4), dtype)
    axis = dim % 2
    index_shape = (2, 3) if axis else (3, 2)
    index = rng.integers(-x.shape[axis], x.shape[axis], index_shape)

    def pick(i):
        source = list(i)
        source[axis] = index[i] % x.shape[axis]
        return x[tuple(source)]
    same(call("GatherD", x, dim, index), loop_fill(index_shape, dtype, pick))


def test_gather_d_rejects_out_of_range(call):
    with pytest.raises(ValueError):
        call("GatherD", values((3, 4)), 1, np.array([[4]]))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("index", [[[0, 3], [2, 1]], [[1], [0]],
                                   [[[2, 0, 1]]], np.zeros((2, 0), np.int64)])
def test_gather_nd(call, dtype, index):
    x = values((3, 4, 2), dtype)
    index = np.asarray(index, np.int64)
    depth = index.shape[-1]
    out = index.shape[:-1] + x.shape[depth:]
    expected = loop_fill(out, dtype, lambda i: x[
        tuple(index[i[:index.ndim - 1]]) + i[index.ndim - 1:]])
    same(call("GatherNd", x, index.astype(np.int32)), expected)


@pytest.mark.parametrize("index", [[[3, 0]], [[-1, 0]], [[0, 0, 0, 0]]])
def test_gather_nd_rejects(call, index):
    with pytest.raises(ValueError):
        call("GatherNd", values((3, 4, 2)), np.array(index))


@pytest.mark.parametrize("dtype", DTYPES)
def test_index_select(call, dtype):
    x = values((2, 4, 3), dtype)
    index = np.array([3, -4, 1, 1])
    same(call("IndexSelect", x, 1, index),
         loop_fill((2, 4, 3), dtype, lambda i: x[i[0], index[i[1]], i[2]]))


# --- scatters -----------------------------------------------------------------

SCATTER_INDEX = np.array([[2], [0], [2]])
COMBINE = {"TensorScatterAdd": lambda a, b: a + b,
           "TensorScatterSub": lambda a, b: a - b,
           "TensorScatterMul": lambda a, b: a * b,
           "TensorScatterMax": max, "TensorScatterMin": min}


def scatter_loop(target, index, updates, combine):
    out = target.copy()
    with np.errstate(over="ignore"):  # uint8 subtraction wraps, as the op's
        for k in range(index.shape[0]):
            _scatter_row(out, tuple(index[k]), updates[k], combine)
    return out


def _scatter_row(out, row, update, combine):
    for j in range(out.shape[1]):
        out[row + (j,)] = update[j] if combine is None \
            else combine(out[row + (j,)], update[j])


@pytest.mark.parametrize("name", sorted(COMBINE))
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32,
                                   np.int64, np.uint8, np.float16])
def test_tensor_scatter_combines_repeats(call, name, dtype):
    x, updates = values((4, 3), dtype, 1), values((3, 3), dtype, 2)
    expected = scatter_loop(x, SCATTER_INDEX, updates, COMBINE[name])
    same(call(name, x, SCATTER_INDEX.astype(np.int32), updates), expected)


@pytest.mark.parametrize("dtype", DTYPES)
def test_tensor_scatter_update_last_wins(call, dtype):
    x, updates = values((4, 3), dtype, 1), values((3, 3), dtype, 2)
    same(call("TensorScatterUpdate", x, SCATTER_INDEX, updates),
         scatter_loop(x, SCATTER_INDEX, updates, None))


@pytest.mark.parametrize("dtype", DTYPES)
def test_scatter_nd_sums_repeats(call, dtype):
    updates = values((3, 3), dtype, 3)
    combine = (lambda a, b: a or b) if dtype == np.bool_ else \
        (lambda a, b: a + b)
    expected = scatter_loop(np.zeros((4, 3), dtype), SCATTER_INDEX, updates,
                            combine)
    same(call("ScatterNd", SCATTER_INDEX, updates, (4, 3)), expected)


def test_scatter_element_indices(call):
    index = np.array([[1, 2], [0, 0]])
    got = call("ScatterNd", index, np.array([5.0, 7.0], np.float32), (2, 3))
    same(got, np.array([[7, 0, 0], [0, 0, 5]], np.float32))


@pytest.mark.parametrize("name", ["ScatterNd", "TensorScatterAdd",
                                  "TensorScatterUpdate"])
@pytest.mark.parametrize("index", [[[4]], [[-1]]])
def test_scatter_rejects_out_of_range(call, name, index):
    args = (np.array(index), np.ones((1, 3), np.float32), (4, 3)) \
        if name == "ScatterNd" else \
        (np.zeros((4, 3), np.float32), np.array(index),
         np.ones((1, 3), np.float32))
    with pytest.raises(ValueError):
        call(name, *args)


def test_scatter_rejects_bad_updates_shape(call):
    with pytest.raises(ValueError):
        call("TensorScatterAdd", np.zeros((4, 3)), np.array([[1]]),
             np.ones((1, 2)))


# --- one-hot, masks, non-zero ---------------------------------------------------

@pytest.mark.parametrize("axis", [-1, 0, 1])
@pytest.mark.parametrize("on,off", [(np.float32(1), np.float32(0)),
                                    (np.int32(3), np.int32(-1)),
                                    (np.float16(2.5), np.float16(0.5))])
def test_one_hot(call, axis, on, off):
    indices = np.array([[0, 4], [-1, 5], [2, 3]])
    depth = 5
    out_shape = list(indices.shape)
    out_shape.insert(axis % 3, depth)

    def value(i):
        i = list(i)
        c = i.pop(axis % 3)
        return on if indices[tuple(i)] == c else off
    expected = loop_fill(tuple(out_shape), np.asarray(on).dtype, value)
    same(call("OneHot", indices, depth, np.asarray(on), np.asarray(off),
              axis), expected)


def test_one_hot_ext_infers_depth(call):
    got = call("OneHotExt", np.array([0, 2]), -1, np.array(1), np.array(0))
    same(got, np.array([[1, 0, 0], [0, 0, 1]]))


@pytest.mark.parametrize("dtype", DTYPES)
def test_masked_select_broadcasts(call, dtype):
    x = values((3, 4), dtype)
    mask = np.array([True, False, False, True])
    expected = [x[i, j] for i in range(3) for j in range(4) if mask[j]]
    same(call("MaskedSelect", x, mask), np.array(expected, dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4,), (3, 4), (2, 0, 3), (2, 2, 2)])
def test_non_zero(call, dtype, shape):
    x = (values(shape, np.int64) % 3 != 0).astype(dtype) * values(shape, dtype)
    coords = [i for i in itertools.product(*map(range, shape)) if x[i]]
    expected = np.array(coords, np.int64).reshape(len(coords), len(shape))
    same(call("NonZero", x), expected)
    got = call("NonZeroExt", x)
    assert len(got) == len(shape)
    for axis, column in enumerate(got):
        same(column, expected[:, axis])


def test_non_zero_rejects_scalar(call):
    with pytest.raises(ValueError):
        call("NonZero", np.array(1.0))


# --- reversing, rolling, repeating ---------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [(0,), (1, 2), (-1,), ()])
def test_reverse_v2(call, dtype, axis):
    x = values((2, 3, 4), dtype)
    flip = {a % 3 for a in axis}
    same(call("ReverseV2", x, axis), loop_fill(x.shape, dtype, lambda i: x[
        tuple(x.shape[a] - 1 - k if a in flip else k
              for a, k in enumerate(i))]))


@pytest.mark.parametrize("shifts,dims", [((1,), (0,)), ((1, -1), (0, 1)),
                                         ((5,), None)])
def test_roll(call, shifts, dims):
    x = values((3, 4), np.int32)
    if dims is None:
        flat = x.reshape(-1)
        expected = np.array([flat[(k - 5) % 12] for k in range(12)],
                            np.int32).reshape(3, 4)
    else:
        shift = dict(zip(dims, shifts))
        expected = loop_fill(x.shape, np.int32, lambda i: x[tuple(
            (k - shift.get(a, 0)) % x.shape[a] for a, k in enumerate(i))])
    same(call("Roll", x, shifts, dims), expected)


@pytest.mark.parametrize("repeats,dim", [(2, 1), (np.array([1, 0, 2]), 0),
                                         (3, None)])
def test_repeat_interleave(call, repeats, dim):
    x = values((3, 2), np.float32)
    rows = x.reshape(-1) if dim is None else np.moveaxis(x, dim, 0)
    counts = np.broadcast_to(repeats, (rows.shape[0],))
    expanded = [rows[k] for k in range(rows.shape[0])
                for _ in range(counts[k])]
    expected = np.array(expanded, np.float32)
    if dim is not None:
        expected = np.moveaxis(expected, 0, dim)
    name = "RepeatInterleaveTensor" if isinstance(repeats, np.ndarray) \
        else "RepeatInterleaveInt"
    same(call(name, x, repeats, dim), expected)


@pytest.mark.parametrize("indexing,code", [("xy", 1), ("ij", 0)])
def test_meshgrid(call, indexing, code):
    a, b = np.arange(3.0), np.arange(10.0, 12.0)
    shape = (2, 3) if indexing == "xy" else (3, 2)
    first = loop_fill(shape, a.dtype,
                      lambda i: a[i[1] if indexing == "xy" else i[0]])
    second = loop_fill(shape, b.dtype,
                       lambda i: b[i[0] if indexing == "xy" else i[1]])
    for spelling in (indexing, code):
        got = call("Meshgrid", (a, b), spelling)
        same(got[0], first)
        same(got[1], second)


# --- view forms -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_view_forms(call, dtype):
    x = values((2, 3, 4), dtype)
    same(call("TransposeView", x, (2, 0, 1)),
         loop_fill((4, 2, 3), dtype, lambda i: x[i[1], i[2], i[0]]))
    same(call("TransposeExtView", x, 0, -1),
         loop_fill((4, 3, 2), dtype, lambda i: x[i[2], i[1], i[0]]))
    same(call("SelectExtView", x, 1, -1),
         loop_fill((2, 4), dtype, lambda i: x[i[0], 2, i[1]]))
    same(call("ViewAs", x, np.zeros((6, 4), np.int8)),
         np.array(list(x.flat), dtype).reshape(6, 4))


@pytest.mark.parametrize("shape", [(3, 4), (4,), ()])
def test_t_ext(call, shape):
    x = values(shape, np.float64)
    expected = loop_fill(shape[::-1], x.dtype, lambda i: x[i[::-1]])
    same(call("TExt", x), expected)


def test_select_ext_view_rejects_out_of_range(call):
    with pytest.raises(ValueError):
        call("SelectExtView", values((2, 3)), 1, 3)


# --- einsum -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64,
                                   np.int32])
@pytest.mark.parametrize("equation,shapes", [
    ("ij,jk->ik", [(3, 4), (4, 2)]), ("bij,bkj->bik", [(2, 3, 4), (2, 5, 4)]),
    ("ii->i", [(3, 3)]), ("ij->", [(2, 3)]), ("...j,j", [(2, 3, 4), (4,)])])
def test_einsum(call, close, dtype, equation, shapes):
    ops = [values(s, dtype, k) % 7 for k, s in enumerate(shapes)]
    expected = np.einsum(equation, *[o.astype(np.float64) for o in ops])
    got = call("Einsum", tuple(ops), equation=equation)
    close(got, expected, dtype)
