"""The cuda kernels of the integer, bitwise and division ops
(refinfer/cuda/integer.py) equal their NumPy references exactly for
integers and within tolerance for floats: broadcasts, Python numbers,
division by zero, shifts past the width, mixed dtypes, AddN and
PopulationCount in every integer width, and the elementwise recipe ops'
integer forms (Add, Neg, Clamp, ... on integer and bool tensors, wrapping
as NumPy); the references' refusals raise their errors."""
import numpy as np
import pytest
import cuda_check
from test_cuda_elementwise import check, on_device

from refinfer import registry
from refinfer.cuda import elementwise, integer

rng = np.random.default_rng(1341)
INTS = (np.int8, np.int32, np.int64, np.uint8)
OPS = sorted(integer.KERNELS)


def _ints(shape, dtype, low=-60, high=60):
    if np.dtype(dtype).kind == "u":
        low = 0
    return rng.integers(low, high, shape).astype(dtype)


def _operands(op, dtype):
    """Pairs of operands: same shape, a broadcast, a Python number."""
    if op in ("LeftShift", "RightShift"):
        shifts = rng.integers(0, 12, (3, 4)).astype(dtype)
        shifts[0, :2] = (8, 70) if np.dtype(dtype).itemsize == 1 else (33, 70)
        return [(_ints((3, 4), dtype), shifts)]
    if op == "Heaviside":
        x = _ints((3, 4), dtype, -2, 3)
        return [(x, _ints((3, 4), dtype)), (x, _ints((4,), dtype))]
    divisor = _ints((3, 4), dtype, -5, 6)
    divisor[0, 0] = 0                                  # x / 0, x mod 0
    return [(_ints((3, 4), dtype), divisor), (_ints((2, 1, 4), dtype), divisor[1:2]),
            (_ints((3, 4), dtype), 3)]


@pytest.mark.parametrize("dtype", INTS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", [op for op in OPS
                                if op not in ("Invert", "DivMod", "IsClose",
                                              "MaskedFill", "Ger", "AddN",
                                              "PopulationCount")])
def test_integer_ops(op, dtype):
    if op in ("Gcd", "Lcm") and np.dtype(dtype).kind == "u":
        return                                         # signed only
    for a, b in _operands(op, dtype):
        check(op, a, b)


@pytest.mark.parametrize("op", ["FloorDiv", "FloorMod", "RemainderTensorTensor", "Mod",
                                "TruncateDiv", "TruncateMod", "MulNoNan", "Xdivy", "Fmax",
                                "FmodTensor", "Heaviside"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_float_ops(op, dtype):
    a = np.asarray(rng.standard_normal((3, 4)) * 7, dtype)
    b = np.asarray(rng.standard_normal((3, 4)) * 3, dtype)
    a[0, :3], b[0, :3] = (0.0, 2.0, np.nan), (0.0, 0.0, 1.0)
    b[1, 1] = a[1, 1] = -4.0
    check(op, a, b)
    check(op, a, np.asarray(rng.standard_normal(4), dtype))
    check(op, a, 2.5)


def test_mixed_dtypes_and_scalars():
    check("BitwiseAnd", _ints((4,), np.int8), _ints((2, 4), np.int32))
    check("BitwiseOr", _ints((4,), np.uint8), _ints((4,), np.int8))
    check("BitwiseXorScalar", _ints((5,), np.int8), 300)          # wraps to int8
    check("RemainderScalarTensor", 7, _ints((5,), np.int32, 1, 9))
    check("FloorDiv", _ints((5,), np.int32), 2.5)                  # float32 result
    check("BitwiseAnd", np.array([True, False, True]), np.array([True, True, False]))


@pytest.mark.parametrize("dtype", INTS + (np.bool_,), ids=lambda d: np.dtype(d).name)
def test_invert(dtype):
    check("Invert", _ints((3, 4), dtype) if dtype != np.bool_ else
          rng.integers(0, 2, (3, 4)).astype(bool))


def test_refusals():
    x = np.ones(3, np.float32)
    check("BitwiseAnd", x, x)                          # floats: TypeError
    check("FloorDiv", np.ones(2, bool), np.ones(2, bool))
    check("Invert", x)
    check("BitwiseAnd", _ints((3,), np.int32), _ints((4,), np.int32))   # no broadcast
    big = np.array([2 ** 63], np.uint64)
    assert integer.KERNELS["BitwiseAnd"](*on_device((big, big))) is None


@pytest.mark.parametrize("dtype", INTS[:3] + (np.float32, np.float64, np.bool_),
                         ids=lambda d: np.dtype(d).name)
def test_div_mod(dtype):
    if dtype == np.bool_:
        a, b = (rng.integers(0, 2, (3, 4)).astype(bool) for _ in range(2))
    else:
        a, b = _ints((3, 4), dtype), _ints((3, 4), dtype, -5, 6)
        b[0, :2] = 0
        a[1, 1], b[1, 1] = -7, 2
    for mode in (None, "floor", "trunc"):
        check("DivMod", a, b, mode)
        check("DivMod", a, b[0], mode)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32],
                         ids=lambda d: np.dtype(d).name)
