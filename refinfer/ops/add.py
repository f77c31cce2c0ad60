"""Add."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_result, promote


@register("Add", family="elementwise", dtypes=ALL)
def add(input, other):
    """Elementwise sum with broadcasting: y = input + other.

    Arguments: input, other (tensors or Python scalars). Dtype follows
    MindSpore's promotion (see ``ops._common.promote``); bool + bool is
    logical or.
    """
    a, b = promote(input, other)
    return as_result(np.add(a, b))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("Add", "numba")
def add_numba(input, other):
    """Add of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_ADD, add, input, other)
