"""The ``cuda`` kernels of the ops that are a few other ops in a row:
ApproximateEqual, GLU, Swiglu, the small reductions L2Loss, SquareSumAll,
EqualCount and TraceV2, the losses KLDivLoss and
SoftmaxCrossEntropyWithLogits, ClipByNorm, Renorm, and Eps. Each is its
reference's formula written with the other ops' cuda kernels (the
registry's, so the elementwise program runner, the reductions, LogSoftmax,
Split, Diagonal, Select, Cast...), in the reference's order of operations
and dtype; no kernel of its own.

float16 is computed in float32 and rounded once, as the references do
(refinfer/cuda/half.py; the steps alone would round each result). Where a
step declines (dtypes or shapes a step does not take) the whole op
declines, and the CPU kernel gives the result or the reference's error;
the references' own refusals (odd lengths, bad axes, shapes that differ)
decline before any step runs. The sums are the reduction kernel's (float32 accumulated in
float32, in another order than NumPy's pairwise sums)."""
from __future__ import annotations

import functools

import numpy as np

from refinfer import registry
from refinfer.ops._ref.reduce import reduce_axes

from . import device
from .fill import filled
from .half import in_float32


class _Declined(Exception):
    """A step's kernel declined: so does the composed op."""


def _run(op: str, *args):
    """Op ``op``'s cuda kernel of ``args``; _Declined where it declines."""
    result = registry.get_op(op).kernels["cuda"](*args)
    if result is None:
        raise _Declined(op)
    return result


def composed(steps):
    """The cuda kernel running ``steps`` (a function of the reference's
    arguments calling :func:`_run`): None where a step declines, or
    refuses its arguments as its reference does (Sigmoid of GLU's bool
    halves: the composed op's reference may take what a step's refuses)."""
    @functools.wraps(steps)
    def run(*args):
        try:
            return steps(*args)
        except (_Declined, TypeError, ValueError):
            return None
    return run


def _constant(value, dtype):
    """A 0-d device array of ``value`` in ``dtype`` (an operand of Select)."""
    return device.to_device(np.asarray(value, dtype))


def _even_axis(x, axis) -> int:
    """``axis`` wrapped, for the gated units; _Declined where it is not an
    axis of even length of x (the reference raises)."""
    axis, shape = int(axis), tuple(x.shape)     # (a device shape takes no -1)
    if x.ndim == 0 or not -x.ndim <= axis < x.ndim or shape[axis] % 2:
        raise _Declined(axis)
    return axis % x.ndim


@composed
def approximate_equal(x, y, tolerance=1e-05):
    """ApproximateEqual: |x - y| < tolerance in the operands' dtype; not
    integers (the reference's difference does not wrap)."""
    if x.dtype.kind != "f":
        return None
    return _run("Less", _run("Abs", _run("Sub", x, y)), float(tolerance))


@composed
def glu(x, axis=-1):
    """GLU: a * sigmoid(b) of x's two halves along axis."""
    a, b = _run("Split", x, _even_axis(x, axis), 2)
    return _run("Mul", a, _run("Sigmoid", b))


@composed
def swiglu(input, dim=-1):
    """Swiglu: a * sigmoid(a) * b (SiLU's a * sigmoid(a), then * b)."""
    a, b = _run("Split", input, _even_axis(input, dim), 2)
    return _run("Mul", _run("SiLU", a), b)


def _sum_of_squares(x):
    """sum(x ** 2) over every axis, 0-d."""
    return _run("ReduceSum", _run("Square", x), (), False)


@composed
def l2_loss(input):
    """L2Loss: sum(x ** 2) / 2 (a halving, exact as a product by 0.5); not
    integers (the reference keeps their dtype)."""
    if input.dtype.kind != "f":
        return None
    return _run("Mul", _sum_of_squares(input), 0.5)


@composed
def square_sum_all(x, y):
    """SquareSumAll: (sum(x ** 2), sum(y ** 2)); not bool (Square's
    bool result is int8, the reference's sum stays bool)."""
    if np.dtype(np.bool_) in (x.dtype, y.dtype):
        return None
    return _sum_of_squares(x), _sum_of_squares(y)


@composed
def equal_count(x, y):
    """EqualCount: [count of x == y] in x's dtype. Shapes that differ, and
    a count that an integer dtype may not hold (the reference raises),
    decline."""
    if tuple(x.shape) != tuple(y.shape) or x.dtype != y.dtype:
        return None
    if x.dtype.kind in "iu" and x.size > np.iinfo(x.dtype).max:
        return None
    equal = _run("Cast", _run("Equal", x, y), np.dtype(np.int64))
    return _run("Cast", _run("ReduceSum", equal, (), False), x.dtype).reshape(1)