def test_is_close(dtype):
    a = np.asarray(rng.standard_normal((3, 4)) * 4, dtype)
    b = (a + np.asarray(rng.standard_normal((3, 4)) * 1e-5, dtype)).astype(dtype)
    if np.dtype(dtype).kind == "f":
        a[0, :4] = (np.nan, np.inf, np.inf, 1.0)
        b[0, :4] = (np.nan, np.inf, -np.inf, np.nan)
    for equal_nan in (False, True):
        check("IsClose", a, b, 1e-5, 1e-8, equal_nan)
        check("IsClose", a, b[1], 1e-3, 0.1, equal_nan)
    check("IsClose", a, 1, 0.5, 0.5, False)


@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.int64, np.bool_],
                         ids=lambda d: np.dtype(d).name)
def test_masked_fill(dtype):
    x = _ints((3, 4), dtype) if dtype != np.bool_ else np.zeros((3, 4), bool)
    mask = rng.integers(0, 2, (3, 4)).astype(bool)
    check("MaskedFill", x, mask, 1)
    check("MaskedFill", x, mask[0], np.array(3, np.int64))
    check("MaskedFill", x[0], mask, 5)                  # the mask widens the result
    check("MaskedFill", x, mask[:, :3].copy(), 1)      # no broadcast: refused


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int64],
                         ids=lambda d: np.dtype(d).name)
def test_ger(dtype):
    check("Ger", _ints((4,), dtype) * 3, _ints((5,), dtype))       # int8 wraps
    check("Ger", np.asarray(rng.standard_normal(3), dtype), _ints((2,), np.int32))
    check("Ger", _ints((2, 2), dtype), _ints((3,), dtype))           # 2-D: refused


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int32, np.uint8,
                                   np.bool_], ids=lambda d: np.dtype(d).name)
def test_add_n(dtype):
    tensors = tuple(_ints((2, 3), dtype) * 40 if dtype != np.bool_    # int8 wraps
                    else rng.integers(0, 2, (2, 3)).astype(bool) for _ in range(3))
    if np.dtype(dtype).kind == "f":
        tensors = tuple(np.asarray(rng.standard_normal((2, 3)), dtype) for _ in range(3))
    cuda_check.check("AddN", tensors)
    cuda_check.check("AddN", tensors[:1])               # one tensor: a copy
    if dtype != np.bool_:                               # SequenceAddN takes numbers
        cuda_check.check("SequenceAddN", list(tensors))
    assert cuda_check.run("AddN", (tensors[0], tensors[1][:1])) is None   # two shapes
    assert cuda_check.run("AddN", (np.ones(2, np.float16),) * 2) is None


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8,
                                   np.uint32], ids=lambda d: np.dtype(d).name)
def test_population_count(dtype):
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, (3, 4), dtype=dtype, endpoint=True)
    x.flat[:3] = info.min, info.max, 0                  # (-1 of int16: 16 bits)
    cuda_check.check("PopulationCount", x)
    assert cuda_check.run("PopulationCount", np.ones(3, np.uint64)) is None


# -- the elementwise recipe ops on integer and bool tensors ---------------------
RECIPE_OPS = sorted(name for name in elementwise.KERNELS
                    if registry.get_op(name).recipe in integer.INTEGER_FORMS)


def _with_extremes(shape, dtype):
    """Random values with the dtype's lowest and largest among them (the
    wrap-around cases: -(-128), |-128|, 127 + 1 in int8)."""
    if dtype is np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    values = _ints(shape, dtype)
    info = np.iinfo(dtype)
    values.flat[:2] = info.min, info.max
    return values


