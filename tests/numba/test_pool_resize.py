"""The pooling and resize kernels (ops/_kernels/window.py, resize.py) equal
their NumPy references: window pools in 1-D, 2-D and 3-D with padding, ceil
mode, dilation and the divisor rules, adaptive pools, nearest and linear
resizes with every coordinate rule; NaN / inf and ties in the max pools;
the dtypes that go back to the reference.

Every check compares the op's ``numba`` kernel with its reference on the
same arguments (kernel_check.check), so argmax conventions and output
dtypes are checked too.
"""
import numpy as np
import pytest

from refinfer.registry import get_op

from kernel_check import FLOATS, check, normal, rng

MAX_POOLS = {"MaxPool3D", "MaxPool3DWithArgmax", "MaxPoolWithArgmax",
             "MaxPoolWithArgmaxV2", "MaxPoolWithIndices", "MaxPoolWithMask"}
AVG_POOLS = {"AvgPool1D", "AvgPool2D", "AvgPool3D", "AvgPool3DExt"}
ADAPTIVE = {"AdaptiveAvgPool1D", "AdaptiveAvgPool2D", "AdaptiveAvgPool2DExt",
            "AdaptiveAvgPool3D", "AdaptiveAvgPool3DExt", "AdaptiveMaxPool1D",
            "AdaptiveMaxPool2D"}
RESIZES = {"ResizeBilinearV2", "ResizeLinear1D", "ResizeNearestNeighbor",
           "ResizeNearestNeighborV2", "UpsampleBilinear2D", "UpsampleLinear1D",
           "UpsampleNearest1D", "UpsampleNearest2D", "UpsampleNearest3D",
           "UpsampleTrilinear3D"}
TESTED = MAX_POOLS | AVG_POOLS | ADAPTIVE | RESIZES | {"ROIAlign"}


def ties(shape, dtype=np.float32):
    """Small integers: many equal values in every window."""
    return rng.integers(-2, 3, shape).astype(dtype)


def with_specials(x):
    """x with NaN, +inf and -inf sprinkled in (about 1 value in 8)."""
    x = x.copy()
    flat = x.reshape(-1)
    spots = rng.choice(flat.size, size=max(flat.size // 8, 3), replace=False)
    flat[spots] = rng.choice([np.nan, np.inf, -np.inf], size=spots.size)
    return x


# -- window pools --------------------------------------------------------------
POOL3D = [  # kernel, strides, pad_mode, pad_list, ceil_mode
    ((2, 2, 2), (2, 2, 2), "VALID", (0,) * 6, False),
    ((3, 3, 3), (2, 2, 2), "SAME", (0,) * 6, False),
    ((3, 2, 3), (2, 1, 2), "PAD", (1, 0, 1, 1, 0, 1), False),
    ((3, 3, 2), (2, 2, 3), "PAD", (1, 1, 0, 1, 1, 0), True),
    ((1, 3, 3), (1, 1, 1), "PAD", (0, 0, 1, 1, 1, 1), False),
]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("geometry", POOL3D, ids=str)
def test_max_and_avg_pool3d(dtype, geometry):
    kernel, strides, pad_mode, pads, ceil_mode = geometry
    x = normal((2, 3, 5, 6, 7), dtype)
    check("MaxPool3D", x, kernel, strides, pad_mode, pads, ceil_mode, "NCDHW")
    check("MaxPool3D", ties(x.shape, dtype), kernel, strides, pad_mode, pads,
          ceil_mode, "NCDHW")
    for include_pad, divisor in [(True, 0), (False, 0), (True, 5)]:
        check("AvgPool3D", x, kernel, strides, pad_mode, pads, ceil_mode,
              include_pad, divisor, "NCDHW", None)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("pads,dilation,ceil_mode", [
    ((0, 1, 1), (1, 1, 1), False), ((0, 0, 0), (1, 2, 2), True),
    ((1, 0, 1), (2, 1, 2), True)])
def test_max_pool3d_with_argmax(dtype, pads, dilation, ceil_mode):
    for x in (normal((2, 2, 5, 7, 8), dtype), ties((2, 2, 5, 7, 8), dtype)):
        for index in (np.dtype(np.int64), np.dtype(np.int32)):
            check("MaxPool3DWithArgmax", x, (2, 3, 3), (1, 2, 2), pads,
                  dilation, ceil_mode, "NCDHW", index)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("pad_mode", ["VALID", "SAME"])
@pytest.mark.parametrize("kernel,strides", [((3, 3), (2, 2)), ((2, 3), (1, 2)),
                                            ((4, 4), (3, 3))])
def test_max_pool_with_argmax(dtype, pad_mode, kernel, strides):
    x = normal((2, 3, 7, 9), dtype)
    check("MaxPoolWithArgmax", x, kernel, strides, pad_mode, "NCHW")
    check("MaxPoolWithArgmax", ties(x.shape, dtype), kernel, strides, pad_mode,
          "NCHW")


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("strides,pads,dilation,ceil_mode", [
    (None, (0, 0), (1, 1), False), ((2, 2), (1, 1), (1, 1), True),
    ((1, 2), (1, 0), (2, 2), True), ((2, 1), (0, 1), (1, 3), False)])
def test_max_pool_with_argmax_v2_and_indices(dtype, strides, pads, dilation,
                                             ceil_mode):
    x = normal((2, 3, 8, 9), dtype)
    for op in ("MaxPoolWithArgmaxV2", "MaxPoolWithIndices", "MaxPoolWithMask"):
        check(op, x, (3, 2), strides, pads, dilation, ceil_mode,
              np.dtype(np.int32))
    check("MaxPoolWithIndices", x[0], (3, 2), strides, pads, dilation,
          ceil_mode, np.dtype(np.int64))      # unbatched (C, H, W)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("kernel,stride,padding,ceil_mode,include_pad,divisor", [
    ((3,), None, (0,), False, True, None), ((3,), (2,), (1,), True, True, None),
    ((4,), (3,), (2,), True, False, None), ((2,), (1,), (1,), False, False, 3)])
