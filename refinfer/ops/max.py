"""Max."""
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.search import extreme


@register("Max", family="reduction", dtypes=ALL)
def max(input):
    """The largest element of the whole tensor, 0-d (mint.max(x), ops.max(x)).

    Argument: input (not empty). NaN as in Argmax: the result is NaN only
    when the first element is NaN (MindSpore 2.7.1 CPU).
    """
    return extreme(input.reshape(-1), 0, False, largest=True)[0]


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("Max", "numba")
def max_numba(input):
    """Max with the arg-search runner on the flattened input; other dtypes
    through the reference."""
    found = _fast_reduce.arg_search(input.reshape(-1), 0, False, largest=True)
    return max(input) if found is None else found[0]
