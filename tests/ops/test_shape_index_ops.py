"""Expand, Diag, DiagPart, MatrixBandPart, ChannelShuffle, BatchToSpaceND,
SpaceToBatchND, IndexFill, IndexPut, the ScatterNd* Parameter scatters, the
UnsortedSegment* reductions and Unique against element loops over every dtype,
with their clear errors."""
import itertools

import numpy as np
import pytest

DTYPES = ["float32", "float16", "float64", "int8", "int32", "int64", "uint8", "bool"]
NUMERIC = [d for d in DTYPES if d != "bool"]


def sample(rng, shape, dtype):
    if dtype == "bool":
        return rng.random(shape) < 0.5
    return rng.integers(-20, 20, shape).astype(dtype) if "int" in dtype \
        else rng.uniform(-3, 3, shape).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_expand_and_diag_part(call, rng, dtype):
    x = sample(rng, (3, 1), dtype)
    got = call("Expand", x, np.array([2, -1, 4], np.int32))
    assert got.shape == (2, 3, 4) and (got == x[None]).all()
    cube = sample(rng, (2, 3, 2, 3), dtype)
    want = np.array([[cube[i, j, i, j] for j in range(3)] for i in range(2)], dtype)
    np.testing.assert_array_equal(call("DiagPart", cube), want)
    with pytest.raises(ValueError, match=r"DiagPart: input_x must have shape \(d1, ..., "
                                         r"dk, d1, ..., dk\), got \(3, 2, 3\)"):
        call("DiagPart", cube[0])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("lower, upper", [(0, 0), (1, 0), (-1, 1), (2, -1), (-1, -1)])
def test_matrix_band_part(call, rng, dtype, lower, upper):
    x = sample(rng, (2, 4, 5), dtype)
    want = x.copy()
    for b, i, j in itertools.product(range(2), range(4), range(5)):
        if not ((lower < 0 or i - j <= lower) and (upper < 0 or j - i <= upper)):
            want[b, i, j] = 0
    got = call("MatrixBandPart", x, np.array(lower), np.array(upper))
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape, group", [((2, 6, 3), 3), ((1, 4, 2, 2), 2),
                                          ((1, 5, 1, 1, 2), 5)])
def test_channel_shuffle(call, rng, dtype, shape, group):
    x = sample(rng, shape, dtype)
    got = call("ChannelShuffle", x, group=group)
    per = shape[1] // group
    for out_c in range(shape[1]):
        i, g = divmod(out_c, group)
        np.testing.assert_array_equal(got[:, out_c], x[:, g * per + i])
    with pytest.raises(ValueError, match=r"ChannelShuffle: x of shape \(2, 6, 3\) needs "
                                         r"rank >= 3 and a channel count divisible by "
                                         r"group 4"):
        call("ChannelShuffle", sample(rng, (2, 6, 3), dtype), group=4)


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool"])
@pytest.mark.parametrize("shape, block, crops", [
    ((4, 2, 2, 3), (2, 2), ((0, 0), (1, 0))), ((12, 1, 2, 2), (3, 2), ((1, 2), (0, 1))),
    ((6, 3, 4), (3,), ((1, 1),)), ((2, 1, 1, 2, 2), (1, 2), ((0, 0), (0, 3)))])
