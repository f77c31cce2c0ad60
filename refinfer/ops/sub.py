"""Sub."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import binary
from ._kernels.program import OP_SUB
from ._ref.common import NUMBERS, as_result, promote


@register("Sub", family="elementwise", dtypes=NUMBERS, recipe=binary(OP_SUB))
def sub(input, other):
    """Elementwise difference with broadcasting: y = input - other.

    Arguments: input, other (tensors or Python scalars). Dtype follows
    MindSpore's promotion (``ops._ref.common.promote``); integers wrap; bool -
    bool is an error, as in MindSpore.
    """
    a, b = promote(input, other)
    if np.result_type(a, b) == np.bool_:
        raise TypeError("Sub: bool - bool is not supported (as in MindSpore)")
    return as_result(np.subtract(a, b))
