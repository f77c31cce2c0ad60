"""Float elementwise math and activation ops as programs of the elementwise
runner (ops/_kernels/program.py), for the ``numba`` backend.

Each op declares its *recipe* in its register call: ``recipe=unary(OP_ASIN)``
or ``recipe=binary(OP_ADD)`` for an op that is one opcode, else one of the
recipes written here (``recipe=ADD_EXT``). A recipe is the reference formula,
in the reference's order of operations and dtypes, written as program rows by
a :class:`program.ProgramBuilder`. The registry checks it against the
reference's signature and takes the op's Numba kernel from it
(:meth:`Recipe.run`); the fusion pass (refinfer/passes/elementwise.py) writes
the recipes of a chain of ops into one program, so a chain such as
x * sigmoid(x) or a GELU spelled out in Mul, Add, Erf runs in one pass.

An emitter is called with the builder, the handles of the op's *value*
arguments (tensors or numbers, None for an absent optional one) and its
*parameters* (alpha, lambd, ...: plan-time constants, which decide the rows
or become parameter registers), and returns the result's handle, or None
where it does not handle those parameters (the reference then runs).

Numbers and parameters take the tensors' dtype as NumPy converts a Python
number beside an array (so as the references compute). A lone op whose
program is one row of an op NumPy has a ufunc for runs as that ufunc, in
NumPy's own (often SIMD) loop, and a longer one of plain arithmetic (AddExt,
Lerp, Addcmul: memory-bound) declines to the reference: the runner gains
nothing there. In a fused chain the runner runs them all.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Callable

import numpy as np

from .program import (FAST_DTYPES, alone, plain_arithmetic, ProgramBuilder,
                      OP_ABS, OP_ADD, OP_CELU, OP_DIV, OP_ELU, OP_EXP, OP_GELU,
                      OP_GELU_ERF, OP_HSHRINK, OP_LEAKY, OP_LOG, OP_MAX,
                      OP_MIN, OP_MUL, OP_NAN_TO_NUM, OP_NEG, OP_RINT,
                      OP_SOFTPLUS, OP_SOFTPLUS_BETA, OP_SOFTSHRINK, OP_SQRT,
                      OP_SQUARE, OP_SUB, OP_TRUNC)
from .._ref.math import SELU_ALPHA, SELU_SCALE, channel_weight


@dataclass(frozen=True, eq=False)      # (hashed by identity: a cache key)
class Recipe:
    """An op's formula as program rows, and so its Numba kernel."""
    values: int         # leading arguments that are values (the rest: params)
    emit: Callable      # emit(builder, *value handles, *params) -> handle
    # The op's arguments -> the arguments its program takes, or None to
    # decline (PReLU shapes its weight to broadcast along axis 1).
    prepare: Callable | None = None
    # dtype -> how values that are all tensors of it run (False: declined):
    # found once, then one lookup a call (see run)
    on_tensors: dict = field(default_factory=dict, init=False, repr=False)

    @property
    def fusable(self) -> bool:
        """Whether its values broadcast as NumPy's, as a fused chain takes
        them (not where they must be prepared first)."""
        return self.prepare is None

    def check(self, qualname: str, n_params: int) -> None:
        """Refuse (TypeError) an op of ``n_params`` parameters this recipe
        cannot write: fewer than its values, or not what its emitter takes
        after the builder."""
        takes = len(inspect.signature(self.emit).parameters) - 1
        if self.values > n_params or takes != n_params:
            raise TypeError(f"{qualname}: its recipe takes {self.values} values "
                            f"and {takes} arguments in all, the op has "
                            f"{n_params} parameters")

    def kernels(self) -> dict[str, Callable]:
        """The op's kernels by backend (the registry wraps each once)."""
        return {"numba": self.run}

    def bind(self, args: tuple) -> tuple | None:
        """(dtype, pattern, params, tensors) of the op's arguments, as
        :func:`value_pattern` and :func:`plain` give them (the keys of its
        program); None where the recipe does not take them. Shared by the
        backends' runners (also refinfer/cuda/elementwise.py)."""
        if self.prepare is not None:
            args = self.prepare(*args)
            if args is None:
                return None
        dtype, pattern, tensors = value_pattern(args[:self.values])
        if dtype is None:
            return None
        params = args[self.values:]
        return dtype, pattern, plain(params) if params else (), tensors

    def run(self, *args):
        """The op through its program on float32/float64 tensors of one
        dtype (Python numbers beside them); None for anything else, or for
        shapes that do not broadcast (the reference then raises)."""
        if len(args) == self.values and self.prepare is None:
            # values alone, all tensors of one dtype: most calls, answered
            # without binding (every predict pays this per node)
            dtype = _tensors_dtype(args)
            if dtype is not None:
                runner = self.on_tensors.get(dtype)
                if runner is None:
                    runner = self._tensor_runner(dtype)
                return runner(args) if runner else None
        bound = self.bind(args)
        if bound is None:
            return None
        dtype, pattern, params, tensors = bound
        try:
            runner = _alone(self, dtype, pattern, params)
        except (TypeError, ValueError):     # an unhashable or odd parameter
            return None
        return None if runner is None else runner(tensors)

    def _tensor_runner(self, dtype):
        """How values that are all tensors of ``dtype`` run, remembered by
        dtype; False where the recipe declines them."""
        runner = None
        if dtype in FAST_DTYPES:
            try:
                runner = _alone(self, dtype, ("tensor",) * self.values, ())
            except (TypeError, ValueError):     # declined as ``run`` does:
                pass        # parameters left to the reference's defaults
        runner = self.on_tensors[dtype] = runner or False
        return runner


