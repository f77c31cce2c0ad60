"""LinSpace."""
from refinfer import args
from refinfer.registry import register

from ._kernels import shape
from ._ref.common import FLOATS
from ._ref.sequence import evenly_spaced


@register("LinSpace", family="shape", dtypes=FLOATS,
          convert={"num": args.scalar}, kernels={"numba": shape.lin_space})
def lin_space(start, stop, num):
    """``num`` evenly spaced values from start to stop, both included.

    y[i] = start + i * (stop - start) / (num - 1), computed in the dtype of
    start as MindSpore's CPU kernel does (the last value may differ from
    stop by rounding); num = 1 gives [start].

    Arguments: start, stop (0-d float tensors of one dtype); num (int >= 0).
    Output: 1-D, start's dtype.
    """
    return evenly_spaced(start, stop, num, start.dtype)

