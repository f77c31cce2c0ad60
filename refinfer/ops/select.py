"""Select."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import ALL, as_result, promote


@register("Select", family="elementwise", dtypes=ALL,
          kernels={"numba": logic.select})
def select(condition, input, other):
    """Elementwise choice with broadcasting: condition ? input : other.

    What ops.where exports.

    Arguments: condition (bool tensor); input, other (tensors or Python
    scalars, promoted as for arithmetic: float32 with int32 gives float32).
    """
    a, b = promote(input, other)
    return as_result(np.where(np.asarray(condition, dtype=bool), a, b))