def recipe(values: int = 1, prepare: Callable | None = None):
    """Decorator: the emitter as the :class:`Recipe` of an op whose first
    ``values`` arguments are values."""
    def decorate(emit: Callable) -> Recipe:
        return Recipe(values, emit, prepare)
    return decorate


@cache
def unary(opcode: int) -> Recipe:
    """The recipe of an op that is ``opcode`` of its one value."""
    return Recipe(1, lambda p, x: None if x is None else p.op(opcode, x))


@cache
def binary(opcode: int) -> Recipe:
    """The recipe of an op that is ``opcode`` of its two values."""
    return Recipe(2, lambda p, a, b: None if a is None or b is None
                  else p.op(opcode, a, b))


# -- arithmetic ---------------------------------------------------------------
def _scaled(p, b, alpha):
    """alpha * b (b itself for alpha == 1, as the reference)."""
    return b if alpha == 1 else p.op(OP_MUL, b, p.const(alpha))


@recipe(values=2)
def ADD_EXT(p, a, b, alpha):
    return p.op(OP_ADD, a, _scaled(p, b, alpha))


@recipe(values=2)
def SUB_EXT(p, a, b, alpha):
    return p.op(OP_SUB, a, _scaled(p, b, alpha))


@recipe(values=2)
def SQUARED_DIFFERENCE(p, a, b):
    """(a - b) ** 2."""
    return p.op(OP_SQUARE, p.op(OP_SUB, a, b))


@recipe(values=4)
def ADDCMUL(p, a, t1, t2, value):
    """input + value * tensor1 * tensor2."""
    product = p.op(OP_MUL, p.op(OP_MUL, value, t1), t2)
    return p.op(OP_ADD, a, product)


@recipe(values=4)
def ADDCDIV(p, a, t1, t2, value):
    """input + value * (tensor1 / tensor2)."""
    quotient = p.op(OP_DIV, t1, t2)
    return p.op(OP_ADD, a, p.op(OP_MUL, value, quotient))


@recipe(values=3)
def LERP(p, a, end, weight):
    """input + weight * (end - input)."""
    step = p.op(OP_MUL, weight, p.op(OP_SUB, end, a))
    return p.op(OP_ADD, a, step)


@recipe(values=3)
def CLAMP(p, x, low, high):
    """minimum(maximum(x, low), high), absent bounds skipped."""
    if low is not None:
        x = p.op(OP_MAX, x, low)
    if high is not None:
        x = p.op(OP_MIN, x, high)
    return x


