"""Gcd and Lcm."""
import numpy as np

from refinfer.registry import register

from ._ref.common import SIGNED, as_result, promote


def _integers(op, a, b):
    a, b = promote(a, b)
    if a.dtype.kind not in "iu":
        raise TypeError(f"{op}: operands must be integer tensors, got {a.dtype}")
    return a, b


@register("Gcd", family="elementwise", dtypes=SIGNED, no_kernel="native")
def gcd(input, other):
    """The greatest common divisor, elementwise with broadcasting (>= 0).

    gcd(0, 0) = 0; signs are dropped. Arguments: input, other (integer
    tensors).
    """
    return as_result(np.gcd(*_integers("Gcd", input, other)))


@register("Lcm", family="elementwise", dtypes=SIGNED, no_kernel="native")
def lcm(input, other):
    """The least common multiple, elementwise with broadcasting (>= 0).

    lcm(x, 0) = 0; signs are dropped. Arguments: input, other (integer
    tensors).
    """
    return as_result(np.lcm(*_integers("Lcm", input, other)))
