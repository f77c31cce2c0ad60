"""The reduction and nn primitives of the census (issue 14): Histogram,
L2Loss, UniqueConsecutive, UniqueWithPad, ClipByNorm, DataFormatDimMap, GLU,
KLDivLoss, NuclearNorm, ReLUV3 and SoftmaxCrossEntropyWithLogits against
element loops and float64 formulas, with their clear errors."""
import math

import numpy as np
import pytest

FLOATS = ["float16", "float32", "float64"]


@pytest.mark.parametrize("dtype", ["float16", "float32", "int32"])
def test_histogram(call, rng, dtype):
    x = rng.integers(-6, 7, (5, 4)).astype(dtype)
    got = call("Histogram", x, 4, -4.0, 4.0)
    want = [0, 0, 0, 0]
    for v in x.flat:
        if -4 <= v <= 4:
            want[min(int((float(v) + 4) // 2), 3)] += 1
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(got, np.array(want, dtype))
    full = call("Histogram", x, 3)          # min = max = 0: the data's own range
    assert int(full.sum()) == x.size and full[0] == np.count_nonzero(
        x < x.min() + (x.max() - x.min()) / 3)
    if dtype != "int32":
        x.flat[0] = np.nan
        assert call("Histogram", x, 4, -4.0, 4.0)[0] == want[0] + (-4 <= 0)  # NaN: bin 0
    with pytest.raises(ValueError, match="Histogram: need bins >= 1 and min <= max, "
                                         "got bins 0"):
        call("Histogram", x, 0)


@pytest.mark.parametrize("dtype", FLOATS)
def test_l2_loss_and_glu(call, close, rng, dtype):
    x = rng.uniform(-2, 2, (4, 6)).astype(dtype)
    wide = x.astype(np.float64)
    close(call("L2Loss", x), np.array((wide ** 2).sum() / 2, dtype), dtype)
    for axis in (0, -1):
        a, b = np.split(wide, 2, axis=axis)
        close(call("GLU", x, axis), (a / (1 + np.exp(-b))).astype(dtype), dtype)
    with pytest.raises(ValueError, match=r"GLU: axis 0 of x \(3, 6\) must exist and "
                                         "have an even length"):
        call("GLU", x[:3], 0)
    np.testing.assert_array_equal(call("ReLUV3", x), np.maximum(x, 0))


@pytest.mark.parametrize("dim", [None, 0, 1])
def test_unique_consecutive(call, dim):
    x = np.array([[1, 1, 2], [1, 1, 2], [3, 1, 1], [1, 1, 2]], np.int32)
    output, inverse, counts = call("UniqueConsecutive", x, True, True, dim)
    if dim is None:
        want, runs, counts_want = [], [], []
        for v in x.reshape(-1).tolist():
            if not want or v != want[-1]:
                want.append(v)
                counts_want.append(0)
            runs.append(len(want) - 1)
            counts_want[-1] += 1
        np.testing.assert_array_equal(output, want)
        np.testing.assert_array_equal(inverse, np.reshape(runs, x.shape))
        np.testing.assert_array_equal(counts, counts_want)
    else:
        axis_slices = [x[i] if dim == 0 else x[:, i] for i in range(x.shape[dim])]
        starts = [0] + [i for i in range(1, len(axis_slices))
                        if (axis_slices[i] != axis_slices[i - 1]).any()]
        np.testing.assert_array_equal(output, np.take(x, starts, axis=dim))
        assert inverse.tolist() == [sum(s <= i for s in starts) - 1
                                    for i in range(len(axis_slices))]
        assert counts.tolist() == np.diff(starts + [len(axis_slices)]).tolist()
    plain = call("UniqueConsecutive", x)
    assert plain[1].shape == () and plain[2].shape == () and plain[1] == 0


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
def test_unique_with_pad(call, dtype):
    x = np.array([3, 1, 3, 2, 1, 7], dtype)
    values, index = call("UniqueWithPad", x, -1)
    np.testing.assert_array_equal(values, np.array([3, 1, 2, 7, -1, -1], dtype))
    assert index.dtype == (np.dtype(dtype) if "int" in dtype else np.int32)
    np.testing.assert_array_equal(values[index], x)
    with pytest.raises(ValueError, match=r"UniqueWithPad: x must be 1-D, got shape "
                                         r"\(2, 3\)"):
        call("UniqueWithPad", x.reshape(2, 3), 0)


@pytest.mark.parametrize("dtype", FLOATS)
def test_clip_by_norm(call, close, rng, dtype):
    x = rng.uniform(-2, 2, (3, 4)).astype(dtype)
    wide = x.astype(np.float64)
    total = math.sqrt((wide ** 2).sum())
    for limit in (0.5, 100.0):
        want = wide * limit / max(total, limit)
        close(call("ClipByNorm", x, np.array(limit, dtype)), want.astype(dtype), dtype)
    rows = np.sqrt((wide ** 2).sum(axis=1, keepdims=True))
    close(call("ClipByNorm", x, np.array(1.0, dtype), axis=1),
          (wide / np.maximum(rows, 1.0)).astype(dtype), dtype)


def test_data_format_dim_map_follows_mindspore():
    from refinfer.registry import get_op
    run = get_op("DataFormatDimMap").reference
    x = np.arange(-4, 4, dtype=np.int32)
    np.testing.assert_array_equal(run(x), [0, 3, 1, 2, 0, 3, 1, 2])
    np.testing.assert_array_equal(run(x, "NCHW", "NHWC"), [0, 2, 3, 1] * 2)
    np.testing.assert_array_equal(run(x, "NHWC", "NHWC"), [0, 1, 2, 3] * 2)
    with pytest.raises(ValueError, match=r"DataFormatDimMap: input_x must lie in "
                                         r"\[-4, 4\), got \[-4, 4\]"):
        run(np.array([-4, 4], np.int32))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("reduction", ["none", "mean", "sum", "batchmean"])
def test_kl_div_loss(call, close, rng, dtype, reduction):
    logits = rng.uniform(-3, 0, (3, 4)).astype(dtype)
    labels = rng.uniform(0, 1, (3, 4)).astype(dtype)
    labels[0, 0] = 0
    p, q = labels.astype(np.float64), logits.astype(np.float64)
    loss = np.array([[p[i, j] * (math.log(p[i, j]) - q[i, j]) if p[i, j] > 0 else 0.0
                      for j in range(4)] for i in range(3)])
    want = {"none": loss, "mean": loss.mean(), "sum": loss.sum(),
            "batchmean": loss.sum() / 3}[reduction]
    close(call("KLDivLoss", logits, labels, reduction.upper()),
          np.asarray(want).astype(dtype), dtype)
    with pytest.raises(ValueError, match=r"KLDivLoss: reduction must be one of"):
        call("KLDivLoss", logits, labels, "max")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_nuclear_norm(call, close, rng, dtype):
    x = rng.uniform(-2, 2, (3, 2, 4)).astype(dtype)
    got = call("NuclearNorm", x, (0, 2), True)
    assert got.shape == (1, 2, 1)
    want = [np.linalg.svd(x[:, k, :].astype(np.float64), compute_uv=False).sum()
            for k in range(2)]
    close(got, np.array(want, dtype).reshape(1, 2, 1), dtype)
    close(call("NuclearNorm", x[:, 0]), np.array(
        np.linalg.svd(x[:, 0].astype(np.float64), compute_uv=False).sum(), dtype), dtype)
    with pytest.raises(ValueError, match=r"NuclearNorm: without dim, input must be 2-D"):
        call("NuclearNorm", x)
    with pytest.raises(ValueError, match=r"NuclearNorm: dim must name two distinct axes "
                                         r"of input \(3, 2, 4\), got \(1, -2\)"):
        call("NuclearNorm", x, (1, -2))


@pytest.mark.parametrize("dtype", FLOATS)
def test_softmax_cross_entropy_with_logits(call, close, rng, dtype):
    logits = rng.uniform(-3, 3, (4, 5)).astype(dtype)
    labels = rng.uniform(0, 1, (4, 5)).astype(dtype)
    z = logits.astype(np.float64)
    soft = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    loss, backprop = call("SoftmaxCrossEntropyWithLogits", logits, labels)
    close(loss, (-(labels * np.log(soft)).sum(axis=1)).astype(dtype), dtype)
    close(backprop, (soft - labels).astype(dtype), dtype)
    with pytest.raises(ValueError, match=r"SoftmaxCrossEntropyWithLogits: logits and "
                                         r"labels must be 2-D of one shape, got \(4, 5\) "
                                         r"and \(4, 4\)"):
        call("SoftmaxCrossEntropyWithLogits", logits, labels[:, :4])
