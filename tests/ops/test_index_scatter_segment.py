"""The row scatters (ScatterAdd ... ScatterDiv), TensorScatterDiv, the sorted
Segment* reductions, the element scatters along an axis (Scatter,
TensorScatterElements, ScatterAddWithAxis), IndexAdd, InplaceIndexAdd,
InplaceUpdateV2, MaskedScatter, EmbeddingLookup, NthElement, ListDiff and
SliceExt against element loops over the dtypes, with their clear errors."""
import itertools

import numpy as np
import pytest

DTYPES = ["float32", "float16", "float64", "int8", "int32", "int64", "uint8"]
FLOATS = ["float16", "float32", "float64"]


def sample(rng, shape, dtype):
    if dtype == "bool":
        return rng.random(shape) < 0.5
    return rng.integers(-20, 20, shape).astype(dtype) if "int" in dtype \
        else rng.uniform(-3, 3, shape).astype(dtype)


ROWS = {"ScatterAdd": lambda a, b: a + b, "ScatterSub": lambda a, b: a - b,
        "ScatterUpdate": lambda a, b: b, "ScatterMul": lambda a, b: a * b,
        "ScatterMax": max, "ScatterMin": min, "ScatterDiv": lambda a, b: a / b}


@pytest.mark.parametrize("op, dtype", [
    (op, dtype) for op in sorted(ROWS) for dtype in ["float32", "float64", "int32"]
    if op != "ScatterDiv" or "float" in dtype])      # ScatterDiv: floats only
def test_row_scatters_into_a_parameter(call, rng, op, dtype):
    x, updates = sample(rng, (4, 3), dtype), sample(rng, (2, 2, 3), dtype)
    updates[updates == 0] = 1
    rows = np.array([[1, 3], [1, 0]])
    want = x.copy()
    for (i, j), col in itertools.product(np.ndindex(2, 2), range(3)):
        want[rows[i, j], col] = ROWS[op](want[rows[i, j], col], updates[i, j, col])
    np.testing.assert_allclose(call(op, x, rows, updates), want, rtol=1e-6)
    with pytest.raises(ValueError, match=f"{op}: index out of range for axis 0 of "
                                         "length 4"):
        call(op, x, np.array([4]), updates[0, :1])
    with pytest.raises(ValueError, match=rf"{op}: updates shape \(2, 2, 3\), expected "
                                         r"\(2, 3\)"):
        call(op, x, rows[0], updates)


@pytest.mark.parametrize("dtype", FLOATS)
def test_tensor_scatter_div_divides_repeats_in_turn(call, rng, dtype):
    x = sample(rng, (4, 3), dtype)
    updates = np.array([[2, 4, -1], [0.5, 1, 8], [2, 2, 2]], dtype)
    want = x.copy()
    for row, update in zip([2, 0, 2], updates):
        want[row] = want[row] / update
    got = call("TensorScatterDiv", x, np.array([[2], [0], [2]], np.int32), updates)
    assert got.dtype == x.dtype
    np.testing.assert_allclose(got, want, rtol=1e-3)
    zero = call("TensorScatterDiv", x[:1] * 0 + 1, np.array([[0]]),
                np.zeros((1, 3), dtype))
    assert np.isinf(zero).all()


SORTED = {"Sum": (lambda v: sum(v), 0), "Prod": (lambda v: np.prod(v), 1),
          "Max": (max, 0), "Min": (min, 0), "Mean": (lambda v: sum(v) / len(v), 0)}


