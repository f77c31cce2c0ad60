"""The cuda kernels of the convolutions (refinfer/cuda/conv.py) equal their
NumPy references: tiny shapes with stride, dilation, the pad modes,
groups (depthwise included), bias, 1-D to 3-D, forward and transposed, in
float32 and float64; float16 accumulates in float32 as the reference;
Correlate in every pad mode, either sequence the longer, integers too.
Each case stays under ~3000 multiply-adds: the simulator takes ~1.4 us
for each."""
import numpy as np
import pytest

from refinfer import registry
from refinfer.cuda import conv

from cuda_check import FLOATS, check, run, values

ids = lambda d: np.dtype(d).name     # noqa: E731

CONV2D = [
    # (x shape, weight shape, pad_mode, pad, stride, dilation, group)
    ((1, 2, 5, 6), (3, 2, 3, 3), "PAD", (1, 1, 0, 2), (1, 1), (1, 1), 1),
    ((2, 2, 6, 5), (2, 2, 2, 3), "SAME", (0,) * 4, (2, 2), (1, 1), 1),
    ((1, 3, 7, 7), (2, 3, 3, 2), "VALID", (0,) * 4, (2, 1), (2, 2), 1),
    ((1, 4, 5, 5), (4, 2, 3, 3), "PAD", (1,) * 4, (1, 1), (1, 1), 2),   # groups
    ((1, 3, 6, 6), (6, 1, 3, 3), "SAME", (0,) * 4, (2, 2), (1, 1), 3),  # depthwise x2
]


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
@pytest.mark.parametrize("case", CONV2D, ids=str)
def test_conv2d(dtype, case):
    x, w, pad_mode, pad, stride, dilation, group = case
    check("Conv2D", values(x, dtype), values(w, dtype), None, None, 1, pad_mode,
          pad, stride, dilation, group)


def test_conv2d_pad_list_and_float16():
    x, w = values((1, 2, 4, 5), np.float32), values((2, 2, 3, 3), np.float32)
    check("Conv2D", x, w, 2, (3, 3), 1, "PAD", (0,) * 4, (1, 1), (1, 1), 1,
          "NCHW", (1, 0, 2, 1))
    check("Conv2D", x.astype(np.float16), w.astype(np.float16), None, None, 1,
          "SAME", (0,) * 4, (1, 1), (1, 1), 1)


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
def test_conv3d(dtype):
    check("Conv3D", values((1, 2, 3, 4, 4), dtype), values((2, 1, 2, 3, 2), dtype),
          None, None, 1, "PAD", (1, 0, 1, 1, 0, 1), (1, 2, 1), (1, 1, 2), 2)


TORCH = [
    # (x shape, weight shape, stride, padding, dilation, groups)
    ((2, 4, 9), (6, 2, 3), (2,), (1,), (1,), 2),
    ((4, 11), (3, 4, 2), (1,), (2,), (3,), 1),                  # unbatched
    ((1, 2, 5, 6), (3, 2, 3, 3), (1, 2), (1, 0), (2, 1), 1),
    ((1, 2, 3, 4, 3), (2, 1, 2, 1, 2), (2, 1, 1), (0, 1, 1), (1, 2, 1), 2),
]


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
@pytest.mark.parametrize("case", TORCH, ids=str)
def test_torch_convolutions(dtype, case):
    x_shape, w_shape, stride, padding, dilation, groups = case
    x, w, b = values(x_shape, dtype), values(w_shape, dtype), values(w_shape[:1], dtype)
    name = {3: "Conv1DExt", 4: "Conv2DExt", 5: "Conv3DExt"}[len(w_shape)]
    check(name, x, w, b, stride, padding, dilation, groups)
    check("Convolution", x, w, None, stride, padding, dilation, False, (0,), groups)


