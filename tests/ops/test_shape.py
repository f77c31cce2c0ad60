"""Shape and indexing ops: hand-computed shapes, explicit index loops and
hand-written Python slices for StridedSlice's masks."""
import itertools

import numpy as np
import pytest

from refinfer.registry import get_op

DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int32, np.int64,
          np.uint8, np.bool_]


def arange(shape, dtype=np.float32):
    size = int(np.prod(shape, dtype=np.int64))
    values = np.arange(size) % 2 if dtype == np.bool_ else np.arange(size)
    return values.astype(dtype).reshape(shape)


def same(got, expected, dtype=None):
    expected = np.asarray(expected)
    assert isinstance(got, np.ndarray), type(got)
    assert got.dtype == (expected.dtype if dtype is None else dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    np.testing.assert_array_equal(got, expected)


# --- Flatten / Reshape / Transpose / ExpandDims / Squeeze --------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,out", [((2, 3, 4, 5), (2, 60)), ((4,), (4, 1)),
                                       ((3, 2), (3, 2)), ((0, 3, 4), (0, 12)),
                                       ((2, 0, 3), (2, 0))])
def test_flatten(call, dtype, shape, out):
    x = arange(shape, dtype)
    same(call("Flatten", x), np.array(list(x.flat), dtype).reshape(out))


def test_flatten_rejects_scalar(call):
    with pytest.raises(ValueError):
        call("Flatten", np.array(1.0, np.float32))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,target,out", [
    ((2, 3), (3, 2), (3, 2)), ((2, 3), (-1,), (6,)), ((2, 3), (-1, 2), (3, 2)),
    ((2, 3), np.array([1, -1, 3]), (1, 2, 3)), ((1,), (), ()),
    ((), (1, 1), (1, 1)), ((0, 3), (3, -1), (3, 0))])
def test_reshape(call, dtype, shape, target, out):
    x = arange(shape, dtype)
    same(call("Reshape", x, target),
         np.array(list(x.flat), dtype).reshape(out))


def transpose_loop(x, perm):
    perm = [p % x.ndim for p in perm]
    out = np.empty([x.shape[p] for p in perm], x.dtype)
    for idx in itertools.product(*map(range, out.shape)):
        src = [0] * x.ndim
        for k, p in enumerate(perm):
            src[p] = idx[k]
        out[idx] = x[tuple(src)]
    return out


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,perm", [
    ((2, 3), (1, 0)), ((2, 3, 4), (2, 0, 1)), ((2, 3, 4), (-1, 0, -2)),
    ((), ()), ((2, 0, 3), (1, 2, 0)), ((1, 2, 3, 4), (0, 3, 1, 2))])
def test_transpose(call, dtype, shape, perm):
    x = arange(shape, dtype)
    same(call("Transpose", x, perm), transpose_loop(x, perm))


def test_transpose_rejects_wrong_length(call):
    with pytest.raises(ValueError):
        call("Transpose", arange((2, 3)), (0,))


@pytest.mark.parametrize("shape,axis,out", [((2, 3), 0, (1, 2, 3)),
                                            ((2, 3), -1, (2, 3, 1)),
                                            ((2, 3), 1, (2, 1, 3)),
                                            ((), 0, (1,)),
                                            ((0,), np.array(0), (1, 0))])
def test_expand_dims(call, shape, axis, out):
    x = arange(shape, np.int32)
    same(call("ExpandDims", x, axis), np.array(list(x.flat), np.int32)
         .reshape(out))


@pytest.mark.parametrize("shape,axis,out", [
    ((1, 3, 1), (), (3,)), ((1, 3, 1), (-1,), (1, 3)), ((1, 3, 1), 0, (3, 1)),
    ((1, 3, 1), (0, 2), (3,)), ((1, 1), (), ()),
    # MindSpore 2.7.1 keeps a listed axis whose length is not 1.
    ((2, 3), 1, (2, 3)), ((1, 3), (0, 1), (3,)), ((0, 1), (), (0,))])
