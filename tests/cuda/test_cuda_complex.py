"""The cuda kernels of the complex ops (refinfer/cuda/complex.py) equal
their references: complex64 and complex128 with signed zeros, infinities
and NaN; real tensors (their own real part and conjugate, copies, never
the input itself); broadcasts of Complex and Polar; float16, integers for
Angle and mixed dtypes decline."""
import numpy as np
import pytest
from cuda_check import check, on_device, run

from refinfer import registry
from refinfer.cuda import complex as device_complex

rng = np.random.default_rng(1403)
COMPLEX = [np.complex64, np.complex128]
REALS = [np.float32, np.float64]
PARTS = ["Real", "Imag", "Conj", "Angle", "ComplexAbs"]


def _complex(shape, dtype):
    z = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    z.flat[:6] = [0j, complex(-0.0, 0.0), complex(-2, -0.0), complex(np.inf, 1),
                  complex(3, np.nan), complex(-1e30, 1e30)]
    return z


@pytest.mark.parametrize("dtype", COMPLEX + REALS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", PARTS)
def test_parts(name, dtype):
    x = _complex((3, 4), dtype) if np.dtype(dtype).kind == "c" \
        else np.asarray([[0.0, -0.0, -2.0, np.inf], [np.nan, 1.5, -3.0, 7.0]], dtype)
    check(name, x)


@pytest.mark.parametrize("name", ["Real", "Conj"])
def test_a_real_input_is_copied(name):
    x = on_device(np.arange(4, dtype=np.float32))
    result = registry.get_op(name).kernels["cuda"](x)
    assert result is not x
    np.testing.assert_array_equal(result.copy_to_host(), np.arange(4))


@pytest.mark.parametrize("dtype", REALS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", ["Complex", "Polar"])
def test_complex_of_two_reals(name, dtype):
    a = np.asarray(rng.standard_normal((3, 4)) * 3, dtype)
    b = np.asarray(rng.standard_normal(4) * 3, dtype)
    a[0, :2] = np.inf, np.nan
    check(name, a, b)
    check(name, a[1], a)


def test_declines():
    assert run("Angle", np.arange(3, dtype=np.int32)) is None
    assert run("ComplexAbs", np.ones(3, np.float16)) is None
    assert run("Complex", np.ones(3, np.float32), np.ones(3, np.float64)) is None
    assert run("Polar", np.ones(3, np.float16), np.ones(3, np.float16)) is None
    assert run("Complex", np.ones(3, np.float32), np.ones(2, np.float32)) is None
    assert set(device_complex.KERNELS) == {*PARTS, "Complex", "Polar"}
