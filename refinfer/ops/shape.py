"""Shape."""
from refinfer.registry import register

from ._ref.common import ALL


@register("Shape", family="shape", dtypes=ALL, no_kernel="view")
def shape(x):
    """The static shape of x as a tuple of Python ints (() for 0-d)."""
    return tuple(int(d) for d in x.shape)