@recipe()
def RECIPROCAL(p, x):
    return p.op(OP_DIV, p.const(1), x)


@recipe()
def RSQRT(p, x):
    return p.op(OP_DIV, p.const(1), p.op(OP_SQRT, x))


@recipe()
def FRAC(p, x):
    return p.op(OP_SUB, x, p.op(OP_TRUNC, x))


@recipe(values=2)
def XLOGY(p, x, y):
    return p.op(OP_MUL, x, p.op(OP_LOG, y))


@recipe()
def ROUND(p, x, decimals):
    """NumPy's rounding: x * 10 ** d, rint (halves to even), / 10 ** d
    (divide first and multiply after for d < 0)."""
    if isinstance(decimals, bool) or not isinstance(decimals, int):
        return None
    if decimals == 0:
        return p.op(OP_RINT, x)
    scale, unscale = (OP_MUL, OP_DIV) if decimals > 0 \
        else (OP_DIV, OP_MUL)
    factor = p.const(10.0 ** abs(decimals))
    return p.op(unscale, p.op(OP_RINT, p.op(scale, x, factor)), factor)


@recipe()
def NAN_TO_NUM(p, x, nan, posinf, neginf):
    """NaN -> nan (0), +inf -> posinf, -inf -> neginf (the dtype's largest
    and lowest values by default)."""
    info = np.finfo(p.dtype)
    return p.op(OP_NAN_TO_NUM, x, p.params(
        0.0 if nan is None else nan, info.max if posinf is None else posinf,
        info.min if neginf is None else neginf))


@recipe()
def LOGIT(p, x, eps):
    """ln(z / (1 - z)), z = clip(x, eps, 1 - eps); no clip for eps < 0."""
    if not eps < 0:     # (a NaN eps clips, to NaN)
        x = p.op(OP_MIN, p.op(OP_MAX, x, p.const(eps)),
                 p.const(1 - eps))
    return p.op(OP_LOG, p.op(OP_DIV, x,
                                   p.op(OP_SUB, p.const(1), x)))


# -- activations --------------------------------------------------------------
@recipe()
def ELU(p, x, alpha):
    return p.op(OP_ELU, x, p.params(alpha))


@recipe()
def CELU(p, x, alpha):
    return p.op(OP_CELU, x, p.params(alpha))


@recipe()
def SELU(p, x):
    """scale * elu(x, alpha)."""
    return p.op(OP_MUL, p.const(SELU_SCALE),
                p.op(OP_ELU, x, p.params(SELU_ALPHA)))


@recipe()
def LEAKY_RELU(p, x, negative_slope):
    return p.op(OP_LEAKY, x, p.const(negative_slope))


def _channel_weight(input, weight):
    """PReLU's (input, weight) with the weight shaped to broadcast as in
    the reference; None where they are not both tensors."""
    if not (isinstance(input, np.ndarray) and isinstance(weight, np.ndarray)):
        return None
    return input, channel_weight(input, weight)


@recipe(values=2, prepare=_channel_weight)
def PRELU(p, x, weight):
    """x > 0 ? x : weight * x (weight already shaped to broadcast)."""
    return p.op(OP_LEAKY, x, weight)


@recipe()
def HSHRINK(p, x, lambd):
    """x where |x| > lambd. The reference compares in float64: against
    the largest value of the dtype <= lambd, the dtype's comparison agrees
    with it."""
    with np.errstate(over="ignore"):
        below = p.dtype.type(lambd)
    if float(below) > lambd:
        below = np.nextafter(below, p.dtype.type(-np.inf))
    return p.op(OP_HSHRINK, x, p.params(below))


@recipe()
def SOFT_SHRINK(p, x, lambd):
    return p.op(OP_SOFTSHRINK, x, p.params(lambd))


@recipe()
def SOFTPLUS_EXT(p, x, beta, threshold):
    return p.op(OP_SOFTPLUS_BETA, x, p.params(beta, threshold))


