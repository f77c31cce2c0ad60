"""AddN."""
import functools

import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.sequence import not_empty


@register("AddN", family="elementwise", dtypes=NUMBERS, no_kernel="native",
          sequences=("inputs",))
def add_n(inputs):
    """Elementwise sum of a tuple of tensors: y = inputs[0] + inputs[1] + ...

    Argument: inputs (one node input holding a tuple or list of tensors of one
    shape and dtype, as ops.addn exports it), added left to right in their
    dtype (integers wrap). Compare SequenceAddN, its sequence form.
    """
    tensors = [np.asarray(t) for t in not_empty(inputs, "AddN")]
    shapes = {t.shape for t in tensors}
    if len(shapes) > 1:
        raise ValueError(f"AddN: the tensors must have one shape, got "
                         f"{sorted(shapes)}")
    return functools.reduce(np.add, tensors[1:], tensors[0].copy())
