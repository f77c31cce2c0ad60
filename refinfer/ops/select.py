"""Select."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_result, promote


@register("Select", family="elementwise", dtypes=ALL)
def select(condition, input, other):
    """Elementwise choice with broadcasting: condition ? input : other.

    What ops.where exports.

    Arguments: condition (bool tensor); input, other (tensors or Python
    scalars, promoted as for arithmetic: float32 with int32 gives float32).
    """
    a, b = promote(input, other)
    return as_result(np.where(np.asarray(condition, dtype=bool), a, b))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("Select", "numba")
def select_numba(condition, input, other):
    """Select in one compiled pass over any broadcast (``_fast_logic``'s
    select kernel: every dtype, moved as unsigned integers of its width);
    Python scalars on both sides through the reference."""
    return _fast_logic.select(select, condition, input, other)