def _recipe_cases(name, dtype):
    """The op's values as tensors (the first (3, 4), the others (4,)), then
    the first with Python numbers; parameters at their defaults."""
    op = registry.get_op(name)
    n = op.recipe.values
    defaults = [p.default for p in op.params[n:]]
    x = _with_extremes((3, 4), dtype)
    cases = [(x, *(_with_extremes((4,), dtype) for _ in range(n - 1)), *defaults)]
    if n > 1:
        cases.append((x, *[3] * (n - 1), *defaults))
    return cases


def test_every_integer_form_is_declared():
    assert set(RECIPE_OPS) >= {"Add", "AddV2", "Sub", "Mul", "Muls", "Maximum",
                               "Minimum", "Div", "RealDiv", "Neg", "Abs", "Square",
                               "Sign", "ReLU", "Trunc", "ClampScalar", "ClampTensor",
                               "SquaredDifference", "AddExt", "SubExt", "AddScalar",
                               "Pow", "Round", "NanToNum", "Addcmul"}


@pytest.mark.parametrize("dtype", INTS + (np.bool_,), ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", RECIPE_OPS)
def test_recipe_ops_on_integers(name, dtype):
    """Exactly the reference's values and dtype (or its refusal: Sub and
    Neg of bools), with the dtype's extremes among the values."""
    for case in _recipe_cases(name, dtype):
        check(name, *case)


def test_recipe_ops_wrap_as_numpy():
    """int8 127 + 1, -(-128), |-128| and int64 products wrap; Div of
    integers is float32, RealDiv's truncates toward zero (x / 0
    saturates); AddExt's integer alpha scales in the dtype."""
    def run(name, *args):
        return cuda_check.run(name, *args)
    int8 = np.array([127, -128, -3], np.int8)
    np.testing.assert_array_equal(run("Add", int8, np.ones(3, np.int8)),
                                  np.array([-128, -127, -2], np.int8))
    np.testing.assert_array_equal(run("Neg", int8), np.array([-127, -128, 3], np.int8))
    np.testing.assert_array_equal(run("Abs", int8), np.array([127, -128, 3], np.int8))
    big = np.array([2**62, -3], np.int64)
    np.testing.assert_array_equal(run("Mul", big, np.array([4, 5], np.int64)),
                                  np.array([0, -15], np.int64))
    seven = np.array([7, -7, 7], np.int32)
    quotient = run("Div", seven, np.array([2, 2, 0], np.int32))
    assert quotient.dtype == np.float32
    np.testing.assert_array_equal(quotient, [3.5, -3.5, np.inf])
    np.testing.assert_array_equal(run("RealDiv", seven, np.array([2, 2, 0], np.int32)),
                                  np.array([3, -3, 2**31 - 1], np.int32))
    np.testing.assert_array_equal(     # 3 ** 5 = 243 wraps; 2 ** -1 truncates
        run("Pow", np.array([3, 2, -1, 1, 0], np.int8),
            np.array([5, -1, -3, -7, -1], np.int8)),
        np.array([-13, 0, -1, 1, 0], np.int8))
    np.testing.assert_array_equal(run("Pow", np.array([0, -2], np.int32), np.int32(-1)),
                                  np.array([-2**31, 0], np.int32))   # 0 ** -1: inf cast
    np.testing.assert_array_equal(run("AddExt", int8, int8, 3),
                                  np.array([-4, 0, -12], np.int8))   # 508, -512 wrap


def test_recipe_ops_decline_other_integer_cases():
    """Ops whose references' integer semantics no device form follows
    (SeLU: trunc(scale * max(x, 0)), not its float formula), uint64 and
    mixed integer and float tensors: None (the CPU kernel runs). A float32
    result (int32 * 2.5) is the float32 program's, of the tensor cast on
    the device; HSwish's is computed in float64 and truncated back."""
    ints = np.arange(-3, 3, dtype=np.int32)
    assert cuda_check.run("SeLU", ints) is None
    check("Mul", ints, 2.5)
    check("HSwish", ints * 7)
    assert cuda_check.run("Add", ints.astype(np.uint64), ints.astype(np.uint64)) is None
    assert cuda_check.run("Add", ints, ints.astype(np.float32)) is None
