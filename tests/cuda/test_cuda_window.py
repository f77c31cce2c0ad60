"""The cuda kernels of the pools (refinfer/cuda/window.py) equal their NumPy
references: MaxPool / AvgPool with VALID and SAME padding (SAME padding
not counted by AvgPool), the 3-D pools with explicit padding, ceil mode,
count_include_pad and divisor_override, the mint average pools (batched
or not), adaptive average pooling (overlapping bins, global pooling,
None keeping an axis), the max pools with indices (ties and NaN) and
MaxUnpool2D (NCHW and NHWC, repeated indices), Im2Col (strides,
dilations, uneven padding); float32 and float64, int32 MaxPool3D; NaN
and infinities in the windows."""
import numpy as np
import pytest

from refinfer import registry
from refinfer.cuda import window

from cuda_check import FLOATS, check, run, values

rng = np.random.default_rng(1345)

ids = lambda d: np.dtype(d).name     # noqa: E731


def with_specials(x):
    """x with a NaN, +inf and -inf in it."""
    flat = x.reshape(-1)
    flat[[1, 7, 12]] = [np.nan, np.inf, -np.inf]
    return x


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
@pytest.mark.parametrize("kernel, strides, pad_mode", [
    ((2, 2), (2, 2), "VALID"), ((3, 3), (2, 2), "SAME"), ((3, 2), (1, 2), "SAME")])
def test_classic_pools(dtype, kernel, strides, pad_mode):
    x = values((2, 2, 5, 6), dtype)
    for op in ("MaxPool", "AvgPool"):
        check(op, x, kernel, strides, pad_mode)
    check("MaxPool", with_specials(x), kernel, strides, pad_mode)


POOL3D = [  # kernel, strides, pad_mode, pad_list, ceil_mode
    ((2, 2, 2), (2, 2, 2), "VALID", (0,) * 6, False),
    ((3, 2, 3), (2, 1, 2), "PAD", (1, 0, 1, 1, 0, 1), False),
    ((3, 3, 2), (2, 2, 3), "PAD", (1, 1, 0, 1, 1, 0), True),
    ((2, 3, 3), (2, 2, 2), "SAME", (0,) * 6, False),
]


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
@pytest.mark.parametrize("geometry", POOL3D, ids=str)
def test_pools_3d(dtype, geometry):
    kernel, strides, pad_mode, pads, ceil_mode = geometry
    x = values((1, 2, 3, 4, 5), dtype)
    check("MaxPool3D", x, kernel, strides, pad_mode, pads, ceil_mode, "NCDHW")
    for include_pad, divisor in [(True, 0), (False, 0), (True, 5)]:
        check("AvgPool3D", x, kernel, strides, pad_mode, pads, ceil_mode,
              include_pad, divisor, "NCDHW", None)


def test_integer_max_pool3d():
    check("MaxPool3D", values((1, 2, 3, 4, 4), np.int32), (2, 2, 2), (1, 2, 2),
          "PAD", (1, 0, 0, 1, 1, 0), False, "NCDHW")


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
@pytest.mark.parametrize("kernel, stride, padding, ceil_mode, include_pad, divisor", [
    ((3,), None, (0,), False, True, None), ((3,), (2,), (1,), True, True, None),
    ((2,), (1,), (1,), False, False, 3)])
def test_mint_avg_pools(dtype, kernel, stride, padding, ceil_mode, include_pad,
                        divisor):
    check("AvgPool1D", values((2, 2, 7), dtype), kernel, stride, padding,
          ceil_mode, include_pad)
    check("AvgPool1D", values((2, 7), dtype), kernel, stride, padding,
          ceil_mode, include_pad)
    check("AvgPool2D", values((1, 2, 5, 6), dtype), kernel, stride, padding,
          ceil_mode, include_pad, divisor)
    check("AvgPool3DExt", values((2, 3, 4, 4), dtype), kernel, stride, padding,
          ceil_mode, include_pad, divisor)


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
def test_adaptive_avg_pools(dtype):
    x = values((2, 3, 5, 7), dtype)
    check("AdaptiveAvgPool2D", x, (3, 4))           # overlapping bins
    check("AdaptiveAvgPool2D", x, (1, 1))           # global pooling
    check("AdaptiveAvgPool2DExt", x, (None, 2))     # None keeps an axis
    check("AdaptiveAvgPool1D", x[0], (3,))
    check("AdaptiveAvgPool3D", values((2, 3, 4, 5), dtype), (2, 2, 3))


