"""The float elementwise math and activation kernels (the recipes of
ops/_kernels/elementwise.py on ops/_kernels/program.py's runner) equal their NumPy references:
random shapes and broadcasts, special values, parameters, Python numbers,
the fallbacks (other dtypes), every opcode inside the runner (a lone op
with a NumPy ufunc runs that ufunc instead), and the fusion of chains of
these ops, alone and after a convolution.

Both runners compile once per dtype (core and extended opcodes), so the
cases keep to float32 and float64.
"""
import math

import numpy as np
import pytest

from refinfer import executor, registry
from refinfer.format.reader import ValueInfo
from refinfer.format.values import Abstract
from refinfer.graph import Arg, Graph, Model, Node, Ref
from refinfer.jit import kernel
from refinfer.ops._kernels import broadcast as _broadcast
from refinfer.ops._kernels import program as _fast
from refinfer.ops._kernels import libm as _fast_libm
from refinfer.ops._kernels.elementwise import (Recipe, binary, program_for,
                                              value_pattern)
from refinfer.plan import compile_model

from kernel_check import FLOATS, assert_same, check, normal, rng

UNARY = ("ACos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Ceil", "Cos", "Cosh", "Erfc",
         "Erfinv", "Exp2", "Expm1", "Floor", "Frac", "Log10", "Log1p", "Log2", "Reciprocal",
         "Rsqrt", "Sign", "Sin", "Sinc", "Sinh", "Tan", "Trunc", "HSigmoid", "Mish", "MishExt",
         "Inv",
         "SeLU", "SeLUExt", "SiLU", "Softplus", "Softsign", "Round", "CeLU", "Elu", "EluExt",
         "GeluExt", "HShrink", "Hardtanh", "LeakyReLUExt", "SoftShrink", "SoftplusExt",
         "Logit", "NanToNum", "ClampScalar", "Rint")
BINARY = ("Atan2", "Atan2Ext", "Hypot", "LogAddExp", "Xlogy", "AddExt", "SubExt",
          "PowTensorScalar", "PowScalarTensor", "DivNoNan", "SquaredDifference")
OTHERS = ("Addcmul", "AddcmulExt", "Addcdiv", "AddcdivExt", "Lerp", "LerpScalar",
          "ClampTensor", "PReLU", "LogSigmoid")
# The scalar and in-place spellings of ops above (ops._ref.inplace): their
# kernels are those ops' kernels, the in-place ones in input's dtype.
VARIANTS = ("AddScalar", "SubScalar", "Divs", "InplaceAddExt", "InplaceAddsExt",
            "InplaceSubExt", "InplaceSubScalar", "InplaceMul", "InplaceMuls", "InplaceDiv",
            "InplaceDivs", "InplaceFloorDivide", "InplaceFloorDivides",
            "InplaceRemainderTensorTensor", "InplaceRemainderTensorScalar")
TESTED = set(UNARY + BINARY + OTHERS + VARIANTS)

# Parameter sets (the arguments after the tensor), the first one the defaults.
PARAMETERS = {
    "Round": [(0,), (2,), (-1,)],
    "CeLU": [(1.0,), (2.5,), (-0.7,)],
    "Elu": [(1.0,), (0.5,)],
    "EluExt": [(1.0,), (2.0,)],
    "GeluExt": [("none",), ("tanh",)],
    "HShrink": [(0.5,), (0.3,), (0.0,), (1e40,)],
    "Hardtanh": [(-1, 1), (0.0, 6.0), (2, -2)],
    "LeakyReLUExt": [(0.01,), (0.2,), (-1.5,)],
    "SoftShrink": [(0.5,), (0.0,), (1.3,)],
    "SoftplusExt": [(1, 20), (2.0, 3.0), (0.5, -1.0)],
    "Logit": [(-1.0,), (0.1,), (0.6,), (float("nan"),)],
    "NanToNum": [(None, None, None), (1.0, 2.0, -3.0), (None, 1e39, None)],
    "ClampScalar": [(-0.5, 0.5), (None, 1), (1, None), (2.0, -2.0), (None, None)],
}


