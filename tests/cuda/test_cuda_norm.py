"""The cuda kernels of the normalisations (refinfer/cuda/norm.py) equal
their NumPy references: every axis of a softmax, LayerNorm's and
LayerNormExt's three outputs, GroupNorm, InstanceNorm, BatchNorm (given
statistics, NHWC, training) and BatchNormExt, L2Normalize; float32 and
float64, float16 computed in float32; NaN and infinities in a row."""
import numpy as np
import pytest

from refinfer import registry
from refinfer.cuda import norm

from cuda_check import FLOATS, check, run, values

ids = lambda d: np.dtype(d).name     # noqa: E731


@pytest.mark.parametrize("dtype", FLOATS + (np.float16,), ids=ids)
@pytest.mark.parametrize("op", ["Softmax", "LogSoftmax", "L2Normalize"])
def test_along_every_axis(op, dtype):
    x = values((3, 4, 5), dtype)
    for axis in ((0,), (1,), (-1,), (2,)):
        check(op, x, axis)


def test_softmax_special_values():
    x = np.array([[1, 2, np.nan], [1, np.inf, 0], [-np.inf, 0, 1], [1000, 0, -1000]],
                 np.float32)
    for op in ("Softmax", "LogSoftmax"):
        check(op, x, (-1,))


def test_log_softmax_ext():
    x = values((2, 3, 4), np.float32)
    check("LogSoftmaxExt", x)
    check("LogSoftmaxExt", x, 2)
    check("LogSoftmaxExt", x, -1)
    assert run("LogSoftmaxExt", x, 1, np.dtype(np.float64)) is None


def test_several_softmax_axes_decline():
    assert run("Softmax", values((2, 3), np.float32), (0, 1)) is None


@pytest.mark.parametrize("dtype", FLOATS + (np.float16,), ids=ids)
@pytest.mark.parametrize("norm_axis, params_axis", [(1, 1), (-1, -1), (2, 1)])
def test_layer_norm(dtype, norm_axis, params_axis):
    x = values((2, 3, 4), dtype)
    shape = x.shape[params_axis % 3:]
    check("LayerNorm", x, values(shape, dtype), values(shape, dtype), norm_axis,
          params_axis, 1e-5)


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
def test_layer_norm_ext(dtype):
    x = values((2, 3, 4), dtype)
    check("LayerNormExt", x, (4,), values((4,), dtype), values((4,), dtype))
    check("LayerNormExt", x, (3, 4), None, None, 1e-3)


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
def test_group_and_instance_norm(dtype):
    x = values((2, 4, 3, 2), dtype)
    w, b = values((4,), dtype), values((4,), dtype)
    check("GroupNorm", x, 2, w, b)
    check("GroupNorm", x, 4, None, None, 1e-3)
    check("InstanceNorm", x, w, b, values((4,), dtype), np.abs(values((4,), dtype)))


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
def test_batch_norm(dtype):
    x = values((2, 3, 2, 2), dtype)
    params = [values((3,), dtype) for _ in range(3)] + [np.abs(values((3,), dtype))]
    check("BatchNorm", x, *params)
    check("BatchNorm", x, *params, True)                            # batch statistics
    check("BatchNorm", values((2, 2, 3), dtype), *params, False, 1e-3, 0.1, "NHWC")


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
def test_batch_norm_ext(dtype):
    x = values((2, 3, 4), dtype)
    w, b, m, v = (values((3,), dtype) for _ in range(4))
    v = np.abs(v)
    check("BatchNormExt", x, w, b, m, v)
    check("BatchNormExt", x, None, None, m, v)
    check("BatchNormExt", x, w, b, m, v, True)
    check("BatchNormExt", x, w, b)                  # no running statistics


def test_mixed_dtypes_decline():
    x = values((2, 3), np.float32)
    assert run("LayerNorm", x, values((3,), np.float64), values((3,), np.float32)) is None


def test_table_is_declared():
    assert all(registry.get_op(op).kernels["cuda"] is kernel
               for op, kernel in norm.KERNELS.items())


@pytest.mark.parametrize("dtype", FLOATS + (np.float16, np.int32), ids=ids)
def test_bias_add(dtype):
    check("BiasAdd", values((2, 3, 2, 2), dtype), values((3,), dtype))
    check("BiasAdd", values((2, 4), dtype), values((4,), dtype))
    check("BiasAdd", values((2, 2, 3), dtype), values((3,), dtype), "NHWC")
    assert run("BiasAdd", values((2, 4), dtype), values((3,), dtype)) is None
