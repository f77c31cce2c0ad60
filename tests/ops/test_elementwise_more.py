"""The classic elementwise primitives added for the census (issue 14) beside
Python arithmetic, and MindSpore's scalar and in-place spellings (AddScalar,
Divs, InplaceMul, ...), whose results keep the input's dtype as MindSpore
2.7.1 CPU computes them."""
import math

import numpy as np
import pytest

from math_helpers import BINARY_SHAPES, FLOATS, apply, sample

from refinfer.registry import get_op


def test_xdivy_and_mul_no_nan_zero_rules(call, close):
    nan, inf = math.nan, math.inf
    close(call("Xdivy", np.array([0.0, 0.0, 1.0, 2.0, -1.0], np.float32),
               np.array([0.0, nan, 0.0, 4.0, 0.0], np.float32)),
          [0.0, 0.0, inf, 0.5, -inf], np.float32)
    close(call("MulNoNan", np.array([inf, nan, 2.0, 3.0], np.float32),
               np.array([0.0, 0.0, inf, 2.0], np.float32)),
          [0.0, 0.0, inf, 6.0], np.float32)
    close(call("MulNoNan", np.array([1, 2], np.int32), np.array([0, 3], np.int32)),
          np.array([0, 6], np.int32))


def test_truncate_division_by_zero_like_mindspore(call, close):
    x, y = np.array([-7, 7, 5, 0], np.int32), np.array([2, -2, 0, 0], np.int32)
    close(call("TruncateDiv", x, y), np.array([-3, -3, 2**31 - 1, 0], np.int32))
    close(call("TruncateMod", x, y), np.array([-1, 1, 0, 0], np.int32))
    close(call("TruncateMod", np.array([-7.5, 7.5, 5.0], np.float32),
               np.array([2.0, -2.0, 0.0], np.float32)),
          [-1.5, 1.5, math.nan], np.float32, equal_nan=True)
    with pytest.raises(TypeError, match="TruncateDiv does not support bool"):
        call("TruncateDiv", np.array([True]), np.array([True]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_next_after(call, close, rng, dtype):
    for xs, ys in BINARY_SHAPES:
        x, y = sample(rng, xs, dtype), sample(rng, ys, dtype)
        got = call("NextAfter", x, y)
        close(got, np.nextafter(*np.broadcast_arrays(x, y)), dtype, rtol=0, atol=0)
        steps = np.where(np.broadcast_to(x, got.shape) < np.broadcast_to(y, got.shape),
                         got > x, got < x)
        assert steps.all()
    with pytest.raises(TypeError, match="NextAfter: input must be float32 or float64, "
                                        "got float16"):
        call("NextAfter", np.ones(2, np.float16), np.zeros(2, np.float16))


def test_fmax_ignores_nan_and_promotes(call, close):
    nan = math.nan
    close(call("Fmax", np.array([1.0, nan, nan, 2.0], np.float32),
               np.array([nan, 3.0, nan, 1.0], np.float32)),
          [1.0, 3.0, nan, 2.0], np.float32, equal_nan=True)
    close(call("Fmax", np.array([1, 5], np.int32), np.array([2.0, 3.0], np.float32)),
          [2.0, 5.0], np.float32)


@pytest.mark.parametrize("dtype", FLOATS)
def test_inv_floats(call, close, rng, dtype):
    x = sample(rng, (3, 4), dtype, 0.25, 4.0)
    close(call("Inv", x), apply(lambda v: 1 / v, x), dtype)


def test_inv_int32_keeps_its_dtype(call, close):
    # 1 / x in float, converted back as MindSpore's Cast: 1 / 0 = inf -> -2**31
    close(call("Inv", np.array([2, 0, -4, 1, -1], np.int32)),
          np.array([0, -2**31, 0, 1, -1], np.int32))


def test_approximate_equal_is_strict(call, close):
    x = np.array([1.0, 1.0, 1.0, math.nan, -2.0], np.float32)
    y = np.array([1.5, 1.4, 2.0, math.nan, -2.25], np.float32)
    close(call("ApproximateEqual", x, y, tolerance=0.5),
          np.array([False, True, False, False, True]))
    close(call("ApproximateEqual", x, y), np.array([False, False, False, False, False]))
    close(call("ApproximateEqual", x.astype(np.float16), y.astype(np.float16), 0.5),
          np.array([False, True, False, False, True]))


def test_equal_count_and_square_sum_all(call, close):
    close(call("EqualCount", np.array([1, 2, 3], np.int32), np.array([1, 0, 3], np.int32)),
          np.array([2], np.int32))
    close(call("EqualCount", np.array([1.0, math.nan]), np.array([1.0, math.nan])),
          np.array([1.0]))
    with pytest.raises(ValueError, match=r"EqualCount: x \(2,\) and y \(3,\) must have "
                                         "one shape"):
        call("EqualCount", np.zeros(2), np.zeros(3))
    x, y = np.array([1.0, 2.0], np.float16), np.array([[3.0, 4.0]], np.float16)
    sums = call("SquareSumAll", x, y)
    assert isinstance(sums, tuple) and len(sums) == 2
    close(sums[0], np.array(5.0), np.float16)
    close(sums[1], np.array(25.0), np.float16)


@pytest.mark.parametrize("dtype", FLOATS)
def test_eps_is_the_machine_epsilon(call, close, dtype):
    got = call("Eps", np.zeros((2, 0, 3), dtype) if dtype == np.float64
               else np.ones((2, 3), dtype))
    close(got, np.full(got.shape, 2.0 ** -{np.float16: 10, np.float32: 23,
                                           np.float64: 52}[dtype]), dtype, rtol=0, atol=0)
    with pytest.raises(TypeError, match="Eps: x must be a float tensor, got int32"):
        call("Eps", np.ones(2, np.int32))


def test_add_n(call, close):
    tensors = (np.array([1, 2**31 - 1], np.int32), np.array([3, 1], np.int32))
    close(call("AddN", tensors), np.array([4, -2**31], np.int32))
    close(call("AddN", [np.float32(0.5) * np.ones((2, 2), np.float32)] * 3),
          np.full((2, 2), 1.5), np.float32)
    with pytest.raises(ValueError, match=r"AddN: the tensors must have one shape, got "
                                         r"\[\(2,\), \(3,\)\]"):
        call("AddN", (np.zeros(2), np.zeros(3)))


@pytest.mark.parametrize("p,dim", [(2, 0), (1, 1), (3.0, -1)])
def test_renorm(call, close, rng, p, dim):
    x = sample(rng, (3, 4), np.float32, -3.0, 3.0)
    x[1] *= 0.01            # a slice already within maxnorm
    got = call("Renorm", x, p=p, dim=dim, maxnorm=1.0)
    slices = np.moveaxis(x.astype(np.float64), dim, 0)
    expected = []
    for s in slices:
        norm = sum(abs(v) ** p for v in s.ravel()) ** (1 / p)
        expected.append(s * (1.0 / (norm + 1e-7) if norm > 1.0 else 1.0))
    close(got, np.moveaxis(np.array(expected), 0, dim), np.float32)
    with pytest.raises(ValueError, match="Renorm: p must be > 0 and maxnorm >= 0"):
        call("Renorm", x, p=0, dim=0, maxnorm=1.0)


# -- the scalar and in-place spellings -----------------------------------------------
def test_scalar_spellings_follow_their_op(call, close):
    x = np.array([7, -5, 3], np.int32)
    close(call("AddScalar", x, 2.5), [9.5, -2.5, 5.5], np.float32)
    close(call("AddScalar", x, 2, 3), np.array([13, 1, 9], np.int32))
    close(call("SubScalar", x.astype(np.float16), 1.5, 2), [4.0, -8.0, 0.0], np.float16)
    # Divs computes in input's dtype: 2.5 -> 2, then 7 / 2 = 3.5 -> 3
    close(call("Divs", x, 2.5), np.array([3, -2, 1], np.int32))
    close(call("Divs", x.astype(np.float32), 2.0), [3.5, -2.5, 1.5], np.float32)


# in-place op -> (its op, other operand, alpha or None)
INPLACE = {"InplaceAddExt": ("AddExt", 2), "InplaceAddsExt": ("AddExt", 2),
           "InplaceSubExt": ("SubExt", 2), "InplaceSubScalar": ("SubExt", 2),
           "InplaceMul": ("Mul", None), "InplaceMuls": ("Mul", None),
           "InplaceDiv": ("Div", None), "InplaceDivs": ("Div", None),
           "InplaceFloorDivide": ("FloorDiv", None),
           "InplaceFloorDivides": ("FloorDiv", None),
           "InplaceRemainderTensorTensor": ("RemainderTensorTensor", None),
           "InplaceRemainderTensorScalar": ("RemainderTensorTensor", None)}


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_ops_write_into_input(call, close, rng, name):
    base, alpha = INPLACE[name]
    op = get_op(name)
    assert op.mutates == "input" and op.recipe is None
    assert [p.name for p in op.params] == [p.name for p in get_op(base).params]
    extra = () if alpha is None else (alpha,)
    x = sample(rng, (2, 3), np.float32)
    y = sample(rng, (3,), np.float32, 0.5, 3.0)
    close(call(name, x, y, *extra), call(base, x, y, *extra), np.float32)
    # an int32 input: other converted to int32 first, the result back
    ints = sample(rng, (2, 3), np.int32, -9, 9)
    expected = call(base, ints, np.full(3, 2, np.int32), *extra)
    close(call(name, ints, np.full(3, 2.7, np.float32), *extra),
          expected.astype(np.float64).astype(np.int32))
    with pytest.raises(ValueError, match=rf"{name}: the result's shape \(2, 3\) is not "
                                         r"input's \(3,\)"):
        call(name, y, x, *extra)


def test_inplace_kernels_keep_the_dtype_rules():
    x = np.array([[1.5, -2.0, 3.0]], np.float32)
    for name in ("InplaceMul", "InplaceDiv", "Divs"):
        fast = get_op(name).kernel("numba")
        for other in (2.5, np.array([2.0, 4.0, 8.0], np.float64)):
            reference = get_op(name).reference(x, other)
            got = fast(x, other)
            assert got.dtype == np.float32 and np.allclose(got, reference, rtol=1e-6)


def test_type_as_and_broadcast_to_view(call, close):
    x = np.array([[-1.7, 2.9, np.nan]], np.float32)
    close(call("TypeAs", x, np.zeros(1, np.int32)), np.array([[-1, 2, -2**31]], np.int32))
    close(call("TypeAs", x, np.zeros(1, np.float16)), x.astype(np.float16))
    with pytest.raises(TypeError, match="TypeAs: other must be a tensor, got"):
        call("TypeAs", x, 3)
    close(call("BroadcastToView", x, (2, -1, 3)), np.broadcast_to(x, (2, 1, 3)), np.float32,
          equal_nan=True)


def test_complex_abs(call, close):
    x = np.array([3 + 4j, 1 - 1j, 0, 1e30 + 1e30j], np.complex64)
    close(call("ComplexAbs", x), [5.0, math.sqrt(2), 0.0, math.sqrt(2) * 1e30], np.float32)
    doubles = np.array([3 + 4j, 1e300 - 1e300j])     # no overflow on the way
    close(call("ComplexAbs", doubles), [5.0, math.sqrt(2) * 1e300], np.float64)


@pytest.mark.parametrize("mode,code", [("valid", 2), ("same", 1), ("full", 3)])
def test_correlate_is_the_sum_of_shifted_products(call, close, rng, mode, code):
    a, v = sample(rng, (7,), np.float64), sample(rng, (4,), np.float64)
    padded = np.concatenate([np.zeros(3), a, np.zeros(3)])
    full = [sum(padded[k + n] * v[n] for n in range(4)) for k in range(10)]
    # same: the centre of full, a length-4 kernel starting one step early
    expected = {"full": full, "valid": full[3:7], "same": full[1:8]}[mode]
    close(call("Correlate", a, v, code), np.array(expected))
    close(call("Correlate", a, v, mode), np.array(expected))
    with pytest.raises(ValueError, match=r"Correlate: a and v must be non-empty 1-D "
                                         r"tensors, got shapes \(7,\) and \(0,\)"):
        call("Correlate", a, v[:0], code)
    with pytest.raises(ValueError, match="unknown pad_mode 0"):
        call("Correlate", a, v, 0)


def test_inplace_copy_broadcasts_and_converts(call, close):
    x = np.zeros((2, 3), np.int32)
    close(call("InplaceCopy", x, np.array([1.7, -2.9, 3.0], np.float32)),
          np.array([[1, -2, 3], [1, -2, 3]], np.int32))
    assert get_op("InplaceCopy").mutates == "input"
    with pytest.raises(ValueError, match=r"InplaceCopy: src of shape \(2,\) does not "
                                         r"broadcast to input's \(2, 3\)"):
        call("InplaceCopy", x, np.ones(2))


def test_inplace_scatter_src(call, close):
    x = np.zeros((3, 4), np.float32)
    index = np.array([[3, 0], [1, -1]], np.int64)
    src = np.array([[1.0, 2.0, 9.0], [3.0, 4.0, 9.0]], np.float32)
    close(call("InplaceScatterSrc", x, 1, index, src),
          np.array([[2, 0, 0, 1], [0, 3, 0, 4], [0, 0, 0, 0]], np.float32))
    close(call("InplaceScatterSrc", x, -2, np.array([[2, 0]]), src),
          np.array([[0, 2, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0]], np.float32))
    with pytest.raises(IndexError, match=r"InplaceScatterSrc: index values must be in "
                                         r"\[-4, 4\), got \[0, 4\]"):
        call("InplaceScatterSrc", x, 1, np.array([[4, 0]]), src)
    with pytest.raises(ValueError, match=r"InplaceScatterSrc: index \(1, 4\) is larger "
                                         r"than src \(2, 3\) or input \(3, 4\) on axis 1"):
        call("InplaceScatterSrc", x, 0, np.zeros((1, 4), np.int64), src)
    with pytest.raises(ValueError, match="InplaceScatterSrc: dim 2 is out of range"):
        call("InplaceScatterSrc", x, 2, index, src)
