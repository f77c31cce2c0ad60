"""TensorScatterUpdate, TensorScatterAdd, Sub, Mul, Max, Min, Div.

The seven primitives differ only in how an update combines with the value it
lands on, so one module registers them all from a table.
"""
import numpy as np

from refinfer.registry import register

from ._kernels import index
from ._ref.common import ALL, FLOATS, NUMBERS
from ._ref.indexing import scatter

_DOC = """{summary}

y = copy(input_x); y[indices[b..., :]] = {formula}.

Arguments (classic PRIMITIVE): input_x; indices (int tensor, last axis
k <= rank of input_x); updates of shape indices.shape[:-1] +
input_x.shape[k:] (cast to input_x's dtype). Output has input_x's shape
and dtype. Negative or out-of-range indices raise (MindSpore CPU too).
{repeats}
"""

# name -> (ufunc or None for assignment, the kernel's reduction code (None: no
# kernel, NumPy's ufunc.at is the fast path), summary, formula, repeats, dtypes)
_VARIANTS = {
    "TensorScatterUpdate": (
        None, index.UPDATE, "Copy of input_x with slices replaced by updates.",
        "updates[b...]", "For repeated indices the last update wins.", ALL),
    "TensorScatterAdd": (
        np.add, index.ADD, "Copy of input_x with updates added at indices.",
        "y[...] + updates[b...]", "Repeated indices accumulate.", NUMBERS),
    "TensorScatterSub": (
        np.subtract, index.SUB, "Copy of input_x with updates subtracted.",
        "y[...] - updates[b...]", "Repeated indices accumulate.", NUMBERS),
    "TensorScatterMul": (
        np.multiply, index.MUL, "Copy of input_x multiplied by updates at indices.",
        "y[...] * updates[b...]", "Repeated indices accumulate.", NUMBERS),
    "TensorScatterMax": (
        np.maximum, index.MAX, "Copy of input_x with the maximum of it and updates.",
        "max(y[...], updates[b...])", "Repeated indices take the overall maximum.",
        NUMBERS),
    "TensorScatterMin": (
        np.minimum, index.MIN, "Copy of input_x with the minimum of it and updates.",
        "min(y[...], updates[b...])", "Repeated indices take the overall minimum.",
        NUMBERS),
    "TensorScatterDiv": (
        np.divide, None, "Copy of input_x divided by updates at indices.",
        "y[...] / updates[b...]", "Repeated indices divide in turn; x / 0 is "
        "+-inf or NaN.", FLOATS),
}


def _make(name, combine, code, summary, formula, repeats, dtypes):
    def tensor_scatter(input_x, indices, updates):
        return scatter(input_x, indices, updates, combine, name)
    tensor_scatter.__name__ = tensor_scatter.__qualname__ = \
        "tensor_scatter_" + name[len("TensorScatter"):].lower()
    tensor_scatter.__doc__ = _DOC.format(summary=summary, formula=formula,
                                         repeats=repeats)
    if code is None:
        return register(name, family="shape", dtypes=dtypes,
                        no_kernel="native")(tensor_scatter)
    return register(name, family="shape", dtypes=dtypes,
                    kernels={"numba": index.tensor_scatter(code)})(tensor_scatter)


for _name, _spec in _VARIANTS.items():
    _make(_name, *_spec)

