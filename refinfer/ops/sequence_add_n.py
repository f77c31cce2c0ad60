"""SequenceAddN."""
import functools

import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.sequence import not_empty


@register("SequenceAddN", family="plumbing", dtypes=NUMBERS, no_kernel="native")
def sequence_add_n(inputs):
    """Elementwise sum of the tensors of a tuple or list:
    out = inputs[0] + inputs[1] + ..., added left to right in their dtype
    (as AddN, whose sequence form this is).

    Argument: inputs (tuple or list of tensors of one shape and dtype, not
    empty).
    """
    tensors = [np.asarray(t) for t in not_empty(inputs, "SequenceAddN")]
    return functools.reduce(np.add, tensors[1:], tensors[0].copy())