def test_mint_avg_pools(dtype, kernel, stride, padding, ceil_mode, include_pad,
                        divisor):
    check("AvgPool1D", normal((2, 3, 11), dtype), kernel, stride, padding,
          ceil_mode, include_pad)
    check("AvgPool1D", normal((3, 11), dtype), kernel, stride, padding,
          ceil_mode, include_pad)
    check("AvgPool2D", normal((2, 3, 9, 10), dtype), kernel, stride, padding,
          ceil_mode, include_pad, divisor)
    check("AvgPool3DExt", normal((2, 2, 6, 7, 8), dtype), kernel, stride,
          padding, ceil_mode, include_pad, divisor)


def test_strided_and_read_only_inputs():
    x = normal((2, 9, 8, 3)).transpose(0, 3, 1, 2)       # NHWC seen as NCHW
    check("MaxPoolWithArgmaxV2", x, (2, 2), None, (0, 0), (1, 1), False,
          np.dtype(np.int64))
    check("ResizeBilinearV2", x, (5, 4), True, False)
    frozen = normal((2, 3, 6, 6))
    frozen.flags.writeable = False
    check("AdaptiveAvgPool2D", frozen, (4, 4))
    check("UpsampleNearest2D", frozen, (12, 9), None)


def test_window_pools_split_across_threads():
    """Planes big enough that the worker threads each take a range."""
    x = normal((2, 16, 96, 96))
    check("MaxPoolWithArgmaxV2", x, (3, 3), (2, 2), (1, 1), (1, 1), True,
          np.dtype(np.int64))
    check("AvgPool2D", x, (3, 3), (1, 1), (1,), False, False, None)
    check("AdaptiveAvgPool2D", x, (7, 5))


# -- NaN, inf and padding in max pools -----------------------------------------
def test_max_pools_nan_and_inf():
    x = with_specials(normal((2, 3, 9, 10)))
    check("MaxPoolWithArgmaxV2", x, (3, 3), (2, 2), (1, 1), (1, 1), True,
          np.dtype(np.int64))
    check("MaxPoolWithArgmax", x, (3, 3), (2, 2), "SAME", "NCHW")
    check("AdaptiveMaxPool2D", x, (4, 3))
    check("AdaptiveMaxPool2D", x, (1, 1))
    x5 = with_specials(normal((1, 2, 4, 5, 6), np.float64))
    check("MaxPool3D", x5, (3, 3, 3), (2, 2, 2), "SAME", (0,) * 6, False, "NCDHW")
    check("MaxPool3DWithArgmax", x5, (2, 2, 2), (1, 2, 1), (1, 1, 0),
          (1, 1, 2), True, "NCDHW", np.dtype(np.int64))