def _input(op, shape, dtype):
    """Random values over the op's interesting range (some outside its
    domain: both sides give NaN there)."""
    if op in ("ACos", "Asin", "Atanh", "Erfinv"):
        return rng.uniform(-1.1, 1.1, shape).astype(dtype)
    if op == "Acosh":
        return rng.uniform(0.9, 20.0, shape).astype(dtype)
    if op == "Logit":
        return rng.uniform(-0.1, 1.1, shape).astype(dtype)
    if op in ("Round", "Rint", "Sinc"):     # exact halves and integers
        return (rng.integers(-40, 40, shape) / 4).astype(dtype)
    return normal(shape, dtype, scale=3.0)


SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -2.5, 0.3, -0.3,
           1e-30, -1e-30, 1e-40, 20.0, -20.0, 88.0, -88.0, 100.0, -100.0, 1e10, -1e10, 3.0,
           -3.0, 0.99, -0.99]


@pytest.mark.parametrize("op", UNARY)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(7,), (3, 1500), (), (0, 5)], ids=str)
def test_unary(op, dtype, shape):
    for params in PARAMETERS.get(op, [()]):
        check(op, _input(op, shape, dtype), *params)


@pytest.mark.parametrize("op", UNARY + ("LogSigmoid",))
def test_special_values_and_fallbacks(op):
    for params in PARAMETERS.get(op, [()]):
        for dtype in FLOATS:
            check(op, np.array(SPECIAL, dtype), *params)
        check(op, normal((4, 5), np.float16), *params)
        if "int32" in registry.get_op(op).dtypes:
            check(op, rng.integers(-5, 5, (4, 5)).astype(np.int32), *params)


@pytest.mark.parametrize("op", sorted(set(UNARY) - {"ClampScalar", "Hardtanh"}))
@pytest.mark.parametrize("dtype", FLOATS)
def test_every_opcode_in_the_runner(op, dtype):
    """The recipe's program run by the runner itself, not by the NumPy
    ufunc a lone op is handed to (in a fused chain the runner runs it)."""
    x = np.concatenate([np.array(SPECIAL, dtype), _input(op, (3000,), dtype)])
    for params in PARAMETERS.get(op, [()]):
        program = program_for(registry.get_op(op).recipe, np.dtype(dtype), ("tensor",),
                              params)
        with np.errstate(all="ignore"):     # the special values warn in NumPy
            expected = registry.get_op(op).reference(x, *params)
        assert_same(op, program([x]), expected)


BROADCASTS = [((3, 4, 5), (3, 4, 5)), ((2, 3, 300), (300,)), ((4, 600), (4, 1)),
              ((2, 3, 20, 20), (1, 3, 1, 1)), ((500,), ()), ((2, 1, 30), (1, 40, 1)),
              ((3, 1, 5, 7), (1, 4, 1, 7)), ((2, 700, 3), (2, 1, 3)), ((0, 5), (5,))]


@pytest.mark.parametrize("op", BINARY)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shapes", BROADCASTS, ids=str)
def test_binary(op, dtype, shapes):
    a, b = (normal(s, dtype, scale=2.0) for s in shapes)
    if op.startswith("Pow") or op == "Xlogy":
        b = np.abs(b) + dtype(0.25)
    if op == "DivNoNan":    # zero divisors, where the kernel gives 0
        a, b = (np.where(np.abs(v) < 0.5, 0, v).astype(dtype) for v in (a, b))
    extra = (2.5,) if op in ("AddExt", "SubExt") else ()
    check(op, a, b, *extra)
    check(op, b, a, *extra)
    runner = program_for(registry.get_op(op).recipe, np.dtype(dtype), ("tensor", "tensor"),
                         extra)([a, b])
    assert_same(op, runner, registry.get_op(op).reference(a, b, *extra))


@pytest.mark.parametrize("op", BINARY)
def test_binary_numbers_parameters_and_fallbacks(op):
    x = np.abs(normal((6, 7))) + np.float32(0.5)
    for alpha in ((1, 2.5, -1, 0, True) if op in ("AddExt", "SubExt") else (None,)):
        extra = () if alpha is None else (alpha,)
        check(op, x, 2.5, *extra)
        check(op, x, 3, *extra)
        check(op, 2.0, x, *extra)
        check(op, x, x.astype(np.float64), *extra)      # promoted: the reference
        check(op, x.astype(np.float16), x.astype(np.float16), *extra)
        check(op, rng.integers(1, 9, (6, 7)).astype(np.int32), x, *extra)
    special = np.array(SPECIAL, np.float32)
    check(op, special, special[::-1].copy(), *((2.0,) if op.endswith("Ext") else ()))