def test_squeeze(call, shape, axis, out):
    x = arange(shape, np.float64)
    same(call("Squeeze", x, axis), np.array(list(x.flat)).reshape(out))


# --- Concat / Stack / Split --------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_concat(call, dtype):
    a, b = arange((2, 3), dtype), arange((2, 1), dtype)
    expected = np.array([[a[i, 0], a[i, 1], a[i, 2], b[i, 0]]
                         for i in range(2)], dtype)
    same(call("Concat", (a, b), 1), expected)
    same(call("Concat", [a, b[:, [0, 0, 0]]], -2),
         np.array(a.tolist() + b[:, [0, 0, 0]].tolist(), dtype))
    same(call("Concat", (a, a[:0])), a)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_stack(call, dtype, axis):
    xs = [arange((2, 3), dtype), (arange((2, 3), dtype) * 0).astype(dtype)]
    shape = [2, 3]
    shape.insert(axis % 3, 2)
    out = np.empty(shape, dtype)
    for idx in itertools.product(*map(range, shape)):
        k = idx[axis % 3]
        rest = idx[:axis % 3] + idx[axis % 3 + 1:]
        out[idx] = xs[k][rest]
    # Stack is a PRIMITIVE: one input holding the sequence, axis attribute.
    same(call("Stack", xs, axis=axis, num=2, N=2), out)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis,num", [(0, 2), (1, 3), (-1, 1), (1, 1)])
def test_split(call, dtype, axis, num):
    x = arange((4, 3), dtype)
    parts = call("Split", x, axis, num)
    assert isinstance(parts, tuple) and len(parts) == num
    size = x.shape[axis] // num
    for k, part in enumerate(parts):
        idx = [slice(None)] * 2
        idx[axis] = slice(k * size, (k + 1) * size)
        same(part, x[tuple(idx)])


def test_split_rejects_uneven(call):
    with pytest.raises(ValueError):
        call("Split", arange((2, 3)), 1, 2)


@pytest.mark.parametrize("backend", ["reference", "numba"])
@pytest.mark.parametrize("x, axis, num, message", [
    (arange((2, 3)), 2, 1, "axis 2 out of range for rank 2"),
    (arange((2, 3)), -3, 1, "axis -3 out of range for rank 2"),
    (arange((2, 3)), 1, 0, "Split: output_num 0 must divide the length 3 of axis 1"),
    (arange((2, 3)), -1, 2, "Split: output_num 2 must divide the length 3 of axis 1"),
    (arange(()), 0, 1, "Split: input_x must have rank >= 1")])
def test_split_names_a_bad_axis_or_count(backend, x, axis, num, message):
    # NumPy's IndexError or ZeroDivisionError reached the user (issue 17).
    with pytest.raises(ValueError, match=message):
        get_op("Split").kernel(backend)(x, axis, num)


# --- Gather ------------------------------------------------------------------

def gather_loop(params, indices, axis, batch_dims):
    out_shape = (params.shape[:axis] + indices.shape[batch_dims:]
                 + params.shape[axis + 1:])
    out = np.empty(out_shape, params.dtype)
    n_idx = indices.ndim - batch_dims
    for idx in itertools.product(*map(range, out_shape)):
        lead = idx[:axis]
        inner = idx[axis:axis + n_idx]
        tail = idx[axis + n_idx:]
        i = int(indices[lead[:batch_dims] + inner])
        i = i + params.shape[axis] if i < 0 else i
        out[idx] = params[lead + (i,) + tail]
    return out


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("p_shape,i_shape,axis,batch_dims", [
    ((5,), (3,), 0, 0), ((4, 3), (2, 2), 0, 0), ((4, 3), (2,), 1, 0),
    ((2, 3, 4), (), 2, 0), ((2, 3, 4), (2, 5), -1, 1),
    ((2, 3, 4, 2), (2, 3, 2), 2, 2), ((2, 3, 4), (2, 3), 1, 1),
    ((3, 4), (0,), 0, 0)])