def test_max_pools_first_nan_wins_over_an_earlier_inf():
    x = np.array([np.inf, np.nan, 1.0, np.nan, 2.0, 2.0], np.float32)
    check("AdaptiveMaxPool1D", x.reshape(1, 1, 6), (2,))
    check("MaxPoolWithIndices", x.reshape(1, 1, 1, 6), (1, 3), (1, 3), (0, 0),
          (1, 1), False, np.dtype(np.int64))


def test_max_pool_padding_keeps_index_minus_one_against_minus_inf():
    """A window whose first tap is padding keeps (-inf, -1) when its real
    values are -inf too; one that starts on a real -inf keeps that index."""
    x = np.full((1, 1, 3, 4), -np.inf, np.float32)
    x[0, 0, 2, 3] = np.nan
    check("MaxPoolWithArgmaxV2", x, (2, 2), (1, 1), (1, 1), (1, 1), False,
          np.dtype(np.int64))
    check("MaxPool3DWithArgmax", x[:, :, None], (1, 3, 2), (1, 2, 1), (0, 1, 1),
          (1, 1, 1), True, "NCDHW", np.dtype(np.int64))


# -- adaptive pools ------------------------------------------------------------
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape,out", [
    ((2, 3, 7, 6), (3, 4)), ((2, 3, 14, 14), (7, 7)), ((2, 3, 14, 14), (1, 1)),
    ((2, 3, 5, 4), (7, 6)), ((1, 2, 7, 6), (-1, 2)), ((1, 2, 7, 6), (3, None)),
    ((7, 6), (2, 5)), ((0, 3, 4, 4), (2, 2))], ids=str)
def test_adaptive_pools_2d(dtype, shape, out):
    x = normal(shape, dtype)
    for op in ("AdaptiveAvgPool2D", "AdaptiveAvgPool2DExt", "AdaptiveMaxPool2D"):
        check(op, x, out)
    check("AdaptiveMaxPool2D", ties(shape, dtype), out)


@pytest.mark.parametrize("dtype", FLOATS)
def test_adaptive_pools_1d_3d(dtype):
    x = normal((2, 3, 5, 6, 9), dtype)
    for out in [(2, 3, 4), (1, 1, 1), (5, -1, 4), (7, 8, 10)]:
        check("AdaptiveAvgPool3D", x, out)
        check("AdaptiveAvgPool3DExt", x, out)
    for out in [(4,), (1,), (9,), (13,)]:
        check("AdaptiveAvgPool1D", x, out)
        check("AdaptiveMaxPool1D", x, out)
        check("AdaptiveMaxPool1D", ties(x.shape, dtype), out)


# -- fallbacks -----------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float16, np.int32])
def test_pools_of_other_dtypes_use_the_reference(dtype):
    x = ties((2, 3, 6, 7), dtype)
    check("MaxPoolWithArgmaxV2", x, (3, 3), (2, 2), (1, 1), (1, 1), True,
          np.dtype(np.int64))
    check("AdaptiveMaxPool2D", x, (3, 2))
    if dtype == np.float16:
        check("AdaptiveAvgPool2D", x, (3, 2))
        check("AvgPool2D", x, (3,), (2,), (1,), True, True, None)


def test_pools_report_the_references_errors():
    x = normal((2, 3, 4, 4))
    check("MaxPool3D", x, (2, 2, 2), (1, 1, 1), "VALID", (0,) * 6, False, "NCDHW")
    check("MaxPoolWithArgmaxV2", x, (5, 5), None, (0, 0), (1, 1), False,
          np.dtype(np.int64))
    check("AdaptiveAvgPool2D", x[0, 0, 0], (2, 2, 2))


# -- resizes -------------------------------------------------------------------
SIZES = [(5, 7), (3, 2), (9, 11), (1, 1), (4, 6)]   # the input is 4 x 6
FLAGS = [(False, False), (True, False), (False, True)]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("size", SIZES, ids=str)
@pytest.mark.parametrize("align_corners,half_pixel", FLAGS)
def test_resize_bilinear_and_nearest(dtype, size, align_corners, half_pixel):
    x = normal((2, 3, 4, 6), dtype)
    check("ResizeBilinearV2", x, size, align_corners, half_pixel)
    check("ResizeNearestNeighborV2", x, size, align_corners, half_pixel)
    check("ResizeNearestNeighbor", x, size, align_corners, half_pixel)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8, np.float16,
                                   np.bool_])