def test_batch_to_space_nd(call, rng, dtype, shape, block, crops):
    x = sample(rng, shape, dtype)
    got = call("BatchToSpaceND", x, block_shape=block, crops=crops)
    n, m = shape[0] // int(np.prod(block)), len(block)
    for out_index in itertools.product(*map(range, got.shape)):
        b, rest, where = out_index[0], out_index[1:-m], out_index[-m:]
        full = [w + c[0] for w, c in zip(where, crops)]
        offsets = [f % k for f, k in zip(full, block)]
        flat = int(np.ravel_multi_index(offsets, block))
        source = (flat * n + b,) + rest + tuple(f // k for f, k in zip(full, block))
        assert got[out_index] == x[source]
    with pytest.raises(ValueError,
                       match=r"BatchToSpaceND: input_x of shape \(5, 2, 2\) "):
        call("BatchToSpaceND", sample(rng, (5, 2, 2), dtype), block_shape=(2,),
             crops=((0, 0),))


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool"])
@pytest.mark.parametrize("shape, block, pads", [
    ((1, 2, 4, 2), (2, 2), ((0, 0), (1, 1))), ((2, 1, 4, 3), (3, 2), ((1, 1), (0, 1))),
    ((2, 3, 5), (3,), ((1, 0),))])
def test_space_to_batch_nd(call, rng, dtype, shape, block, pads):
    x = sample(rng, shape, dtype)
    got = call("SpaceToBatchND", x, block_shape=block, paddings=pads)
    m, n = len(block), shape[0]
    padded = np.pad(x, [(0, 0)] * (x.ndim - m) + list(pads))
    for out_index in itertools.product(*map(range, got.shape)):
        offsets = np.unravel_index(out_index[0] // n, block)
        source = ((out_index[0] % n,) + out_index[1:-m]
                  + tuple(h * k + o for h, k, o in zip(out_index[-m:], block, offsets)))
        assert got[out_index] == padded[source]
    back = call("BatchToSpaceND", got, block_shape=block, crops=pads)
    np.testing.assert_array_equal(back, x)
    with pytest.raises(ValueError, match=r"SpaceToBatchND: input_x of shape \(1, 3\) "):
        call("SpaceToBatchND", sample(rng, (1, 3), dtype), block_shape=(2,),
             paddings=((0, 0),))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("block", [2, 3])
def test_depth_to_space_and_back(call, rng, dtype, block):
    x = sample(rng, (2, 2 * block * block, 2, 3), dtype)
    got = call("DepthToSpace", x, block_size=block)
    channels = 2
    for n, c, h, w in itertools.product(*map(range, got.shape)):
        i, j = h % block, w % block
        assert got[n, c, h, w] == x[n, (i * block + j) * channels + c, h // block,
                                    w // block]
    np.testing.assert_array_equal(call("SpaceToDepth", got, block_size=block), x)
    with pytest.raises(ValueError, match=r"SpaceToDepth: height 2 and width 3 must be "
                                         r"divisible by block_size 2"):
        call("SpaceToDepth", x, block_size=2)
    with pytest.raises(ValueError, match=r"DepthToSpace: block_size must be >= 2, got 1"):
        call("DepthToSpace", x, block_size=1)


@pytest.mark.parametrize("dtype", DTYPES)
def test_diag(call, rng, dtype):
    x = sample(rng, (2, 3), dtype)
    got = call("Diag", x)
    assert got.shape == (2, 3, 2, 3) and got.dtype == x.dtype
    for i, j, k, m in itertools.product(range(2), range(3), range(2), range(3)):
        assert got[i, j, k, m] == (x[i, j] if (i, j) == (k, m) else 0)
    np.testing.assert_array_equal(call("DiagPart", got), x)
    with pytest.raises(ValueError, match=r"Diag: input_x must have rank >= 1"):
        call("Diag", x[0, 0].reshape(()))


@pytest.mark.parametrize("dtype", DTYPES)
def test_index_fill(call, rng, dtype):
    x = sample(rng, (2, 4, 3), dtype)
    want = x.copy()
    want[:, [0, 3]] = 1
    np.testing.assert_array_equal(
        call("IndexFill", x, np.array(1), np.array([0, -1, 0], np.int32), np.array(1)),
        want)
    with pytest.raises(IndexError, match=r"IndexFill: index 4 out of range \[-4, 4\) of "
                                         r"axis 1"):
        call("IndexFill", x, 1, np.array([4], np.int32), 0)
    with pytest.raises(TypeError, match=r"IndexFill: index must be int8, .*got float32"):
        call("IndexFill", x, 1, np.array([1.0], np.float32), 0)


@pytest.mark.parametrize("dtype", NUMERIC)
def test_index_put(call, rng, dtype):
    x, value = sample(rng, (4, 3), dtype), sample(rng, (3,), dtype)
    rows = np.array([1, 3, 1], np.int64)
    put = x.copy()
    put[[1, 3]] = value
    np.testing.assert_array_equal(call("IndexPut", x, value, (rows,)), put)
    added = x.copy()
    for r in rows:
        added[r] += value
    np.testing.assert_array_equal(call("IndexPut", x, value, (rows,), accumulate=1),
                                  added)
    point = x.copy()
    point[1, 2] = point[0, 0] = value[0]
    np.testing.assert_array_equal(
        call("IndexPut", x, value[:1], (np.array([1, 0]), np.array([2, 0]))), point)
    with pytest.raises(ValueError, match=r"IndexPut: needs 1 to 2 index tensors for x1 "
                                         r"of shape \(4, 3\), got 3"):
        call("IndexPut", x, value, (rows, rows, rows))
    # (fuzz seed 26: index tensors of 8 and 3 points raised NumPy's IndexError)
    with pytest.raises(ValueError, match=r"IndexPut: indices\[1\] has 3 points, another "
                                         r"index tensor 8; they must have one length"):
        call("IndexPut", x, value[:1], (np.zeros((8, 1), np.int32), rows - 1))
    with pytest.raises(ValueError, match=r"IndexPut: x2 of shape \(2,\) does not "
                                         r"broadcast to the \(3, 3\) values written"):
        call("IndexPut", x, value[:2], (rows,))


SCATTER_ND = {"ScatterNdAdd": lambda a, b: a + b, "ScatterNdSub": lambda a, b: a - b,
              "ScatterNdUpdate": lambda a, b: b, "ScatterNdMul": lambda a, b: a * b,
              "ScatterNdMax": max, "ScatterNdMin": min,
              "ScatterNdDiv": lambda a, b: a / b}


@pytest.mark.parametrize("op, dtype", [
    (op, dtype) for op in sorted(SCATTER_ND)
    for dtype in ["float32", "float64", "int32", "int64"]
    if op != "ScatterNdDiv" or "float" in dtype])      # ScatterNdDiv: floats only
def test_scatter_nd_into_a_parameter(call, rng, op, dtype):
    x, updates = sample(rng, (4, 3), dtype), sample(rng, (3, 3), dtype)
    updates[updates == 0] = 1
    want = x.copy()
    for row, update in zip([1, 3, 1], updates):
        for col in range(3):
            want[row, col] = SCATTER_ND[op](want[row, col], update[col])
    np.testing.assert_allclose(call(op, x, np.array([[1], [3], [1]]), updates), want,
                               rtol=1e-6)
    with pytest.raises(ValueError, match=f"{op}: index out of range for axis 0 of "
                                         "length 4"):
        call(op, x, np.array([[4]]), updates[:1])


def limits(dtype):
    info = np.finfo(dtype) if "float" in dtype else np.iinfo(dtype)
    return info.min, info.max


SEGMENTS = {"Sum": (np.add, lambda d: 0), "Prod": (np.multiply, lambda d: 1),
            "Max": (max, lambda d: limits(d)[0]), "Min": (min, lambda d: limits(d)[1])}


@pytest.mark.parametrize("kind", sorted(SEGMENTS))
@pytest.mark.parametrize("dtype", NUMERIC)
def test_unsorted_segment_reductions(call, rng, kind, dtype):
    x = sample(rng, (2, 3, 2), dtype)
    ids = np.array([[0, 2, 2], [-1, 1, 0]], np.int32)
    combine, empty = SEGMENTS[kind]
    want = np.full((4, 2), empty(dtype), dtype)       # segment 3 stays empty
    with np.errstate(over="ignore"):
        for i, j, k in itertools.product(range(2), range(3), range(2)):
            if ids[i, j] >= 0:
                want[ids[i, j], k] = combine(want[ids[i, j], k], x[i, j, k])
    np.testing.assert_array_equal(call(f"UnsortedSegment{kind}", x, ids, 4), want)
    with pytest.raises(ValueError, match=f"UnsortedSegment{kind}: segment id 2 out of "
                                         r"range \[0, 2\) of num_segments"):
        call(f"UnsortedSegment{kind}", x, ids, 2)


@pytest.mark.parametrize("dtype", NUMERIC)
def test_unique_keeps_first_appearance(call, rng, dtype):
    x = sample(rng, (30,), dtype)
    values, index = call("Unique", x)
    seen = list(dict.fromkeys(x.tolist()))
    np.testing.assert_array_equal(values, np.array(seen, dtype))
    assert index.dtype == np.int32
    np.testing.assert_array_equal(values[index], x)
    with pytest.raises(ValueError,
                       match=r"Unique: input_x must be 1-D, got shape \(2, 2\)"):
        call("Unique", x[:4].reshape(2, 2))
