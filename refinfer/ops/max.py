"""Max."""
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import ALL
from ._ref.search import extreme


@register("Max", family="reduction", dtypes=ALL,
          kernels={"numba": reduce.extreme_of_all(largest=True)})
def max(input):
    """The largest element of the whole tensor, 0-d (mint.max(x), ops.max(x)).

    Argument: input (not empty). NaN as in Argmax: the result is NaN only
    when the first element is NaN (MindSpore 2.7.1 CPU).
    """
    return extreme(input.reshape(-1), 0, False, largest=True)[0]
