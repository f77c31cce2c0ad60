"""The cuda kernels of the special functions (refinfer/cuda/special.py)
equal their float64 references: random values with the edge values each
reference documents (poles, 0, +-inf, NaN, both sides of each series'
limit), broadcasts and Python numbers, float32 and float64; integers are
refused as the references refuse them, float16 and a refused Mvlgamma
element decline."""
import numpy as np
import pytest
from cuda_check import check, run

from refinfer import registry
from refinfer.cuda import special

rng = np.random.default_rng(1391)
# the same float64 algorithm: each element stops on its own (the reference
# when every element has converged), a few units of 1e-16 apart
TOLERANCE = {np.float32: {"rtol": 1e-6, "atol": 1e-30},
             np.float64: {"rtol": 1e-13, "atol": 1e-300}}
EDGES = [0.0, -0.0, -1.0, -2.5, 0.5, 1.0, 2.0, 11.5, 12.5, 29.0, 31.0, 60.0, -31.0,
         np.inf, -np.inf, np.nan]
UNARY = sorted(name for name, op in special.CODES.items()
               if op in (special.LGAMMA, special.DIGAMMA) or op >= special.BESSEL_J0)
DTYPES = [np.float32, np.float64]


def _unary_values(dtype):
    return np.asarray(np.concatenate([rng.standard_normal(8) * 6, EDGES]), dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", UNARY)
def test_unary(name, dtype):
    check(name, _unary_values(dtype).reshape(2, 12), tolerance=TOLERANCE[dtype])


def _positive(shape, dtype, scale=3.0):
    return np.asarray(np.abs(rng.standard_normal(shape)) * scale + 0.05, dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_zeta(dtype):
    x = np.asarray([1.0, 0.5, 2.0, 2.0, 3.5, 2.0, 4.0, np.nan, 1.5, 3.0], dtype)
    q = np.asarray([1.0, 1.0, 0.0, -2.0, -2.5, -1.5, 20.0, 1.0, 0.3, np.inf], dtype)
    check("Zeta", x, q, tolerance=TOLERANCE[dtype])
    check("Zeta", _positive((2, 5), dtype) + 1, _positive(5, dtype),
          tolerance=TOLERANCE[dtype])
    check("Zeta", _positive((2, 5), dtype) + 1, 0.5, tolerance=TOLERANCE[dtype])


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", ["Igamma", "Igammac"])
def test_incomplete_gamma(name, dtype):
    a = np.asarray([1.0, 0.0, -1.0, 2.0, 2.0, 3.0, 0.5, np.nan, 30.0, 2.0], dtype)
    x = np.asarray([0.0, 1.0, 1.0, np.inf, -1.0, 5.0, 0.2, 1.0, 25.0, 80.0], dtype)
    check(name, a, x, tolerance=TOLERANCE[dtype])
    check(name, _positive((3, 4), dtype), _positive(4, dtype, 6),    # both branches
          tolerance=TOLERANCE[dtype])
    check(name, 2.5, _positive(6, dtype, 6), tolerance=TOLERANCE[dtype])


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_betainc(dtype):
    a = np.asarray([1.0, 2.0, 0.0, 2.0, 2.0, 0.5, 5.0, np.nan], dtype)
    b = np.asarray([1.0, 3.0, 1.0, 2.0, 2.0, 0.5, 1.5, 1.0], dtype)
    x = np.asarray([0.5, 0.0, 0.5, 1.0, 1.5, 0.9, 0.2, 0.5], dtype)
    check("Betainc", a, b, x, tolerance=TOLERANCE[dtype])
    check("Betainc", _positive((2, 6), dtype), _positive(6, dtype),
          np.asarray(rng.random((2, 1)), dtype), tolerance=TOLERANCE[dtype])


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("p", [1, 3])
def test_mvlgamma(p, dtype):
    check("Mvlgamma", _positive((3, 4), dtype) + (p - 1) / 2, p,
          tolerance=TOLERANCE[dtype])


def test_a_refused_mvlgamma_element_declines():
    x = np.asarray([3.0, 0.75, 2.0], np.float32)      # 0.75 <= (3 - 1) / 2
    assert run("Mvlgamma", x, 3) is None
    assert run("Mvlgamma", x, 0) is None
    with pytest.raises(ValueError, match="must exceed"):
        registry.get_op("Mvlgamma").reference(x, 3)


@pytest.mark.parametrize("name", ["BesselK0", "BesselK1e"])
def test_a_subnormal_k_argument_declines(name):
    assert run(name, np.asarray([1.0, 5e-324])) is None
    assert run(name, np.asarray([1.0, 1e-300])) is not None


def test_float16_declines_and_integers_are_refused():
    assert run("Lgamma", np.ones(3, np.float16)) is None
    with pytest.raises(TypeError, match="Igamma: operands must be float"):
        run("Igamma", np.ones(3, np.int32), np.ones(3, np.int32))
