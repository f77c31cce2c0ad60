"""ScatterNdAdd."""
import numpy as np

from refinfer.registry import register

from ._kernels import index
from ._ref.common import NUMBERS
from ._ref.indexing import scatter


_ADD = index.tensor_scatter(index.ADD)


def _kernel(input_x, indices, updates, use_locking=False):
    return _ADD(input_x, indices, updates)


@register("ScatterNdAdd", family="shape", dtypes=NUMBERS, mutates="input_x",
          kernels={"numba": _kernel})
def scatter_nd_add(input_x, indices, updates, use_locking=False):
    """Adds updates into the Parameter input_x at indices (ops.scatter_nd_add).

    input_x[indices[b..., :]] += updates[b...]; repeated indices accumulate.
    Arguments (classic PRIMITIVE): input_x (a Parameter); indices (int,
    last axis k <= rank); updates of shape indices.shape[:-1] +
    input_x.shape[k:]; use_locking=False (attribute, no effect here).
    MindSpore updates input_x in place and returns it; this returns the new
    value and the graph builder makes later reads of input_x see it.
    """
    return scatter(input_x, indices, updates, np.add, "ScatterNdAdd")
