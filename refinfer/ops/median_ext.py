"""MedianExt."""
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import NUMBERS
from ._ref.search import lower_median


@register("MedianExt", family="reduction", dtypes=NUMBERS,
          kernels={"numba": reduce.median_ext})
def median_ext(input):
    """Median of all elements, 0-d (mint.median(x)).

    For an even count the lower of the two middle values. MindSpore 2.7.1
    has no CPU kernel for it.
    """
    return lower_median(input.reshape(-1), 0)[0]
