"""Size."""
from refinfer.registry import register

from ._ref.common import ALL


@register("Size", family="shape", dtypes=ALL, no_kernel="view")
def size(input_x):
    """The number of elements of a tensor as a Python int:
    out = prod(x.shape) (1 for a 0-d tensor), as ``x.size`` in a graph."""
    return int(input_x.size)