@pytest.mark.parametrize("op", VARIANTS)
def test_scalar_and_inplace_variants(op):
    extra = (2.5,) if len(registry.get_op(op).params) == 3 else ()
    for dtype in FLOATS:
        x = normal((4, 300), dtype, scale=3.0)
        check(op, x, np.abs(normal((300,), dtype)) + dtype(0.5), *extra)
        check(op, x, 2.5, *extra)
        check(op, x, normal((300,), np.float64 if dtype == np.float32 else np.float32))
    ints = rng.integers(-9, 9, (4, 30)).astype(np.int32)
    check(op, ints, 2)
    check(op, ints, normal((30,), np.float32) + np.float32(4))
    check(op, normal((5,), np.float16), 1.5)


TERNARY_SHAPES = [((3, 4, 5),) * 3, ((2, 3, 300), (300,), (2, 1, 1)), ((4, 600), (4, 1), ()),
                  ((4, 1, 6), (1, 5, 1), (4, 5, 6)), ((0, 5), (5,), (1, 5))]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shapes", TERNARY_SHAPES, ids=str)
def test_three_operand_ops(dtype, shapes):
    a, b, c = (np.asarray(normal(s, dtype)) for s in shapes)
    positive = np.asarray(np.abs(c) + dtype(0.5))
    for op in ("Addcmul", "AddcmulExt", "Addcdiv", "AddcdivExt"):
        check(op, a, b, positive)
        check(op, a, b, positive, np.array(0.7, dtype))
        check(op, a, b, positive, 0.5)
        check(op, b, a, positive, np.array(-2, dtype))
    for op in ("Lerp", "LerpScalar"):
        check(op, a, b, c)
        check(op, a, b, np.array(0.3, dtype))
        check(op, a, b, 0.75)
    low, high = -np.abs(b), np.abs(c)
    for bounds in ((low, high), (low, None), (None, high), (high, low)):
        check("ClampTensor", a, *bounds)
    # Lone, these plain-arithmetic ops run as NumPy (their reference); in a
    # fused chain the runner runs their programs:
    for op, args in (("Addcmul", (a, b, positive, c)), ("Addcdiv", (a, b, positive, c)),
                     ("Lerp", (a, b, c)), ("AddExt", (a, b, 2.5)), ("SubExt", (a, b, 2.5))):
        values = [v for v in args if isinstance(v, np.ndarray)]
        pattern = ("tensor",) * len(values)
        program = program_for(registry.get_op(op).recipe, np.dtype(dtype), pattern,
                              args[len(values):])
        assert _fast.plain_arithmetic(program)
        assert_same(op, program(values), registry.get_op(op).reference(*args))


def test_three_operand_fallbacks():
    a, b = normal((3, 4)), normal((3, 4))
    check("Addcmul", a, b, b, np.array(0.5))                 # float64 value: promoted
    check("Addcdiv", a.astype(np.float16), b.astype(np.float16), b.astype(np.float16))
    ints = rng.integers(-5, 5, (3, 4)).astype(np.int32)
    check("Addcmul", ints, ints, ints, 2)
    check("ClampTensor", ints, ints - 1, None)
    check("ClampTensor", a, np.array(-0.5), None)            # float64 bound: reference
    check("Lerp", a, b.astype(np.float64), 0.5)
    check("Lerp", a, normal((2, 3, 4)), normal((5, 1, 1, 1)))   # 4 broadcast operands


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shapes", [((2, 3, 4, 5), (3,)), ((2, 3, 4, 5), (1,)), ((5,), (5,)),
                                    ((4, 6), (6,)), ((3, 7), ()), ((0, 3), (3,))], ids=str)
def test_prelu(dtype, shapes):
    x, w = normal(shapes[0], dtype), normal(shapes[1], dtype)
    check("PReLU", x, w)


def test_prelu_fallbacks():
    check("PReLU", normal((2, 3, 4)), normal((3,), np.float64))
    check("PReLU", normal((2, 3, 4), np.float16), normal((3,), np.float16))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(3, 1500), (), (0, 4)], ids=str)
def test_log_sigmoid(dtype, shape):
    check("LogSigmoid", normal(shape, dtype, scale=10.0))