@pytest.mark.parametrize("kind", sorted(SORTED))
@pytest.mark.parametrize("dtype", DTYPES)
def test_sorted_segment_reductions(call, rng, kind, dtype):
    x = rng.integers(0 if dtype == "uint8" else -3, 4, (6, 2)).astype(dtype)
    ids = np.array([1, 1, 3, 3, 3, 4], np.int32)
    reduce, empty = SORTED[kind]
    want = np.full((5, 2), empty, dtype)         # segments 0 and 2 are empty
    for s, k in itertools.product(range(5), range(2)):
        members = [x[j, k].item() for j in range(6) if ids[j] == s]
        if members:
            value = reduce(members)
            want[s, k] = int(value) if "int" in dtype and kind == "Mean" else value
    got = call(f"Segment{kind}", x, ids)
    assert got.dtype == x.dtype
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                               rtol=2e-3 if dtype == "float16" else 1e-6)
    op = f"Segment{kind}"
    with pytest.raises(ValueError, match=f"{op}: segment_ids must be sorted ascending"):
        call(op, x, ids[::-1].copy())
    with pytest.raises(ValueError, match=f"{op}: segment ids must be non-negative, "
                                         "got -1"):
        call(op, x, ids - 2)
    with pytest.raises(ValueError, match=rf"{op}: segment_ids must be 1-D with one id "
                                         r"per row of input_x, got shape \(5,\)"):
        call(op, x, ids[:5])


def along(x, dim, index, src, combine):
    """Scatter along ``dim``, one element at a time."""
    out = x.copy()
    for pos in np.ndindex(index.shape):
        where = list(pos)
        where[dim] = index[pos] % x.shape[dim]
        with np.errstate(over="ignore"):
            out[tuple(where)] = combine(out[tuple(where)], src[pos])
    return out


@pytest.mark.parametrize("dtype", DTYPES + ["bool"])
def test_scatter_along_an_axis(call, rng, dtype):
    x = sample(rng, (3, 4), dtype)
    index = np.array([[2, 0, -1], [1, 1, 0]], np.int64)
    src = sample(rng, (2, 3), dtype)
    want = along(x, 1, index, src, lambda a, b: b)
    np.testing.assert_array_equal(call("Scatter", x, 1, index, src, 0), want)
    np.testing.assert_array_equal(
        call("TensorScatterElements", x, index, src, axis=-1), want)
    if dtype == "bool":
        return
    added = along(x, 0, index, src, lambda a, b: a + b)
    np.testing.assert_array_equal(call("Scatter", x, 0, index, src, "add"), added)
    np.testing.assert_array_equal(
        call("TensorScatterElements", x, index, src, axis=0, reduce=1), added)
    np.testing.assert_array_equal(call("ScatterAddWithAxis", x, index, src), added)
    np.testing.assert_array_equal(call("Scatter", x, 0, index, src, 2),
                                  along(x, 0, index, src, lambda a, b: a * b))
    with pytest.raises(IndexError, match=r"Scatter: index 4 out of range \[-4, 4\) of "
                                         "axis 1"):
        call("Scatter", x, 1, np.where(index == 1, 4, index), src, "none")
    with pytest.raises(ValueError, match=r"TensorScatterElements: updates shape "
                                         r"\(2, 2\) must be index's shape \(2, 3\)"):
        call("TensorScatterElements", x, index, src[:, :2])
    with pytest.raises(ValueError, match=r"unknown reduce 'max'"):
        call("Scatter", x, 1, index, src, "max")