def test_gather(call, rng, dtype, p_shape, i_shape, axis, batch_dims):
    params = arange(p_shape, dtype)
    ax = axis % len(p_shape)
    indices = rng.integers(-p_shape[ax], p_shape[ax], i_shape).astype(np.int32)
    same(call("Gather", params, indices, axis, batch_dims),
         gather_loop(params, indices, ax, batch_dims))


def test_gather_embedding_export_form_and_errors(call):
    table = arange((5, 2))
    ids = np.array([[4, 0], [-1, 2]], np.int64)
    same(call("Gather", table, ids, 0, 0), table[[[4, 0], [4, 2]]])
    # MindSpore 2.7.1: x[:, [-1, 0]] of [[1,2,3],[4,5,7]] -> [[3,1],[7,4]].
    x = np.array([[1, 2, 3], [4, 5, 7]], np.float32)
    same(call("Gather", x, np.array([-1, 0], np.int32), 1),
         np.array([[3, 1], [7, 4]], np.float32))
    with pytest.raises(IndexError):
        call("Gather", table, np.array([5]), 0)
    with pytest.raises(ValueError):
        call("Gather", arange((2, 3)), np.zeros((2, 1), np.int32), 0, 1)


@pytest.mark.parametrize("backend", ["reference", "numba"])
@pytest.mark.parametrize("params, indices, axis, error, message", [
    ((5, 2), np.array([1, 7, -9]), 0, IndexError,
     r"Gather: index 7 out of range \[-5, 5\) of axis 0"),
    ((5, 2), np.array([-6]), 0, IndexError, r"index -6 out of range \[-5, 5\)"),
    ((5, 2), np.array([0]), 2, ValueError,
     "Gather: axis 2 out of range for input_params of rank 2"),
    ((5, 2), np.array([0]), -3, ValueError, "axis -3 out of range"),
    ((5, 2), np.array([0.5]), 0, TypeError,
     r"Gather: input_indices must be int8, .*, got float64\[1\]"),
    ((5, 2), (1, 2), 0, TypeError, r"input_indices must be a tensor, got \(1, 2\)"),
    ((), np.array([0]), 0, ValueError, "axis 0 out of range .* rank 0")])
def test_gather_rejects_what_it_cannot_take(backend, params, indices, axis, error,
                                            message):
    # NumPy's own errors named neither the axis length nor the op (issue 17).
    gather = get_op("Gather").kernel(backend)
    with pytest.raises(error, match=message):
        gather(arange(params), indices, axis, 0)


@pytest.mark.parametrize("backend", ["reference", "numba"])
@pytest.mark.parametrize("index, dim, error, message", [
    (np.array([1, 7]), 0, IndexError,
     r"IndexSelect: index 7 out of range \[-5, 5\) of axis 0"),
    (np.array([0]), 2, ValueError,
     "IndexSelect: dim 2 out of range for input of rank 2"),
    (np.array([0.5]), 0, TypeError,
     r"IndexSelect: index must be int8, .*, got float64\[1\]"),
    (np.zeros((1, 1), np.int32), 0, ValueError, r"0-d or 1-D, got shape \(1, 1\)"),
    (3, 0, TypeError, "IndexSelect: index must be a tensor, got 3")])
def test_index_select_rejects_what_it_cannot_take(backend, index, dim, error,
                                                  message):
    # Gather's checks, shared: NumPy's own errors named neither (issue 17).
    index_select = get_op("IndexSelect").kernel(backend)
    with pytest.raises(error, match=message):
        index_select(arange((5, 2)), dim, index)