def test_unusual_parameters_go_to_the_reference():
    x = normal((3, 4))
    check("Round", x, 1.5)
    check("GeluExt", x, "sigmoid")
    check("Elu", x, "one")
    check("AddExt", x, x, np.array(2.0, np.float32))


@kernel
def _libm(x, out, which):
    one = x.dtype.type(1)
    for j in range(x.size):
        v = x[j]
        if which == 0:
            out[j] = _fast_libm.fast_exp(v)
        elif which == 1:
            out[j] = _fast_libm.fast_log(v)
        elif which == 2:
            out[j] = _fast_libm.fast_log1p(v, one)
        elif which == 3:
            out[j] = _fast_libm.fast_expm1(v, one)
        else:
            out[j] = _fast_libm.fast_tanh(v)


@pytest.mark.parametrize("dtype", FLOATS)
def test_vectorised_math_functions_are_within_4_ulp(dtype):
    scales = np.array([1e-30, 1e-6, 0.1, 1, 10, 80, 700, 1e30])
    x = (rng.standard_normal((scales.size, 2000)) * scales[:, None]).reshape(-1)
    x = np.concatenate([x, SPECIAL, [1e-310, 5e-324, 709.78, 709.79, -745.1, -746,
                                     88.72283, 88.72284, -87.4, -104, 0.625, -0.625]])
    x = x.astype(dtype)
    for which, reference in enumerate((np.exp, np.log, np.log1p, np.expm1, np.tanh)):
        got = np.empty_like(x)
        _libm(x, got, which)
        with np.errstate(all="ignore"):
            want = reference(x)
        info, finite = np.finfo(dtype), np.isfinite(want)
        np.testing.assert_array_equal(got[~finite], want[~finite])
        tiny = finite & (np.abs(want) < info.tiny)      # subnormal or 0: absolute
        assert np.all(np.abs(got[tiny] - want[tiny]) <= 4 * info.smallest_subnormal)
        normal = finite & ~tiny
        error = np.abs(got[normal].astype(np.float64) - want[normal]) \
            / np.abs(want[normal].astype(np.float64))
        assert error.max() <= 4 * info.eps, reference.__name__


@kernel
def _erf_single(x, out):
    for j in range(x.size):
        out[j] = _fast_libm.erf_single(x[j])


def test_vectorised_erf_has_float32s_precision():
    """erf_single (GeLU with erf on float32) against the math library's
    erf: relative error below 2e-7 on every scale, both sides of the switch
    at 0.5, and the special values."""
    scales = np.array([1e-300, 1e-8, 1e-3, 0.3, 1, 3, 10, 1e30])
    x = (rng.standard_normal((scales.size, 2000)) * scales[:, None]).reshape(-1)
    x = np.concatenate([x, [0.0, -0.0, 0.5, -0.5, np.nextafter(0.5, 0), 6.0,
                            27.0, np.inf, -np.inf, np.nan]])
    got = np.empty_like(x)
    _erf_single(x, got)
    want = np.array([math.erf(v) for v in x])
    exact = [-10, -9, -5, -4, -3, -2]       # 0, -0, 6, 27, inf, -inf
    assert np.isnan(got[-1]) and np.array_equal(got[exact], want[exact])
    assert np.signbit(got[-9])      # erf(-0) = -0
    nonzero = (want != 0) & ~np.isnan(want)
    error = np.abs(got[nonzero] - want[nonzero]) / np.abs(want[nonzero])
    assert error.max() < 2e-7


def test_activation_opcodes_follow_the_activation_codes():
    names = [n[4:] for n in dir(_fast) if n.startswith("ACT_")]
    assert len(names) == len(set(getattr(_fast, "ACT_" + n) for n in names))
    for name in names:
        assert getattr(_fast, "OP_" + name, _fast.OP_COPY) - _fast.OP_COPY \
            == getattr(_fast, "ACT_" + name)


def test_value_pattern_of_tensors_numbers_and_what_it_declines():
    f32, f64 = np.ones(3, np.float32), np.ones((2, 1), np.float64)
    view = f32[:2]
    dtype, pattern, tensors = value_pattern((f32, view))    # tensors only
    assert dtype == np.float32 and pattern == ("tensor", "tensor")
    assert [t is v for t, v in zip(tensors, (f32, view))] == [True, True]
    dtype, pattern, tensors = value_pattern((2, f64, None, 0.5))
    assert dtype == np.float64 and len(tensors) == 1 and tensors[0] is f64
    assert pattern == (("number", 2), "tensor", None, ("number", 0.5))
    declined = (None, None, None)
    assert value_pattern((f32, f64)) == declined            # two dtypes
    assert value_pattern((f32, 1, f64)) == declined
    assert value_pattern((np.ones(3, np.int32),)) == declined     # not float
    assert value_pattern((f32, np.float32(1))) == declined  # a NumPy scalar
    assert value_pattern((1.0, 2))[0] is None               # no tensor


