"""TensorScatterUpdate, TensorScatterAdd, Sub, Mul, Max, Min.

The six primitives differ only in how an update combines with the value it
lands on, so one module registers them all from a table.
"""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, NUMBERS
from ._ref.indexing import scatter

_DOC = """{summary}

y = copy(input_x); y[indices[b..., :]] = {formula}.

Arguments (classic PRIMITIVE): input_x; indices (int tensor, last axis
k <= rank of input_x); updates of shape indices.shape[:-1] +
input_x.shape[k:] (cast to input_x's dtype). Output has input_x's shape
and dtype. Negative or out-of-range indices raise (MindSpore CPU too).
{repeats}
"""

# name -> (ufunc or None for assignment, summary, formula, repeats, dtypes)
_VARIANTS = {
    "TensorScatterUpdate": (None, "Copy of input_x with slices replaced by "
                            "updates.",
                            "updates[b...]",
                            "For repeated indices the last update wins.", ALL),
    "TensorScatterAdd": (np.add, "Copy of input_x with updates added at "
                         "indices.",
                         "y[...] + updates[b...]",
                         "Repeated indices accumulate.", NUMBERS),
    "TensorScatterSub": (np.subtract, "Copy of input_x with updates "
                         "subtracted.",
                         "y[...] - updates[b...]",
                         "Repeated indices accumulate.", NUMBERS),
    "TensorScatterMul": (np.multiply, "Copy of input_x multiplied by updates "
                         "at indices.",
                         "y[...] * updates[b...]",
                         "Repeated indices accumulate.", NUMBERS),
    "TensorScatterMax": (np.maximum, "Copy of input_x with the maximum of it "
                         "and updates.",
                         "max(y[...], updates[b...])",
                         "Repeated indices take the overall maximum.", NUMBERS),
    "TensorScatterMin": (np.minimum, "Copy of input_x with the minimum of it "
                         "and updates.",
                         "min(y[...], updates[b...])",
                         "Repeated indices take the overall minimum.", NUMBERS),
}


def _make(name, combine, summary, formula, repeats, dtypes):
    def tensor_scatter(input_x, indices, updates):
        return scatter(input_x, indices, updates, combine, name)
    tensor_scatter.__name__ = tensor_scatter.__qualname__ = \
        "tensor_scatter_" + name[len("TensorScatter"):].lower()
    tensor_scatter.__doc__ = _DOC.format(summary=summary, formula=formula,
                                         repeats=repeats)
    return register(name, family="shape", dtypes=dtypes)(tensor_scatter)


_REFERENCES = {name: _make(name, *spec) for name, spec in _VARIANTS.items()}


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import index as _fast_index  # noqa: E402

_CODES = {"TensorScatterUpdate": _fast_index.UPDATE, "TensorScatterAdd": _fast_index.ADD,
          "TensorScatterSub": _fast_index.SUB, "TensorScatterMul": _fast_index.MUL,
          "TensorScatterMax": _fast_index.MAX, "TensorScatterMin": _fast_index.MIN}


def _make_numba(name, code):
    reference = _REFERENCES[name]

    def tensor_scatter_numba(input_x, indices, updates):
        out = _fast_index.scatter(input_x, indices, updates, code)
        return reference(input_x, indices, updates) if out is None else out
    tensor_scatter_numba.__name__ = tensor_scatter_numba.__qualname__ = \
        reference.__name__ + "_numba"
    tensor_scatter_numba.__doc__ = (
        f"{name} with ``_fast_index.scatter`` for float32/float64/int32/int64 "
        "(any 4- or 8-byte dtype for the update); the rest through the reference.")
    return register_kernel(name, "numba")(tensor_scatter_numba)


for _name, _code in _CODES.items():
    _make_numba(_name, _code)
