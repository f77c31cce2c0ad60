"""GridSampler2D/3D, ResizeBicubic and ROIAlign: identities, constants, a
direct evaluation of their formulas at single points, and clear errors."""
import itertools

import numpy as np
import pytest

FLOATS = ["float32", "float16", "float64"]


def identity_grid(sizes):
    """The grid that samples every pixel centre with align_corners (x first)."""
    axes = np.meshgrid(*[np.linspace(-1, 1, n) for n in sizes], indexing="ij")
    return np.stack(axes[::-1], -1)[None]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("op, sizes", [("GridSampler2D", (3, 4)),
                                       ("GridSampler3D", (2, 3, 4))])
@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
def test_grid_sampler_identity_and_padding(call, close, rng, dtype, op, sizes, mode):
    x = rng.uniform(-3, 3, (1, 2) + sizes).astype(dtype)
    grid = identity_grid(sizes).astype(dtype)
    close(call(op, x, grid, mode, "zeros", True), x.astype(np.float64), dtype)
    outside = np.full(grid.shape, 3.0, dtype)           # beyond the last pixel
    close(call(op, x, outside, mode, "zeros", False), np.zeros((1, 2) + grid.shape[1:-1]),
          dtype)
    corner = x[(Ellipsis,) + (slice(-1, None),) * len(sizes)]
    close(call(op, x, outside, mode, "border", False),
          np.broadcast_to(corner, (1, 2) + grid.shape[1:-1]).astype(np.float64), dtype)


@pytest.mark.parametrize("align", [False, True])
def test_grid_sampler_2d_bilinear_point_and_reflection(call, rng, align):
    x = rng.uniform(-3, 3, (1, 1, 4, 5))
    gx, gy = 0.3, -0.55
    px = (gx + 1) / 2 * 4 if align else ((gx + 1) * 5 - 1) / 2
    py = (gy + 1) / 2 * 3 if align else ((gy + 1) * 4 - 1) / 2
    x0, y0 = int(np.floor(px)), int(np.floor(py))
    tx, ty = px - x0, py - y0
    want = ((1 - ty) * ((1 - tx) * x[0, 0, y0, x0] + tx * x[0, 0, y0, x0 + 1])
            + ty * ((1 - tx) * x[0, 0, y0 + 1, x0] + tx * x[0, 0, y0 + 1, x0 + 1]))
    got = call("GridSampler2D", x, np.array([[[[gx, gy]]]]), 0, 0, align)
    np.testing.assert_allclose(got[0, 0, 0, 0], want, rtol=1e-12)
    # reflection about grid value 1 (the last centre, or the outer edge): a
    # point beyond it samples its mirror image
    inside, mirrored = np.array([[[[0.5, 0.0]]]]), np.array([[[[1.5, 0.0]]]])
    np.testing.assert_allclose(call("GridSampler2D", x, mirrored, 0, 2, align),
                               call("GridSampler2D", x, inside, 0, 2, align), rtol=1e-12)


def test_grid_sampler_errors(call):
    x = np.zeros((1, 1, 2, 2), np.float32)
    with pytest.raises(ValueError, match=r"GridSampler2D: interpolation_mode 'bicubic' "):
        call("GridSampler2D", x, np.zeros((1, 1, 1, 2), np.float32), 2)
    with pytest.raises(ValueError, match=r"GridSampler2D: grid of shape \(1, 1, 1, 3\) "
                                         r"does not fit input_x of shape \(1, 1, 2, 2\)"):
        call("GridSampler2D", x, np.zeros((1, 1, 1, 3), np.float32))


def keys(d, a):
    d = abs(d)
    if d <= 1:
        return ((a + 2) * d - (a + 3)) * d * d + 1
    return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a if d < 2 else 0.0


@pytest.mark.parametrize("dtype", FLOATS + ["int32", "uint8"])
@pytest.mark.parametrize("align, half", [(False, False), (True, False), (False, True)])
def test_resize_bicubic(call, rng, dtype, align, half):
    x = rng.integers(0, 9, (1, 2, 5, 6)).astype(dtype)
    out_dtype = np.float64 if dtype == "float64" else np.float32
    same = call("ResizeBicubic", x, (5, 6), False, half)
    assert same.dtype == out_dtype
    np.testing.assert_allclose(same, x, atol=1e-5)
    flat = np.full((1, 1, 4, 4), 2.5, dtype if "float" in dtype else "float32")
    np.testing.assert_allclose(call("ResizeBicubic", flat, (7, 3), align, half), 2.5,
                               rtol=1e-5)
    got = call("ResizeBicubic", x, (3, 8), align, half)
    a = -0.5 if half else -0.75
    row, col = 1, 5

    def source(i, n_in, n_out):
        scale = (n_in - 1) / (n_out - 1) if align else n_in / n_out
        return (i + 0.5) * scale - 0.5 if half else i * scale

    def taps(src, n_in):
        base = int(np.floor(src))
        pairs = [(base + k, keys(src - (base + k), a)) for k in range(-1, 3)]
        if half:
            pairs = [(i, w) for i, w in pairs if 0 <= i < n_in]
            total = sum(w for _, w in pairs)
            pairs = [(i, w / total) for i, w in pairs]
        return [(min(max(i, 0), n_in - 1), w) for i, w in pairs]

    want = sum(wy * wx * x[0, 1, iy, ix].astype(np.float64)
               for (iy, wy), (ix, wx) in itertools.product(taps(source(row, 5, 3), 5),
                                                           taps(source(col, 6, 8), 6)))
    np.testing.assert_allclose(got[0, 1, row, col], want, atol=2e-2)  # 1/1024 steps


def test_resize_bicubic_errors(call):
    with pytest.raises(ValueError, match=r"ResizeBicubic: align_corners and "
                                         r"half_pixel_centers cannot both be set"):
        call("ResizeBicubic", np.zeros((1, 1, 2, 2), np.float32), (3, 3), True, True)


@pytest.mark.parametrize("dtype", FLOATS)
def test_roi_align(call, close, rng, dtype):
    flat = np.full((2, 3, 6, 6), 1.5, dtype)
    rois = np.array([[1, 0.0, 0.0, 4.0, 4.0], [0, 1.0, 2.0, 3.0, 5.0]], dtype)
    close(call("ROIAlign", flat, rois, 2, 3, 1.0), np.full((2, 3, 2, 3), 1.5), dtype)
    # a linear ramp in x: each bin's average is the ramp at the bin centre
    ramp = np.broadcast_to(np.arange(8, dtype=dtype), (1, 1, 8, 8)).copy()
    got = call("ROIAlign", ramp, np.array([[0, 1.0, 1.0, 4.0, 4.0]], dtype), 1, 2, 1.0,
               2, 0)
    close(got, np.array([[[[1.75, 3.25]]]]), dtype)
    with pytest.raises(ValueError, match=r"ROIAlign: rois must have shape \(R, 5\), got "
                                         r"\(2, 4\)"):
        call("ROIAlign", flat, rois[:, :4], 2, 2, 1.0)
    with pytest.raises(ValueError, match=r"ROIAlign: roi 0 names batch 1 of 1"):
        call("ROIAlign", flat[:1], rois, 2, 2, 1.0)
    for value in (np.nan, np.inf):      # (int() of them raised Python's own error)
        unbounded = rois.copy()
        unbounded[1, 4] = value
        with pytest.raises(ValueError, match=r"ROIAlign: roi 1 is not finite"):
            call("ROIAlign", flat, unbounded, 2, 2, 1.0)