@recipe()
def SOFTSIGN(p, x):
    """x / (1 + |x|)."""
    return p.op(OP_DIV, x, p.op(OP_ADD, p.const(1),
                                      p.op(OP_ABS, x)))


@recipe()
def GELU_EXT(p, x, approximate):
    opcode = {"none": OP_GELU_ERF, "tanh": OP_GELU}.get(approximate)
    return None if opcode is None else p.op(opcode, x)


@recipe()
def LOG_SIGMOID(p, x):
    """-ln(1 + e ** -x) (the op's first output)."""
    return p.op(OP_NEG, p.op(OP_SOFTPLUS, p.op(OP_NEG, x)))


@recipe()
def LOG_SIGMOID_BUFFER(p, x):
    """e ** -|x| (LogSigmoid's second output)."""
    return p.op(OP_EXP, p.op(OP_NEG, p.op(OP_ABS, x)))


def log_sigmoid_pair(input):
    """LogSigmoid's pair (y, e ** -|x|), or None where its programs do not
    apply."""
    y = LOG_SIGMOID.run(input)
    return None if y is None else (y, LOG_SIGMOID_BUFFER.run(input))


# -- programs -----------------------------------------------------------------
def value_pattern(values) -> tuple:
    """(dtype, pattern, tensors) of an op's values: all tensors of one
    float32 / float64 dtype, Python numbers and None; the pattern has
    "tensor" for a tensor, ("number", v) for a number, None for None.
    (None, None, None) for anything else."""
    dtype = _tensors_dtype(values)
    if dtype is not None:       # only tensors: most calls, answered first
        return (dtype, ("tensor",) * len(values), values) \
            if dtype in FAST_DTYPES else _DECLINED
    pattern, tensors = [], []
    for v in values:
        if type(v) is np.ndarray:
            if dtype is not None and v.dtype != dtype:
                return _DECLINED
            dtype = v.dtype
            pattern.append("tensor")
            tensors.append(v)
        elif type(v) is float or type(v) is int:
            pattern.append(("number", v))
        elif v is None:
            pattern.append(None)
        else:
            return _DECLINED
    return (dtype, tuple(pattern), tensors) if dtype in FAST_DTYPES \
        else _DECLINED


_DECLINED = (None, None, None)


def _tensors_dtype(values):
    """The dtype of ``values`` when they are all tensors of one dtype, else
    None. (Asked at every call of an elementwise kernel: a plain loop.)"""
    dtype = None
    for v in values:
        if type(v) is not np.ndarray:
            return None
        its = v.dtype       # (most often the very dtype: no comparison)
        if its is not dtype and dtype is not None and its != dtype:
            return None
        dtype = its
    return dtype


def plain(params) -> tuple:
    """Parameters as hashable Python values (0-d tensors and NumPy
    scalars as Python numbers)."""
    return tuple(p.reshape(-1)[0].item() if isinstance(p, np.ndarray)
                 and p.size == 1 else p.item() if isinstance(p, np.generic)
                 else p for p in params)


@lru_cache(maxsize=1024)
def program_for(recipe: Recipe, dtype: np.dtype, pattern: tuple, params: tuple):
    """The recipe's program for values of this pattern (see value_pattern),
    or None where it declines the parameters."""
    p = ProgramBuilder(dtype)
    handles, inputs = [], 0
    for kind in pattern:
        if kind == "tensor":
            handles.append(p.input(inputs))
            inputs += 1
        else:
            handles.append(None if kind is None else p.const(kind[1]))
    result = recipe.emit(p, *handles, *params)
    return None if result is None else p.build(result)


@lru_cache(maxsize=1024)
def _alone(recipe: Recipe, dtype: np.dtype, pattern: tuple, params: tuple):
    """How the op runs alone on values of this pattern (see
    :func:`program.alone`), or None where it declines them."""
    program = program_for(recipe, dtype, pattern, params)
    if program is None or len(program.rows) > 1 and plain_arithmetic(program):
        return None     # (plain arithmetic: NumPy's loops are as fast)
    return alone(program)
