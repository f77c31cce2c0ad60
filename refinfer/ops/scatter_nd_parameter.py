"""ScatterNdAdd, ScatterNdSub, ScatterNdUpdate, ScatterNdMul, ScatterNdMax,
ScatterNdMin and ScatterNdDiv: the in-place scatters into a Parameter.

They are TensorScatter*'s arithmetic applied to a Parameter (ops.scatter_nd_add
and friends), so one module registers them all from a table.
"""
import numpy as np

from refinfer.registry import register

from ._kernels import index
from ._ref.common import ALL, FLOATS, NUMBERS
from ._ref.indexing import scatter

_DOC = """{summary}

input_x[indices[b..., :]] = {formula}; {repeats}
Arguments (classic PRIMITIVE): input_x (a Parameter); indices (int, last axis
k <= rank, in range); updates of shape indices.shape[:-1] + input_x.shape[k:]
(cast to input_x's dtype); use_locking=False (attribute, no effect here).
MindSpore updates input_x in place and returns it; this returns the new value
and the graph builder makes later reads of input_x see it.
"""

# name -> (ufunc or None for assignment, the kernel's reduction code or None,
# summary, formula, repeats, dtypes)
_VARIANTS = {
    "ScatterNdAdd": (np.add, index.ADD, "Adds updates into a Parameter.",
                     "input_x[...] + updates[b...]", "repeats accumulate.", NUMBERS),
    "ScatterNdSub": (np.subtract, index.SUB, "Subtracts updates from a Parameter.",
                     "input_x[...] - updates[b...]", "repeats accumulate.", NUMBERS),
    "ScatterNdUpdate": (None, index.UPDATE, "Writes updates into a Parameter.",
                        "updates[b...]", "the last repeat wins.", ALL),
    "ScatterNdMul": (np.multiply, index.MUL, "Multiplies a Parameter by updates.",
                     "input_x[...] * updates[b...]", "repeats accumulate.", NUMBERS),
    "ScatterNdMax": (np.maximum, index.MAX, "The maximum of a Parameter and updates.",
                     "max(input_x[...], updates[b...])",
                     "repeats take the overall maximum.", NUMBERS),
    "ScatterNdMin": (np.minimum, index.MIN, "The minimum of a Parameter and updates.",
                     "min(input_x[...], updates[b...])",
                     "repeats take the overall minimum.", NUMBERS),
    "ScatterNdDiv": (np.divide, None, "Divides a Parameter by updates.",
                     "input_x[...] / updates[b...]", "repeats divide in turn.", FLOATS),
}


def _make(name, combine, code, summary, formula, repeats, dtypes):
    def scatter_nd_parameter(input_x, indices, updates, use_locking=False):
        return scatter(input_x, indices, updates, combine, name)
    scatter_nd_parameter.__name__ = scatter_nd_parameter.__qualname__ = \
        "scatter_nd_" + name[len("ScatterNd"):].lower()
    scatter_nd_parameter.__doc__ = _DOC.format(summary=summary, formula=formula,
                                               repeats=repeats)
    if code is None:
        return register(name, family="shape", dtypes=dtypes, mutates="input_x",
                        no_kernel="native")(scatter_nd_parameter)
    fast = index.tensor_scatter(code)

    def kernel(input_x, indices, updates, use_locking=False):
        return fast(input_x, indices, updates)
    return register(name, family="shape", dtypes=dtypes, mutates="input_x",
                    kernels={"numba": kernel})(scatter_nd_parameter)


for _name, _spec in _VARIANTS.items():
    _make(_name, *_spec)
