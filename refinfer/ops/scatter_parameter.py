"""The in-place scatters into a Parameter: ScatterNdAdd, ScatterNdSub,
ScatterNdUpdate, ScatterNdMul, ScatterNdMax, ScatterNdMin, ScatterNdDiv, and
their row forms ScatterAdd, ScatterSub, ScatterUpdate, ScatterMul, ScatterMax,
ScatterMin, ScatterDiv.

They are TensorScatter*'s arithmetic applied to a Parameter (ops.scatter_nd_add,
ops.scatter_add and friends); a row form's indices name rows of input_x, which
is its ScatterNd form with the indices given a last axis of one. So one module
registers all fourteen from a table.
"""
import numpy as np

from refinfer.registry import register

from ._kernels import index
from ._ref.common import ALL, FLOATS, NUMBERS
from ._ref.indexing import scatter

_DOC = """{summary}

input_x[{where}] = {formula}; {repeats}
Arguments (classic PRIMITIVE): input_x (a Parameter); {indices};
updates of shape {shape} (cast to input_x's dtype); use_locking=False
(attribute, no effect here). MindSpore updates input_x in place and returns
it; this returns the new value and the graph builder makes later reads of
input_x see it.
"""

# The two ways of naming the slices: (prefix, where, indices, updates' shape,
# the index tensor as ScatterNd's)
_FORMS = (
    ("ScatterNd", "indices[b..., :]", "indices (int, last axis k <= rank, in range)",
     "indices.shape[:-1] + input_x.shape[k:]", lambda indices: indices),
    ("Scatter", "indices[b...]", "indices (int, any shape, rows of input_x in "
     "range)", "indices.shape + input_x.shape[1:]",
     lambda indices: np.asarray(indices)[..., None]),
)

# kind -> (ufunc or None for assignment, the kernel's reduction code or None,
# summary, formula, repeats, dtypes)
_VARIANTS = {
    "Add": (np.add, index.ADD, "Adds updates into a Parameter.",
            "input_x[...] + updates[b...]", "repeats accumulate.", NUMBERS),
    "Sub": (np.subtract, index.SUB, "Subtracts updates from a Parameter.",
            "input_x[...] - updates[b...]", "repeats accumulate.", NUMBERS),
    "Update": (None, index.UPDATE, "Writes updates into a Parameter.",
               "updates[b...]", "the last repeat wins.", ALL),
    "Mul": (np.multiply, index.MUL, "Multiplies a Parameter by updates.",
            "input_x[...] * updates[b...]", "repeats accumulate.", NUMBERS),
    "Max": (np.maximum, index.MAX, "The maximum of a Parameter and updates.",
            "max(input_x[...], updates[b...])",
            "repeats take the overall maximum.", NUMBERS),
    "Min": (np.minimum, index.MIN, "The minimum of a Parameter and updates.",
            "min(input_x[...], updates[b...])",
            "repeats take the overall minimum.", NUMBERS),
    "Div": (np.divide, None, "Divides a Parameter by updates.",
            "input_x[...] / updates[b...]", "repeats divide in turn.", FLOATS),
}


def _make(form, kind, combine, code, summary, formula, repeats, dtypes):
    prefix, where, indices_doc, shape, as_nd = form
    name = prefix + kind

    def scatter_parameter(input_x, indices, updates, use_locking=False):
        return scatter(input_x, as_nd(indices), updates, combine, name)
    scatter_parameter.__name__ = scatter_parameter.__qualname__ = \
        "_".join(("scatter", "nd" if prefix == "ScatterNd" else "", kind.lower())
                 ).replace("__", "_")
    scatter_parameter.__doc__ = _DOC.format(
        summary=summary, where=where, formula=formula, repeats=repeats,
        indices=indices_doc, shape=shape)
    if code is None:
        return register(name, family="shape", dtypes=dtypes, mutates="input_x",
                        no_kernel="native")(scatter_parameter)
    fast = index.tensor_scatter(code)

    def kernel(input_x, indices, updates, use_locking=False):
        return fast(input_x, as_nd(indices), updates)
    return register(name, family="shape", dtypes=dtypes, mutates="input_x",
                    kernels={"numba": kernel})(scatter_parameter)


for _form in _FORMS:
    for _kind, _spec in _VARIANTS.items():
        _make(_form, _kind, *_spec)