@pytest.mark.parametrize("backend", ["reference", "numba"])
@pytest.mark.parametrize("ids, weight, error, message", [
    (np.array([1, 5]), (5, 2), IndexError,
     r"Embedding: index 5 out of range \[0, 5\) of weight's rows"),
    (np.array([-1]), (5, 2), IndexError, r"index -1 out of range \[0, 5\)"),
    (np.array([0.0]), (5, 2), TypeError, "Embedding: input must be int8"),
    (np.array([0]), (5,), ValueError, r"weight must be 2-D \(rows, dim\)")])
def test_embedding_rejects_what_it_cannot_take(backend, ids, weight, error,
                                               message):
    embedding = get_op("Embedding").kernel(backend)
    with pytest.raises(error, match=message):
        embedding(ids, arange(weight))


# --- StridedSlice ------------------------------------------------------------

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)

STRIDED_CASES = [
    # (begin, end, strides, masks (begin, end, ellipsis, new_axis, shrink),
    #  the same selection written as a Python index by hand)
    ((0, 1), (2, 3), (1, 1), (0, 0, 0, 0, 0), (slice(0, 2), slice(1, 3))),
    ((1, 2, 3), (0, 0, 0), (-1, -1, -2), (0, 0, 0, 0, 0),
     (slice(1, 0, -1), slice(2, 0, -1), slice(3, 0, -2))),
    ((1, 2, 3), (0, 0, 0), (-1, -1, -2), (0, 7, 0, 0, 0),
     (slice(1, None, -1), slice(2, None, -1), slice(3, None, -2))),
    ((1, 1, 1), (2, 3, 4), (1, 1, 1), (5, 0, 0, 0, 0),
     (slice(None, 2), slice(1, 3), slice(None, 4))),
    ((1, 1, 1), (2, 2, 2), (1, 1, 1), (0, 6, 0, 0, 0),
     (slice(1, 2), slice(1, None), slice(1, None))),
    ((1, 0, 2), (2, 3, 3), (1, 1, 1), (0, 0, 0, 0, 5), (1, slice(0, 3), 2)),
    ((-1, 0, -1), (0, 3, 0), (1, 1, 1), (0, 0, 0, 0, 5),
     (-1, slice(0, 3), -1)),
    ((0, 0), (1, 2), (1, 1), (0, 0, 0, 1, 0), (None, slice(0, 2))),
    ((0, 1), (0, 3), (1, 1), (0, 0, 1, 0, 0), (Ellipsis, slice(1, 3))),
    ((1, 0, 1), (2, 0, 3), (1, 1, 1), (0, 0, 2, 0, 0),
     (slice(1, 2), Ellipsis, slice(1, 3))),
    ((0, 0, 1), (0, 0, 3), (1, 1, 1), (0, 0, 1, 2, 0),
     (Ellipsis, None, slice(1, 3))),
    ((0, 1), (0, 3), (1, 1), (0, 0, 1, 1, 0), (Ellipsis, slice(1, 3))),
    ((0, 1), (1, 2), (1, 1), (0, 0, 0, 1, 1), (None, slice(1, 2))),
    ((1,), (2,), (1,), (0, 0, 0, 0, 0), (slice(1, 2),)),
    ((-100, 1, 5), (100, 100, 100), (1, 1, 1), (0, 0, 0, 0, 0),
     (slice(0, 2), slice(1, 3), slice(4, 4))),
    ((1, 0, 0), (1, 3, 4), (1, 1, 1), (0, 0, 0, 0, 0),
     (slice(1, 1), slice(0, 3), slice(0, 4))),
    ((0, 1), (2, 3), (1, 1), (4, 0, 0, 0, 4), (slice(0, 2), slice(1, 3))),
    ((1, 0, 0), (2, 1, 1), (1, 1, 1), (0, 0, 0, 0, 7), (1, 0, 0)),
    ((0, 0, 0), (2, 3, 4), (2, 2, 3), (0, 0, 0, 0, 0),
     (slice(0, 2, 2), slice(0, 3, 2), slice(0, 4, 3))),
]