@pytest.mark.parametrize("op", ["IndexAdd", "InplaceIndexAdd"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_index_add(call, rng, op, dtype):
    x = sample(rng, (2, 4, 3), dtype)
    updates = sample(rng, (2, 3, 3), dtype)
    indices = np.array([2, 0, 2], np.int32)
    want = x.copy()
    with np.errstate(over="ignore"):
        for b, j, c in itertools.product(range(2), range(3), range(3)):
            want[b, indices[j], c] += updates[b, j, c]
    np.testing.assert_allclose(call(op, x, indices, updates, axis=-2).astype(float),
                               want.astype(float), rtol=2e-3)
    with pytest.raises(IndexError, match=rf"{op}: index -1 out of range \[0, 4\) of "
                                         "axis 1"):
        call(op, x, indices - 3, updates, axis=1)
    with pytest.raises(ValueError, match=rf"{op}: updates shape \(2, 3, 3\), expected "
                                         r"\(3, 4, 3\)"):
        call(op, x, indices, updates, axis=0)


@pytest.mark.parametrize("dtype", DTYPES + ["bool"])
def test_inplace_update_v2_and_masked_scatter(call, rng, dtype):
    x, v = sample(rng, (4, 3), dtype), sample(rng, (2, 3), dtype)
    want = x.copy()
    want[2], want[0] = v[0], v[1]
    np.testing.assert_array_equal(call("InplaceUpdateV2", x, np.array([2, -4]), v),
                                  want)
    repeated = x.copy()
    repeated[1] = v[1]                  # the last of repeated rows wins (MindSpore too)
    np.testing.assert_array_equal(call("InplaceUpdateV2", x, np.array([1, 1]), v),
                                  repeated)
    with pytest.raises(ValueError, match=r"InplaceUpdateV2: indices must be 1-D"):
        call("InplaceUpdateV2", x, np.array(1), v[:1])
    mask = np.array([[True], [False], [True], [True]])
    source = sample(rng, (10,), dtype)
    filled = x.copy()
    filled[[0, 2, 3]] = source[:9].reshape(3, 3)
    np.testing.assert_array_equal(call("MaskedScatter", x, mask, source), filled)
    with pytest.raises(ValueError, match="MaskedScatter: source has 8 elements, mask "
                                         "selects 9"):
        call("MaskedScatter", x, mask, source[:8])
    with pytest.raises(ValueError, match=r"MaskedScatter: mask shape \(3, 1\) does "
                                         r"not broadcast to input shape \(4, 3\)"):
        call("MaskedScatter", x, mask[:3], source)


@pytest.mark.parametrize("dtype", DTYPES + ["bool"])
def test_embedding_lookup_zeros_rows_outside_the_shard(call, rng, dtype):
    table = sample(rng, (4, 3), dtype)
    indices = np.array([[2, 5], [1, 6], [3, 0]], np.int32)
    got = call("EmbeddingLookup", table, indices, 2)
    assert got.shape == (3, 2, 3) and got.dtype == table.dtype
    for i, j in np.ndindex(3, 2):
        row = indices[i, j] - 2
        want = table[row] if 0 <= row < 4 else np.zeros(3, dtype)
        np.testing.assert_array_equal(got[i, j], want)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reverse", [False, True])
def test_nth_element(call, rng, dtype, reverse):
    x = sample(rng, (2, 3, 5), dtype)
    for n in range(5):
        got = call("NthElement", x, np.array(n, np.int32), reverse=reverse)
        want = np.sort(x, axis=-1)[..., 4 - n if reverse else n]
        np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match=r"NthElement: n must lie in \[0, 5\) of the "
                                         r"last axis of input \(2, 3, 5\), got 5"):
        call("NthElement", x, 5)


@pytest.mark.parametrize("op", ["SliceExt", "SliceExtView"])
def test_slice_ext_slices_as_python(call, rng, op):
    x = sample(rng, (4, 6), "int32")
    for start, end, step in [(-4, 9, 2), (1, 3, 1), (3, 1, 1), (-10, 2, 3)]:
        np.testing.assert_array_equal(call(op, x, -1, start, end, step),
                                      x[:, start:end:step])
    with pytest.raises(ValueError, match="SliceExt: step must be >= 1, got 0"):
        call(op, x, 0, 0, 2, 0)
    with pytest.raises(ValueError, match=r"SliceExt: dim 2 out of range for input of "
                                         r"shape \(4, 6\)"):
        call(op, x, 2, 0, 2, 1)


@pytest.mark.parametrize("dtype", DTYPES)
def test_list_diff_keeps_order_and_repeats(call, dtype):
    x, y = np.array([4, 1, 7, 4, 2, 9], dtype), np.array([4, 9, 3], dtype)
    out, idx = call("ListDiff", x, y)
    np.testing.assert_array_equal(out, np.array([1, 7, 2], dtype))
    assert idx.dtype == np.int32 and idx.tolist() == [1, 2, 4]
    assert call("ListDiff", x, x)[0].shape == (0,)
    with pytest.raises(ValueError, match=r"ListDiff: x and y must be 1-D, got \(2, 3\) "
                                         r"and \(3,\)"):
        call("ListDiff", x.reshape(2, 3), y)
