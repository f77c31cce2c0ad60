"""Round."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels.elementwise import ROUND
from ._ref.common import ALL, as_result, require_tensors


@register("Round", family="elementwise", dtypes=ALL,
          convert={"decimals": args.scalar}, recipe=ROUND)
def round(input, decimals=0):
    """Elementwise rounding to ``decimals`` places, halves to even.

    Arguments: input; decimals=0. Ties go to the even neighbour, as
    MindSpore's CPU kernel (nearbyint) does: 0.5 -> 0, 1.5 -> 2, -2.5 -> -2.
    Integer and bool inputs are returned unchanged (same dtype). MindSpore
    2.7.1's CPU kernel refuses decimals != 0; NumPy's rounding (scale, round
    half to even, unscale) is used for them here.
    """
    require_tensors("Round", input=input)
    if input.dtype.kind != "f":
        return input
    decimals = args.integer(decimals)
    if not -2**31 <= decimals < 2**31:      # NumPy takes a C int
        raise ValueError(f"Round: decimals must fit int32, got {decimals}")
    return as_result(np.round(input, decimals), input.dtype)