def test_resize_nearest_moves_any_dtype(dtype):
    x = rng.integers(0, 2 if dtype == np.bool_ else 100, (2, 3, 4, 6)).astype(dtype)
    check("ResizeNearestNeighborV2", x, (7, 5), True, False)
    check("UpsampleNearest2D", x, None, (2.0,))
    check("ResizeBilinearV2", x.astype(np.float16), (7, 5), False, True)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("align_corners", [False, True])
def test_upsample(dtype, align_corners):
    x1, x2, x3 = (normal(s, dtype) for s in [(2, 3, 7), (2, 3, 5, 6), (1, 2, 3, 4, 5)])
    check("UpsampleNearest1D", x1, (11,), None)
    check("UpsampleNearest1D", x1, None, (2.5,))
    check("UpsampleNearest2D", x2, (9, 4), None)
    check("UpsampleNearest3D", x3, None, (2.0, 1.5, 0.6))
    check("UpsampleLinear1D", x1, (12,), None, align_corners)
    check("UpsampleBilinear2D", x2, None, (1.7, 2.0), align_corners)
    check("UpsampleBilinear2D", x2, (5, 6), None, align_corners)
    check("UpsampleTrilinear3D", x3, (5, 3, 8), None, align_corners)
    check("UpsampleTrilinear3D", x3, None, (2.0,), align_corners)


@pytest.mark.parametrize("dtype", FLOATS)
def test_linear_resize_agrees_with_the_reference_to_the_bit(dtype):
    """The kernel repeats the reference's float operations in its order
    (no fused multiply-adds)."""
    x = normal((2, 3, 5, 7, 9), dtype)
    op = get_op("UpsampleTrilinear3D")
    for size, align_corners in [((9, 4, 13), False), ((3, 11, 5), True)]:
        np.testing.assert_array_equal(
            op.kernel("numba")(x, size, None, align_corners),
            op.reference(x, size, None, align_corners))


@pytest.mark.parametrize("mode", ["align_corners", "half_pixel", "asymmetric"])
def test_resize_linear1d(mode):
    for dtype in FLOATS:
        check("ResizeLinear1D", normal((2, 3, 7), dtype), (12,), mode)
        check("ResizeLinear1D", normal((2, 3, 7), dtype), (3,), mode)


def test_resizes_special_values_empty_inputs_and_threads():
    x = with_specials(normal((2, 3, 5, 6)))
    check("ResizeBilinearV2", x, (9, 8), False, True)     # inf - inf: NaN
    check("UpsampleTrilinear3D", with_specials(normal((1, 2, 3, 4, 5))),
          (4, 6, 7), None, False)
    check("ResizeNearestNeighborV2", x, (9, 8), False, True)
    check("ResizeBilinearV2", normal((0, 3, 4, 6)), (8, 12), False, True)
    check("UpsampleNearest2D", normal((0, 3, 4, 6)), (8, 12), None)
    check("ResizeBilinearV2", normal((2, 3, 4, 6)), (0, 12), False, True)
    big = normal((1, 24, 64, 64))
    check("ResizeBilinearV2", big, (128, 96), False, True)
    check("UpsampleNearest2D", big, None, (2.0,))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("sample_num, end_mode", [(2, 1), (1, 0), (0, 1), (3, 0)])
def test_roi_align(dtype, sample_num, end_mode):
    rng = np.random.default_rng(14)
    features = rng.uniform(-3, 3, (2, 3, 9, 7)).astype(dtype)
    corners = rng.uniform(-2, 11, (6, 4))
    rois = np.concatenate([rng.integers(0, 2, (6, 1)), np.minimum(corners[:, :2],
                                                                  corners[:, 2:]),
                           np.maximum(corners[:, :2], corners[:, 2:])], 1).astype(dtype)
    for scale in (1.0, 0.5):
        check("ROIAlign", features, rois, 2, 3, scale, sample_num, end_mode)
    check("ROIAlign", features, rois[:, :4], 2, 2, 1.0)        # the reference's error
    check("ROIAlign", features[:1], rois, 2, 2, 1.0)            # batch out of range
    rois[3, 2] = np.nan
    check("ROIAlign", features, rois, 2, 2, 1.0)                # not finite