def test_a_lone_op_on_tensors_finds_its_runner_by_dtype():
    """Tensors of one float dtype (most calls) take the runner remembered
    for the dtype; numbers beside them, other dtypes and mixed dtypes go
    the way binding decides, as before."""
    recipe = Recipe(2, binary(_fast.OP_ADD).emit)      # (a fresh memory)
    a, b = normal((3, 4), np.float32), normal((4,), np.float32)
    _assert_exact(recipe.run(a, b), a + b)
    assert recipe.on_tensors[np.dtype(np.float32)] is not False
    c = normal((2, 1), np.float64)
    _assert_exact(recipe.run(c, c), c + c)
    _assert_exact(recipe.run(a, 2.5), a + np.float32(2.5))
    for declined in [(a, c), (a.astype(np.float16),) * 2,
                     (np.ones(3, np.int32),) * 2]:
        assert recipe.run(*declined) is None
    assert recipe.on_tensors[np.dtype(np.float16)] is False
    assert np.dtype(np.int32) in recipe.on_tensors


def _assert_exact(got, expected):
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


def test_programs_reuse_registers():
    p = _fast.ProgramBuilder(np.float32)
    x = p.input(0)
    value = x
    for _ in range(20):
        value = p.op(_fast.OP_MUL, p.op(_fast.OP_ADD, value, p.const(1.0)), x)
    program = p.build(value)
    assert program.n_regs == 4 and program.consts.tolist() == [1.0]
    assert all(row[1] not in (row[2], row[3]) for row in program.rows)
    x_value = np.linspace(-1, 1, 11).astype(np.float32)
    expected = x_value
    for _ in range(20):
        expected = (expected + np.float32(1)) * x_value
    np.testing.assert_allclose(program([x_value]), expected, rtol=1e-6)


# -- fusion ---------------------------------------------------------------------------------
F32 = np.dtype(np.float32)
X = Ref("input", 0)


class GraphBuilder:
    """A one-graph model built node by node, with recorded abstracts."""

    def __init__(self, shape):
        self.shape = tuple(shape)
        self.input = ValueInfo("main:x", Abstract("tensor", self.shape, F32))
        self.nodes: list[Node] = []

    def add(self, op: str, *args, shape=None, value=None) -> Ref:
        """A node of ``op`` on ``args`` (``value``, when given, first)."""
        args = args if value is None else (value,) + args
        refs = [a if isinstance(a, Ref) else Ref("const", a) for a in args]
        name = f"n{len(self.nodes)}_{op}"
        self.nodes.append(Node(name, f"Default/{name}", registry.get_op(op),
                               [Arg(r) for r in refs], None,
                               Abstract("tensor", shape or self.shape, F32)))
        return Ref("node", name)

    def run(self, output: Ref, x):
        """(names of the numba plan's steps, numba result, reference result)."""
        info = ValueInfo("out", self.nodes[-1].abstract)
        graph = Graph("main", [self.input], self.nodes, output, info)
        model = Model("synthetic", {"main": graph}, graph, {})
        fast, slow = compile_model(model, "numba"), compile_model(model, "reference")
        steps = [s.node.op.name for s in fast.plans["main"].steps]
        return steps, executor.run(fast, [x]), executor.run(slow, [x])


def _assert_fused(g, output, x, expected_steps):
    steps, got, want = g.run(output, x)
    assert steps == expected_steps
    assert_same("fused", got, want)
    x64 = x.astype(np.float64)      # another dtype: the original nodes run
    assert_same("fused", g.run(output, x64)[1], g.run(output, x64)[2])


def test_swish_spelled_out_is_one_step():
    g = GraphBuilder((2, 3, 40))
    s = g.add("Sigmoid", X)
    y = g.add("Mul", X, s)
    _assert_fused(g, y, normal((2, 3, 40)), ["Sigmoid+Mul"])


