"""Min."""
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.search import extreme


@register("Min", family="reduction", dtypes=ALL)
def min(input):
    """The smallest element of the whole tensor, 0-d (mint.min(x)).

    Argument: input (not empty). NaN as in Argmin: the result is NaN only
    when the first element is NaN (MindSpore 2.7.1 CPU).
    """
    return extreme(input.reshape(-1), 0, False, largest=False)[0]


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("Min", "numba")
def min_numba(input):
    """Min with the arg-search runner on the flattened input; other dtypes
    through the reference."""
    found = _fast_reduce.arg_search(input.reshape(-1), 0, False, largest=False)
    return min(input) if found is None else found[0]