TRANSPOSED = [
    # (x shape, weight shape, stride, padding, output_padding, groups, dilation)
    ((1, 2, 3, 3), (2, 3, 3, 2), (2,), (1,), (1,), 1, (1,)),
    ((1, 4, 3, 3), (4, 1, 3, 3), (1,), (0,), (0,), 2, (2,)),
    ((2, 2, 4), (2, 3, 3), (2,), (1,), (1,), 1, (1,)),
    ((1, 2, 2, 2, 3), (2, 1, 2, 3, 2), (2, 1, 2), (1, 0, 1), (1, 0, 0), 2, (1, 1, 2)),
]


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
@pytest.mark.parametrize("case", TRANSPOSED, ids=str)
def test_torch_transposed_convolutions(dtype, case):
    x_shape, w_shape, stride, padding, output_padding, groups, dilation = case
    x, w = values(x_shape, dtype), values(w_shape, dtype)
    b = values((w_shape[1] * groups,), dtype)
    check("Convolution", x, w, b, stride, padding, dilation, True, output_padding,
          groups)
    if len(w_shape) == 4:
        check("ConvTranspose2D", x, w, None, stride, padding, output_padding, groups,
              dilation)


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
@pytest.mark.parametrize("op", ("Conv2DBackpropInput", "Conv2DTranspose"))
def test_conv2d_backprop_input(dtype, op):
    check(op, values((1, 4, 3, 2), dtype), values((4, 1, 3, 3), dtype), (1, 2, 6, 4),
          None, None, "PAD", (1, 1, 0, 1), None, 1, (2, 2), (1, 1), 2)
    check(op, values((1, 2, 3, 3), dtype), values((2, 2, 2, 3), dtype), (1, 2, 6, 7),
          None, None, "SAME", (0,) * 4, None, 1, (2, 2), (1, 1), 1)


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
def test_conv3d_transpose(dtype):
    check("Conv3DTranspose", values((1, 2, 2, 3, 2), dtype),
          values((2, 2, 2, 2, 2), dtype), None, None, None, 1, "PAD",
          (1, 0, 0, 1, 1, 1), (2, 1, 2), (1, 1, 1), 1, (1, 0, 1))


def test_special_values_propagate():
    x = values((1, 1, 4, 4), np.float32)
    x[0, 0, 1, 2], x[0, 0, 3, 0] = np.nan, np.inf
    check("Conv2D", x, values((1, 1, 2, 2), np.float32))


@pytest.mark.parametrize("op, args", [
    ("Conv2D", ((1, 3, 5, 5), (2, 2, 3, 3))),          # channels do not fit
    ("Conv2DExt", ((1, 2, 5, 5), (2, 2, 3, 3), (3,))),  # bias of the wrong size
])
def test_unfit_operands_decline(op, args):
    """The reference raises the clear error for these."""
    assert run(op, *(values(s, np.float32) for s in args)) is None


def test_mixed_dtypes_decline():
    assert run("Conv2D", values((1, 1, 3, 3), np.float32),
               values((1, 1, 2, 2), np.float64)) is None


def test_errors_are_the_references():
    """A window larger than the padded input: the reference's ValueError."""
    x, w = values((1, 1, 3, 3), np.float32), values((1, 1, 5, 5), np.float32)
    with pytest.raises(ValueError, match="does not fit"):
        registry.get_op("Conv2D").reference(x, w)
    with pytest.raises(ValueError, match="does not fit"):
        run("Conv2D", x, w)


def test_table_is_declared():
    assert all(registry.get_op(op).kernels["cuda"] is kernel
               for op, kernel in conv.KERNELS.items())


@pytest.mark.parametrize("dtype", FLOATS + (np.int32, np.int8),
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("mode", ["VALID", "SAME", "FULL"])
def test_correlate(dtype, mode):
    a, v = values((7,), dtype), values((4,), dtype)
    check("Correlate", a, v, mode)
    check("Correlate", v, a, mode)                       # the longer second: reversed
    check("Correlate", a, a[:1].copy(), mode)


def test_correlate_declines():
    a = values((5,), np.float32)
    assert run("Correlate", a, values((3,), np.float64)) is None   # promoted
    assert run("Correlate", a.reshape(1, 5), a) is None
    assert run("Correlate", a.astype(np.float16), a.astype(np.float16)) is None
