"""Float elementwise math and activation ops as programs of the elementwise
runner (ops/_fast.py), for the ``numba`` backend.

Each op has a *recipe*: its reference formula, in the reference's order of
operations and dtypes, written as program rows by a
:class:`ops._fast.ProgramBuilder`. An op's Numba kernel runs its recipe
alone (:func:`apply`); the fusion pass (refinfer/passes/elementwise.py)
writes the recipes of a chain of ops into one program, so a chain such as
x * sigmoid(x) or a GELU spelled out in Mul, Add, Erf runs in one pass.

A recipe is called with the builder, the handles of the op's *value*
arguments (tensors or numbers, None for an absent optional one) and its
*parameters* (alpha, lambd, ...: plan-time constants, which decide the rows
or become parameter registers), and returns the result's handle, or None
where it does not handle those parameters (the reference then runs).

Numbers and parameters take the tensors' dtype as NumPy converts a Python
number beside an array (so as the references compute). A lone op whose
program is one row of an op NumPy has a ufunc for runs as that ufunc, in
NumPy's own (often SIMD) loop, and one of plain arithmetic (AddExt, Lerp,
Addcmul: memory-bound) runs as its reference: the runner gains nothing
there. In a fused chain the runner runs them all.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np

from . import program as _fast
from .program import ProgramBuilder
from ..selu import ALPHA as SELU_ALPHA, SCALE as SELU_SCALE


@dataclass(frozen=True)
class Recipe:
    values: int         # leading arguments that are values (the rest: params)
    emit: Callable      # emit(builder, *value handles, *params) -> handle
    fusable: bool = True    # its values broadcast as NumPy's (PReLU's not)


RECIPES: dict[str, Recipe] = {}


def recipe(*names: str, values: int = 1, fusable: bool = True):
    """Register the decorated emitter as the recipe of ``names``."""
    def decorate(emit: Callable) -> Callable:
        for name in names:
            RECIPES[name] = Recipe(values, emit, fusable)
        return emit
    return decorate


def _one_row(opcode: int, values: int) -> Recipe:
    """The recipe of an op that is one opcode over its values."""
    return Recipe(values, lambda p, *handles: p.op(opcode, *handles))


UNARY = {
    "Neg": _fast.OP_NEG, "Abs": _fast.OP_ABS, "Exp": _fast.OP_EXP,
    "Log": _fast.OP_LOG, "Sqrt": _fast.OP_SQRT, "Square": _fast.OP_SQUARE,
    "Erf": _fast.OP_ERF, "Sin": _fast.OP_SIN, "Cos": _fast.OP_COS,
    "Tan": _fast.OP_TAN, "Asin": _fast.OP_ASIN, "ACos": _fast.OP_ACOS,
    "Atan": _fast.OP_ATAN, "Sinh": _fast.OP_SINH, "Cosh": _fast.OP_COSH,
    "Asinh": _fast.OP_ASINH, "Acosh": _fast.OP_ACOSH, "Atanh": _fast.OP_ATANH,
    "Ceil": _fast.OP_CEIL, "Floor": _fast.OP_FLOOR, "Trunc": _fast.OP_TRUNC,
    "Sign": _fast.OP_SIGN, "Exp2": _fast.OP_EXP2, "Expm1": _fast.OP_EXPM1,
    "Log2": _fast.OP_LOG2, "Log10": _fast.OP_LOG10, "Log1p": _fast.OP_LOG1P,
    "Erfc": _fast.OP_ERFC, "Erfinv": _fast.OP_ERFINV, "Sinc": _fast.OP_SINC,
    **{name: _fast.OP_COPY + act for name, act in _fast.ACTIVATIONS.items()},
}
BINARY = {
    "Add": _fast.OP_ADD, "Sub": _fast.OP_SUB, "Mul": _fast.OP_MUL,
    "Muls": _fast.OP_MUL, "RealDiv": _fast.OP_DIV, "Div": _fast.OP_DIV,
    "Maximum": _fast.OP_MAX, "Minimum": _fast.OP_MIN, "Pow": _fast.OP_POW,
    "PowTensorScalar": _fast.OP_POW, "PowScalarTensor": _fast.OP_POW,
    "Atan2": _fast.OP_ATAN2, "Atan2Ext": _fast.OP_ATAN2,
    "Hypot": _fast.OP_HYPOT, "LogAddExp": _fast.OP_LOGADDEXP,
}
RECIPES.update({name: _one_row(op, 1) for name, op in UNARY.items()})
RECIPES.update({name: _one_row(op, 2) for name, op in BINARY.items()})


# -- arithmetic ---------------------------------------------------------------
def _scaled(p, b, alpha):
    """alpha * b (b itself for alpha == 1, as the reference)."""
    return b if alpha == 1 else p.op(_fast.OP_MUL, b, p.const(alpha))


@recipe("AddExt", values=2)
def _add_ext(p, a, b, alpha):
    return p.op(_fast.OP_ADD, a, _scaled(p, b, alpha))


@recipe("SubExt", values=2)
def _sub_ext(p, a, b, alpha):
    return p.op(_fast.OP_SUB, a, _scaled(p, b, alpha))


@recipe("Addcmul", "AddcmulExt", values=4)
def _addcmul(p, a, t1, t2, value):
    """input + value * tensor1 * tensor2."""
    product = p.op(_fast.OP_MUL, p.op(_fast.OP_MUL, value, t1), t2)
    return p.op(_fast.OP_ADD, a, product)


@recipe("Addcdiv", "AddcdivExt", values=4)
def _addcdiv(p, a, t1, t2, value):
    """input + value * (tensor1 / tensor2)."""
    quotient = p.op(_fast.OP_DIV, t1, t2)
    return p.op(_fast.OP_ADD, a, p.op(_fast.OP_MUL, value, quotient))


@recipe("Lerp", "LerpScalar", values=3)
def _lerp(p, a, end, weight):
    """input + weight * (end - input)."""
    step = p.op(_fast.OP_MUL, weight, p.op(_fast.OP_SUB, end, a))
    return p.op(_fast.OP_ADD, a, step)


@recipe("ClampScalar", "ClampTensor", "Hardtanh", values=3)
def _clamp(p, x, low, high):
    """minimum(maximum(x, low), high), absent bounds skipped."""
    if low is not None:
        x = p.op(_fast.OP_MAX, x, low)
    if high is not None:
        x = p.op(_fast.OP_MIN, x, high)
    return x


@recipe("Reciprocal")
def _reciprocal(p, x):
    return p.op(_fast.OP_DIV, p.const(1), x)


@recipe("Rsqrt")
def _rsqrt(p, x):
    return p.op(_fast.OP_DIV, p.const(1), p.op(_fast.OP_SQRT, x))


@recipe("Frac")
def _frac(p, x):
    return p.op(_fast.OP_SUB, x, p.op(_fast.OP_TRUNC, x))


@recipe("Xlogy", values=2)
def _xlogy(p, x, y):
    return p.op(_fast.OP_MUL, x, p.op(_fast.OP_LOG, y))


@recipe("Round")
def _round(p, x, decimals):
    """NumPy's rounding: x * 10 ** d, rint (halves to even), / 10 ** d
    (divide first and multiply after for d < 0)."""
    if isinstance(decimals, bool) or not isinstance(decimals, int):
        return None
    if decimals == 0:
        return p.op(_fast.OP_RINT, x)
    scale, unscale = (_fast.OP_MUL, _fast.OP_DIV) if decimals > 0 \
        else (_fast.OP_DIV, _fast.OP_MUL)
    factor = p.const(10.0 ** abs(decimals))
    return p.op(unscale, p.op(_fast.OP_RINT, p.op(scale, x, factor)), factor)


@recipe("NanToNum")
def _nan_to_num(p, x, nan, posinf, neginf):
    """NaN -> nan (0), +inf -> posinf, -inf -> neginf (the dtype's largest
    and lowest values by default)."""
    info = np.finfo(p.dtype)
    return p.op(_fast.OP_NAN_TO_NUM, x, p.params(
        0.0 if nan is None else nan, info.max if posinf is None else posinf,
        info.min if neginf is None else neginf))


@recipe("Logit")
def _logit(p, x, eps):
    """ln(z / (1 - z)), z = clip(x, eps, 1 - eps); no clip for eps < 0."""
    if not eps < 0:     # (a NaN eps clips, to NaN)
        x = p.op(_fast.OP_MIN, p.op(_fast.OP_MAX, x, p.const(eps)),
                 p.const(1 - eps))
    return p.op(_fast.OP_LOG, p.op(_fast.OP_DIV, x,
                                   p.op(_fast.OP_SUB, p.const(1), x)))


# -- activations --------------------------------------------------------------
@recipe("Elu", "EluExt")
def _elu(p, x, alpha):
    return p.op(_fast.OP_ELU, x, p.params(alpha))


@recipe("CeLU")
def _celu(p, x, alpha):
    return p.op(_fast.OP_CELU, x, p.params(alpha))


@recipe("SeLU", "SeLUExt")
def _selu(p, x):
    """scale * elu(x, alpha)."""
    return p.op(_fast.OP_MUL, p.const(SELU_SCALE),
                p.op(_fast.OP_ELU, x, p.params(SELU_ALPHA)))


@recipe("LeakyReLUExt")
def _leaky_relu(p, x, negative_slope):
    return p.op(_fast.OP_LEAKY, x, p.const(negative_slope))


@recipe("PReLU", values=2, fusable=False)
def _prelu(p, x, weight):
    """x > 0 ? x : weight * x (weight already shaped to broadcast)."""
    return p.op(_fast.OP_LEAKY, x, weight)


@recipe("HShrink")
def _hshrink(p, x, lambd):
    """x where |x| > lambd. The reference compares in float64: against
    the largest value of the dtype <= lambd, the dtype's comparison agrees
    with it."""
    with np.errstate(over="ignore"):
        below = p.dtype.type(lambd)
    if float(below) > lambd:
        below = np.nextafter(below, p.dtype.type(-np.inf))
    return p.op(_fast.OP_HSHRINK, x, p.params(below))


@recipe("SoftShrink")
def _soft_shrink(p, x, lambd):
    return p.op(_fast.OP_SOFTSHRINK, x, p.params(lambd))


@recipe("SoftplusExt")
def _softplus_ext(p, x, beta, threshold):
    return p.op(_fast.OP_SOFTPLUS_BETA, x, p.params(beta, threshold))


@recipe("Softsign")
def _softsign(p, x):
    """x / (1 + |x|)."""
    return p.op(_fast.OP_DIV, x, p.op(_fast.OP_ADD, p.const(1),
                                      p.op(_fast.OP_ABS, x)))


@recipe("GeluExt")
def _gelu_ext(p, x, approximate):
    opcode = {"none": _fast.OP_GELU_ERF,
              "tanh": _fast.OP_COPY + _fast.ACT_GELU}.get(approximate)
    return None if opcode is None else p.op(opcode, x)


@recipe("LogSigmoid")
def _log_sigmoid(p, x):
    """-ln(1 + e ** -x) (the op's first output)."""
    return p.op(_fast.OP_NEG, p.op(_fast.OP_SOFTPLUS, p.op(_fast.OP_NEG, x)))


@recipe("LogSigmoid.buffer")
def _log_sigmoid_buffer(p, x):
    """e ** -|x| (LogSigmoid's second output)."""
    return p.op(_fast.OP_EXP, p.op(_fast.OP_NEG, p.op(_fast.OP_ABS, x)))


# -- running one op -----------------------------------------------------------
def apply(name: str, reference, *args):
    """Op ``name`` through its recipe on float32/float64 tensors of one
    dtype (Python numbers beside them); anything else, or shapes that do
    not broadcast (for the reference's error), through ``reference(*args)``."""
    result = run_recipe(name, *args)
    return reference(*args) if result is None else result


def run_recipe(name: str, *args):
    """Op ``name`` through its recipe, or None where it does not apply."""
    entry = RECIPES[name]
    values, params = args[:entry.values], args[entry.values:]
    dtype, pattern = value_pattern(values)
    if dtype is None:
        return None
    try:
        program = program_for(name, dtype, pattern, plain(params))
    except (TypeError, ValueError):     # an unhashable or odd parameter
        return None
    if program is None or _fast.plain_arithmetic(program):
        return None     # (plain arithmetic: NumPy's loops are as fast)
    tensors = [v for v in values if type(v) is np.ndarray]
    return _fast.evaluate(program, tensors)


def value_pattern(values) -> tuple:
    """(dtype, pattern) of an op's values: all tensors of one float32 /
    float64 dtype, Python numbers and None; the pattern has "tensor" for a
    tensor, ("number", v) for a number, None for None. (None, None) for
    anything else."""
    dtype, pattern = None, []
    for v in values:
        if type(v) is np.ndarray:
            if dtype is not None and v.dtype != dtype:
                return None, None
            dtype = v.dtype
            pattern.append("tensor")
        elif type(v) is float or type(v) is int:
            pattern.append(("number", v))
        elif v is None:
            pattern.append(None)
        else:
            return None, None
    return (dtype, tuple(pattern)) if dtype in _fast.FAST_DTYPES \
        else (None, None)


def plain(params) -> tuple:
    """Parameters as hashable Python values (0-d tensors and NumPy
    scalars as Python numbers)."""
    return tuple(p.reshape(-1)[0].item() if isinstance(p, np.ndarray)
                 and p.size == 1 else p.item() if isinstance(p, np.generic)
                 else p for p in params)


@lru_cache(maxsize=1024)
def program_for(name: str, dtype: np.dtype, pattern: tuple, params: tuple):
    """The op's program for values of this pattern (see value_pattern),
    or None where its recipe declines the parameters."""
    p = ProgramBuilder(dtype)
    handles, inputs = [], 0
    for kind in pattern:
        if kind == "tensor":
            handles.append(p.input(inputs))
            inputs += 1
        else:
            handles.append(None if kind is None else p.const(kind[1]))
    result = RECIPES[name].emit(p, *handles, *params)
    return None if result is None else p.build(result)


def log_sigmoid(x):
    """LogSigmoid's pair (y, e ** -|x|), or None where the runner does not
    apply."""
    y = run_recipe("LogSigmoid", x)
    return None if y is None else (y, run_recipe("LogSigmoid.buffer", x))
