"""Add."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import binary
from ._kernels.program import OP_ADD
from ._ref.common import ALL, as_result, promote


@register("Add", "AddV2", family="elementwise", dtypes=ALL, recipe=binary(OP_ADD))
def add(input, other):
    """Elementwise sum with broadcasting: y = input + other.

    Arguments: input, other (tensors or Python scalars). Dtype follows
    MindSpore's promotion (see ``ops._ref.common.promote``); bool + bool is
    logical or. AddV2 (classic PRIMITIVE) is the same sum; MindSpore's shape
    inference wants equal shapes there.
    """
    a, b = promote(input, other)
    return as_result(np.add(a, b))
