"""Min."""
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import ALL
from ._ref.search import extreme


@register("Min", family="reduction", dtypes=ALL,
          kernels={"numba": reduce.extreme_of_all(largest=False)})
def min(input):
    """The smallest element of the whole tensor, 0-d (mint.min(x)).

    Argument: input (not empty). NaN as in Argmin: the result is NaN only
    when the first element is NaN (MindSpore 2.7.1 CPU).
    """
    return extreme(input.reshape(-1), 0, False, largest=False)[0]