def test_gelu_spelled_out_with_erf_is_one_step():
    g = GraphBuilder((4, 700))
    y = g.add("Mul", X, np.float32(1 / np.sqrt(2)))
    y = g.add("Erf", y)
    y = g.add("Add", y, 1.0)
    y = g.add("Mul", X, y)
    y = g.add("Mul", y, 0.5)
    _assert_fused(g, y, normal((4, 700), scale=3.0), ["Mul+Erf+Add+Mul+Mul"])


def test_chain_of_math_ops_with_parameters_is_one_step():
    g = GraphBuilder((3, 1100))
    end = normal((1100,))
    y = g.add("Elu", X, 0.5)
    y = g.add("Hardtanh", y, -0.4, 2.0)
    y = g.add("Lerp", y, end, 0.25)
    y = g.add("Round", y, 1)
    y = g.add("SoftplusExt", y, 2.0, 5.0)
    y = g.add("Sin", y)
    y = g.add("ClampTensor", y, None, end)
    y = g.add("Logit", y, 0.1)
    y = g.add("NanToNum", y, None, None, None)
    y = g.add("GeluExt", y, "none")
    names = "Elu+Hardtanh+Lerp+Round+SoftplusExt+Sin+ClampTensor+Logit+NanToNum+GeluExt"
    _assert_fused(g, y, normal((3, 1100), scale=2.0), [names])


def test_what_does_not_fuse_stays_apart():
    g = GraphBuilder((2, 3, 5))
    y = g.add("PReLU", X, normal((3,)))             # its weight broadcasts along axis 1
    y = g.add("Sin", y)
    y = g.add("GeluExt", y, "erf-ish")              # a parameter the recipe refuses
    y = g.add("Cos", y)
    _assert_fused(g, y, normal((2, 3, 5)), ["PReLU", "Sin", "GeluExt", "Cos"])


NEW_ACTIVATIONS = [("SiLU",), ("HSigmoid",), ("Mish",), ("MishExt",), ("GeluExt", "none"),
                   ("GeluExt", "tanh")]


@pytest.mark.parametrize("act", NEW_ACTIVATIONS, ids=str)
def test_convolution_fuses_the_new_activations(act):
    g = GraphBuilder((1, 4, 9, 9))
    w = normal((6, 4, 3, 3), scale=0.3)
    y = g.add("Conv2D", X, w, None, None, 1, "PAD", (1, 1, 1, 1), (1, 1), (1, 1), 1,
              "NCHW", None, shape=(1, 6, 9, 9))
    y = g.add(*act, shape=(1, 6, 9, 9), value=y)
    steps, got, want = g.run(y, normal((1, 4, 9, 9)))
    assert steps == [f"Conv2D+{act[0]}"]
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("act", NEW_ACTIVATIONS, ids=str)
def test_matrix_product_fuses_the_new_activations(act):
    g = GraphBuilder((6, 8))
    w, bias = normal((16, 8)), normal((16,))
    y = g.add("MatMul", X, w, False, True, shape=(6, 16))
    y = g.add("BiasAdd", y, bias, "NCHW", shape=(6, 16))
    y = g.add(*act, shape=(6, 16), value=y)
    steps, got, want = g.run(y, normal((6, 8)))
    assert steps == [f"MatMul+BiasAdd+{act[0]}"]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_broadcast_plan_merges_axes_and_pieces_cover_the_output():
    """ops/_kernels/broadcast.py: axes merge where every operand steps alike, and the
    pieces tile the output once, in order."""
    shape, dims, steps, count = _broadcast.plan(((8, 12, 128, 128), (8, 1, 1, 128)), 1024)
    assert shape == (8, 12, 128, 128) and dims.tolist() == [8, 1536, 128]
    assert steps.tolist() == [[196608, 128, 1], [128, 0, 1], [196608, 128, 1]]
    for chunk in (1024, 100, 7):
        _, dims, _, count = _broadcast.plan(((5, 3, 250), (3, 1)), chunk)
        spans = [_broadcast.piece(t, dims, chunk) for t in range(count)]
        starts = [row * dims[-1] + c0 for row, _, c0, _ in spans]
        sizes = [rows * m for _, rows, _, m in spans]
        assert all(0 < n <= chunk for n in sizes)
        assert starts == list(np.cumsum([0] + sizes[:-1])) and sum(sizes) == 5 * 3 * 250