@pytest.mark.parametrize("begin,end,strides,masks,index", STRIDED_CASES)
def test_strided_slice_masks(call, begin, end, strides, masks, index):
    same(call("StridedSlice", X, begin, end, strides, *masks), X[index])


def test_strided_slice_masks_are_ints_whatever_type_the_file_gives(call):
    """Fuzz seed 28: a mask attribute re-typed to a float (0.0) raised a
    raw TypeError at ``mask & bit``; masks convert as ints, as begin does."""
    same(call("StridedSlice", X, (0, 1), (2, 3), (1, 1), 0.0, 2.0, 0, 0, 0.0),
         X[0:2, 1:])
    with pytest.raises(TypeError, match="expected an int"):
        call("StridedSlice", X, (0,), (1,), (1,), "mask")


@pytest.mark.parametrize("dtype", DTYPES)
def test_strided_slice_dtypes_and_tensor_arguments(call, dtype):
    x = arange((3, 4), dtype)
    got = call("StridedSlice", x, np.array([0, 1]), np.array([3, 4]),
               np.array([2, 2]), 0, 0, 0, 0, 0)
    same(got, np.array([[x[0, 1], x[0, 3]], [x[2, 1], x[2, 3]]], dtype))


def test_strided_slice_mindspore_values(call):
    # MindSpore 2.7.1 CPU: a begin_mask bit on a shrunk axis selects index 0.
    got = call("StridedSlice", X, (1, 0, 2), (2, 3, 3), (1, 1, 1),
               1, 0, 0, 0, 1)
    same(got, np.array([[2], [6], [10]], np.float32))
    # x[:, :2] written as tensor indexing: begin/end masks, shape (2, 2, 4).
    same(call("StridedSlice", X, (0, 0), (0, 2), (1, 1), 1, 1, 0, 0, 0),
         X[:, :2])


@pytest.mark.parametrize("args", [
    ((5, 0, 0), (6, 1, 1), (1, 1, 1), 0, 0, 0, 0, 1),   # shrink out of range
    ((1, 0, 0), (0, 1, 1), (-1, 1, 1), 0, 0, 0, 0, 1),  # shrink, stride < 0
    ((0, 1, 0), (0, 3, 0), (1, 1, 1), 0, 0, 5, 0, 0),   # two ellipses
    ((0, 0), (1, 1, 1), (1, 1), 0, 0, 0, 0, 0),          # unequal lengths
    ((0,), (1,), (0,), 0, 0, 0, 0, 0),                   # zero stride
])
def test_strided_slice_errors(call, args):
    with pytest.raises((ValueError, IndexError)):
        call("StridedSlice", X, *args)


# --- Shape / Tile / Identity -------------------------------------------------

@pytest.mark.parametrize("shape", [(), (0,), (2, 3), (1, 2, 3, 4)])
def test_shape(call, shape):
    got = call("Shape", np.zeros(shape, np.float32))
    assert got == shape and all(type(d) is int for d in got)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dims,expected", [
    ((2, 1), [[0, 1, 2], [3, 4, 5], [0, 1, 2], [3, 4, 5]]),
    ((1, 2), [[0, 1, 2, 0, 1, 2], [3, 4, 5, 3, 4, 5]]),
    ((2,), [[0, 1, 2, 0, 1, 2], [3, 4, 5, 3, 4, 5]]),
    ((2, 1, 1), [[[0, 1, 2], [3, 4, 5]]] * 2),
    ((0, 1), np.zeros((0, 3)))])
def test_tile(call, dtype, dims, expected):
    got = call("Tile", arange((2, 3), dtype), dims)
    same(got, np.asarray(expected).astype(np.int64).astype(dtype)
         if dtype != np.bool_ else np.asarray(expected).astype(int) % 2 == 1)


def test_identity(call):
    x = arange((2, 2))
    same(call("Identity", x), x)