@composed
def trace_v2(input, offset=0, axis1=1, axis2=0, dtype=None):
    """TraceV2: the diagonals of the axis1, axis2 planes, summed in dtype
    (None: int64 for integers and bool, else input's)."""
    if input.ndim < 2 or axis1 % input.ndim == axis2 % input.ndim:
        return None
    if dtype is None:
        dtype = np.int64 if input.dtype.kind in "iub" else input.dtype
    diagonals = _run("Diagonal", input, offset, axis1, axis2)
    if diagonals.dtype != np.dtype(dtype):
        diagonals = _run("Cast", diagonals, np.dtype(dtype))
    return _run("ReduceSum", diagonals, (diagonals.ndim - 1,), False)


@composed
def kl_div_loss(logits, labels, reduction="mean"):
    """KLDivLoss: l = labels (log(labels) - logits), 0 where labels <= 0,
    then reduced ("none", "mean", "sum", "batchmean"). Labels of another
    dtype decline (the reference computes in logits' dtype, the steps
    would promote)."""
    if tuple(logits.shape) != tuple(labels.shape) or labels.dtype != logits.dtype \
            or reduction not in ("none", "mean", "sum", "batchmean"):
        return None
    positive = _run("Greater", labels, 0.0)
    safe = _run("Select", positive, labels, _constant(1, labels.dtype))
    terms = _run("Mul", labels, _run("Sub", _run("Log", safe), logits))
    loss = _run("Select", positive, terms, _constant(0, terms.dtype))
    if reduction == "mean":
        return _run("ReduceMean", loss, (), False)
    if reduction == "none":
        return loss
    total = _run("ReduceSum", loss, (), False)
    if reduction == "sum":
        return total
    return _run("Div", total, float(logits.shape[0] if logits.ndim else 1))


@composed
def softmax_cross_entropy_with_logits(logits, labels):
    """SoftmaxCrossEntropyWithLogits: (-sum(labels log_softmax(logits)) per
    row, softmax(logits) - labels)."""
    if logits.ndim != 2 or tuple(labels.shape) != tuple(logits.shape) \
            or labels.dtype != logits.dtype:
        return None
    log_p = _run("LogSoftmax", logits, (-1,))
    loss = _run("Neg", _run("ReduceSum", _run("Mul", labels, log_p), (-1,), False))
    return loss, _run("Sub", _run("Exp", log_p), labels)


@composed
def clip_by_norm(x, clip_norm, axis=None):
    """ClipByNorm: x clip_norm / max(norm, clip_norm), norm the L2 norm
    over axis (kept as length-1 axes)."""
    if x.dtype.kind != "f":
        return None
    if device.is_device_array(clip_norm):
        limit = clip_norm if clip_norm.dtype == x.dtype else _run("Cast", clip_norm,
                                                                  x.dtype)
    else:
        limit = _constant(np.asarray(clip_norm).astype(x.dtype), x.dtype)
    axes = reduce_axes(axis, x.ndim)
    norm = _run("Sqrt", _run("ReduceSum", _run("Square", x), axes, True))
    return _run("Div", _run("Mul", x, limit), _run("Maximum", norm, limit))


@composed
def renorm(x, p, dim, maxnorm):
    """Renorm: each slice along dim times maxnorm / (norm + 1e-7) where its
    p-norm (sum |s| ** p) ** (1 / p) exceeds maxnorm."""
    if p <= 0 or maxnorm < 0 or x.ndim == 0 or x.dtype.kind != "f":
        return None
    axes = tuple(a for a in range(x.ndim) if a != int(dim) % x.ndim)
    powers = _run("Pow", _run("Abs", x), float(p))
    if axes:                            # (ReduceSum's empty axes mean every axis)
        powers = _run("ReduceSum", powers, axes, True)
    norm = _run("Pow", powers, 1.0 / p)
    shrink = _run("Div", float(maxnorm), _run("Add", norm, 1e-7))
    scale = _run("Select", _run("Greater", norm, float(maxnorm)), shrink,
                 _constant(1, x.dtype))
    return _run("Mul", x, scale)


def eps(x):
    """Eps: x's shape filled with its dtype's machine epsilon (float16
    included: a fill); other dtypes decline (the reference raises)."""
    if x.dtype.kind != "f":
        return None
    return filled(tuple(x.shape), np.asarray(np.finfo(x.dtype).eps, x.dtype))


KERNELS = {"ApproximateEqual": approximate_equal, "GLU": glu, "Swiglu": swiglu,
           "L2Loss": l2_loss, "SquareSumAll": square_sum_all,
           "EqualCount": equal_count, "TraceV2": trace_v2, "KLDivLoss": kl_div_loss,
           "SoftmaxCrossEntropyWithLogits": softmax_cross_entropy_with_logits,
           "ClipByNorm": clip_by_norm, "Renorm": renorm, "Eps": eps}
# float16 in float32, as the references (the steps would round each result);
# Eps gives float16's own epsilon.
KERNELS.update({name: in_float32(kernel) for name, kernel in KERNELS.items()
                if name != "Eps"})
registry.declare_kernels("cuda", KERNELS)
PTX: list = []      # (no kernel of its own)