@pytest.mark.parametrize("dtype", FLOATS + (np.int32,), ids=ids)
def test_max_pools_with_indices(dtype):
    x = values((1, 2, 5, 6), dtype)
    x[0, 0, 1, 1] = x[0, 0, 1, 2] = x.max() + 1          # a tie: the first
    if dtype != np.int32:
        x[0, 1, 2, 3] = x[0, 1, 2, 4] = np.nan            # the first NaN wins
    check("MaxPoolWithArgmaxV2", x, (2, 3), None, (1, 1), (1, 1), True,
          np.dtype(np.int32))
    check("MaxPoolWithIndices", x, (3, 2), (2, 1), (1, 0), (2, 1), False,
          np.dtype(np.int64))
    check("MaxPoolWithMask", x[0], (2, 2), None, (0, 0), (1, 1), False,
          np.dtype(np.int64))                             # unbatched (C, H, W)
    check("AdaptiveMaxPool2D", x, (3, 4))
    check("AdaptiveMaxPool1D", x[0], (4,))


@pytest.mark.parametrize("dtype", FLOATS + (np.int32,), ids=ids)
def test_classic_and_3d_max_pools_with_argmax(dtype):
    x = values((2, 3, 5, 6), dtype)
    x[0, 1, 1, 1] = x[0, 1, 1, 2] = x.max() + 1          # a tie: the first
    for pad_mode in ("VALID", "SAME"):
        check("MaxPoolWithArgmax", x, (3, 3), (2, 2), pad_mode, "NCHW")
    with pytest.raises(ValueError, match="NCHW input expected"):     # as the reference
        run("MaxPoolWithArgmax", x, (2, 2), (2, 2), "VALID", "NHWC")
    volume = values((1, 2, 3, 4, 5), dtype)
    check("MaxPool3DWithArgmax", volume, (2, 2, 3), (1, 2, 2), (1, 0, 1), (1, 1, 1),
          True, "NCDHW", np.dtype(np.int32))
    check("MaxPool3DWithArgmax", volume, (2, 2, 2), (2, 1, 1), (0, 1, 0), (1, 2, 1),
          False, "NCDHW", np.dtype(np.int64))


@pytest.mark.parametrize("dtype", FLOATS + (np.int32,), ids=ids)
def test_max_unpool2d(dtype):
    x = values((2, 3, 2, 3), dtype)
    argmax = rng.integers(0, 20, x.shape).astype(np.int64)
    argmax[0, 0, 0, :2] = 7                                # a repeat: the last wins
    check("MaxUnpool2D", x, argmax, (2, 3), (2, 2), (0, 1), (), "NCHW")
    check("MaxUnpool2D", x, argmax.astype(np.int32), (2, 3), (0, 0), (0, 0),
          (2, 3, 4, 5), "NCHW")
    nhwc = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    check("MaxUnpool2D", nhwc, np.ascontiguousarray(argmax.transpose(0, 2, 3, 1)),
          (2, 3), (2, 2), (0, 1), (), "NHWC")
    outside = argmax.copy()
    for bad in (20, -1):                          # past the 4 x 5 plane, negative
        outside[1, 2, 1, 2] = bad
        with pytest.raises(ValueError, match="argmax values must lie in"):
            registry.get_op("MaxUnpool2D").reference(x, outside, (2, 3), (2, 2),
                                                     (0, 1), (), "NCHW")
        assert run("MaxUnpool2D", x, outside, (2, 3), (2, 2), (0, 1), (),
                   "NCHW") is None


def test_declines():
    x = values((1, 2, 4, 4), np.float32)
    assert run("MaxPool", x.transpose(0, 2, 3, 1), (2, 2), (2, 2), "VALID",
               "NHWC") is None
    assert run("AdaptiveAvgPool2D", x, (0, 2)) is None


def test_table_is_declared():
    assert all(registry.get_op(op).kernels["cuda"] is kernel
               for op, kernel in window.KERNELS.items())


@pytest.mark.parametrize("dtype", FLOATS + (np.int32, np.int8), ids=ids)
def test_im2col(dtype):
    x = values((2, 2, 5, 6), dtype)
    check("Im2Col", x, (2, 3), (1, 1), (1, 1), (0, 0, 0, 0))
    check("Im2Col", x, (3, 2), (2, 1), (1, 2), (1, 0, 2, 1))
    check("Im2Col", x, (1, 1), (2, 3), (1, 1), (0, 1, 1, 0))


def test_im2col_errors_are_the_references():
    x = values((1, 1, 3, 3), np.float32)
    with pytest.raises(ValueError):
        registry.get_op("Im2Col").reference(x, (5, 5), (1, 1), (1, 1), (0, 0, 0, 0))
    with pytest.raises(ValueError):
        run("Im2Col", x, (5, 5), (1, 1), (1, 1), (0, 0, 0, 0))
    assert run("Im2Col", x[0], (2, 2), (1, 1), (1, 1), (0, 0, 0, 0)) is None
