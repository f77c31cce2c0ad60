"""Sub."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS, as_result, promote


@register("Sub", family="elementwise", dtypes=NUMBERS)
def sub(input, other):
    """Elementwise difference with broadcasting: y = input - other.

    Arguments: input, other (tensors or Python scalars). Dtype follows
    MindSpore's promotion (``ops._common.promote``); integers wrap; bool -
    bool is an error, as in MindSpore.
    """
    a, b = promote(input, other)
    return as_result(np.subtract(a, b))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("Sub", "numba")
def sub_numba(input, other):
    """Sub of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_SUB, sub, input, other)
