"""PixelShuffle, BoundingBoxEncode / BoundingBoxDecode, IOU, HammingWindow,
SubAndFilter, UpdateCache and Print against loops and formulas written apart, with their
clear errors. PixelShuffle has no golden case (MindSpore's CPU graph mode
exports it as Reshape and Transpose), so its loop here is its check."""
import math

import numpy as np
import pytest

from refinfer.registry import get_op


@pytest.mark.parametrize("shape,r",
                         [((1, 8, 2, 3), 2), ((9, 2, 2), 3), ((2, 1, 4, 3, 2), 1)])
def test_pixel_shuffle(call, rng, shape, r):
    x = rng.integers(-9, 9, shape).astype(np.int32)
    got = call("PixelShuffle", x, r)
    *lead, c, h, w = shape
    assert got.shape == (*lead, c // r ** 2, h * r, w * r) and got.dtype == np.int32
    flat_x, flat_y = x.reshape(-1, c, h, w), got.reshape(-1, c // r ** 2, h * r, w * r)
    for n, ch, i, j in np.ndindex(flat_y.shape):
        source = ch * r * r + (i % r) * r + (j % r)
        assert flat_y[n, ch, i, j] == flat_x[n, source, i // r, j // r]


def test_pixel_shuffle_needs_whole_channel_blocks(call):
    with pytest.raises(ValueError, match=r"PixelShuffle: input must be \(..., C \* 2\^2, "
                       r"H, W\) with upscale_factor >= 1, got shape \[3, 2, 2\] and 2"):
        call("PixelShuffle", np.ones((3, 2, 2)), 2)


def _box(b):
    """(cx, cy, w, h) of one inclusive box."""
    w, h = b[2] - b[0] + 1, b[3] - b[1] + 1
    return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2, w, h


def test_bounding_box_encode_and_decode(call):
    anchors = np.array([[0, 0, 10, 10], [2, 3, 8, 9]], np.float32)
    truth = np.array([[1, 1, 9, 12], [3, 1, 5, 6]], np.float32)
    means, stds = (0.1, 0.2, 0.0, -0.1), (1.0, 2.0, 0.5, 1.0)
    deltas = call("BoundingBoxEncode", anchors, truth, means, stds)
    for k in range(2):
        (px, py, pw, ph), (gx, gy, gw, gh) = _box(anchors[k]), _box(truth[k])
        want = [(gx - px) / pw, (gy - py) / ph, math.log(gw / pw), math.log(gh / ph)]
        np.testing.assert_allclose(deltas[k], [(d - m) / s for d, m, s in
                                               zip(want, means, stds)], rtol=1e-6)
    back = call("BoundingBoxDecode", anchors, deltas, (20, 20), means, stds, 0.016)
    np.testing.assert_allclose(back, truth, atol=1e-5)
    clipped = call("BoundingBoxDecode", anchors, deltas, (8, 6), means, stds)
    assert clipped[:, 0::2].max() <= 6 and clipped[:, 1::2].max() <= 8
    wide = call("BoundingBoxDecode", anchors[:1] + 40,
                np.array([[0, 0, 9, 0]], np.float32), (100, 100), wh_ratio_clip=0.5)
    assert wide[0, 2] - wide[0, 0] + 1 == pytest.approx(11 * 2, rel=1e-5)  # e^|log 0.5|
    with pytest.raises(ValueError, match=r"BoundingBoxEncode: groundtruth_box must be "
                       r"\(n, 4\), got shape \[2, 3\]"):
        call("BoundingBoxEncode", anchors, truth[:, :3])
    with pytest.raises(TypeError, match=r"BoundingBoxEncode: groundtruth_box must be "
                       r"float16, float32, float64, got bool\[2, 4\]"):     # fuzz seed 58
        call("BoundingBoxEncode", anchors, truth.astype(bool))


@pytest.mark.parametrize("mode", ["iou", "iof"])
def test_iou(call, rng, mode):
    corners = rng.uniform(0, 10, (5, 2, 2))
    boxes = np.concatenate([corners.min(1), corners.max(1)], 1).astype(np.float32)
    anchors, truth = boxes[:3], boxes[3:]
    got = call("IOU", anchors, truth, mode)
    assert got.shape == (2, 3)
    for i, j in np.ndindex(2, 3):
        g, a = truth[i], anchors[j]
        iw = max(0.0, min(g[2], a[2]) - max(g[0], a[0]) + 1)
        ih = max(0.0, min(g[3], a[3]) - max(g[1], a[1]) + 1)
        area = lambda b: (b[2] - b[0] + 1) * (b[3] - b[1] + 1)     # noqa: E731
        den = area(g) if mode == "iof" else area(g) + area(a) - iw * ih
        assert got[i, j] == pytest.approx(iw * ih / den, rel=1e-5)
    with pytest.raises(ValueError, match=r"IOU: mode must be 'iou' or 'iof', got 'iog'"):
        call("IOU", anchors, truth, "iog")


@pytest.mark.parametrize("length,periodic",
                         [(7, True), (6, False), (1, True), (0, False)])
def test_hamming_window(call, length, periodic):
    got = call("HammingWindow", np.array([length]), periodic, 0.54, 0.46, 0)
    span = length if periodic else length - 1
    want = [0.54 - 0.46 * math.cos(2 * math.pi * n / span) if length > 1 else 1.0
            for n in range(length)]
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    assert call("HammingWindow", np.array([4]), True, 0.5, 0.5, 11).dtype == np.float64
    with pytest.raises(ValueError, match=r"HammingWindow: dtype code must be 0 "
                       r"\(float32\), 1 \(float16\) or 11 \(float64\), got 3"):
        call("HammingWindow", np.array([4]), True, 0.5, 0.5, 3)


def test_sub_and_filter(call):
    ids = np.array([1, 5, 3, 9, 4, 2, 6], np.int64)
    values, positions = call("SubAndFilter", ids, 5, 2)
    kept = [(k, v - 2) for k, v in enumerate(ids) if 0 <= v - 2 < 5]
    assert values.tolist() == [v for _, v in kept] and values.dtype == np.int64
    assert positions.tolist() == [k for k, _ in kept]
    with pytest.raises(ValueError, match=r"SubAndFilter: input_x must be 1-D, got "
                       r"shape \[7, 1\]"):
        call("SubAndFilter", ids[:, None], 5, 2)


def test_update_cache_skips_ids_out_of_range_and_keeps_its_input(call):
    cache = np.arange(15, dtype=np.float32).reshape(5, 3)
    updates = -1 - np.arange(12, dtype=np.float32).reshape(4, 3)
    new = call("UpdateCache", cache, np.array([3, -1, 4, 3], np.int32), updates, 4)
    want = cache.copy()
    want[3] = updates[3]                    # id 3 twice: the last wins
    np.testing.assert_array_equal(new, want)
    assert cache[3].tolist() == [9, 10, 11]     # a new array, the input kept


def test_update_cache_copies_runs_of_updates_shape_1(call):
    """MindSpore's CPU kernel: L = updates.shape[1] elements per id, at id * L
    (numbers from MindSpore 2.7.1 on a (4, 2, 3) cache)."""
    cache = np.arange(24, dtype=np.float32).reshape(4, 2, 3)
    updates = -1 - np.arange(12, dtype=np.float32).reshape(2, 2, 3)
    new = call("UpdateCache", cache, np.array([1, 0], np.int32), updates, 4)
    assert new.reshape(-1)[:6].tolist() == [-3, -4, -1, -2, 4, 5]
    np.testing.assert_array_equal(new.reshape(-1)[6:], cache.reshape(-1)[6:])


@pytest.mark.parametrize("ids,updates_shape,max_num,message", [
    ([1], (1,), 4, r"updates must be at least 2-D, got shape \[1\]"),
    ([1, 2], (1, 3), 4, r"updates \[1, 3\] hold fewer than 2 ids \(indices \[2\]\) "
                        r"of 3 elements"),
    ([1, 6], (2, 3), 9, r"max_num 9 reaches past input_x \[5, 3\]: ids \[6\]"),
])
def test_update_cache_errors(call, ids, updates_shape, max_num, message):
    with pytest.raises(ValueError, match="UpdateCache: " + message):
        call("UpdateCache", np.zeros((5, 3), np.float32), np.array(ids, np.int32),
             np.ones(updates_shape, np.float32), max_num)


def test_print_writes_to_stderr(capsys):
    result = get_op("Print").reference("x is", np.array([1.5, -2], np.float32),
                                       np.arange(2), 3)
    assert result.dtype == np.int32 and result.tolist() == [0]
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [
        "x is",
        "Tensor(shape=[2], dtype=Float32, value=[ 1.50000000e+00 -2.00000000e+00])",
        "Tensor(shape=[2], dtype=Int64, value=[0 1])", "3"]
