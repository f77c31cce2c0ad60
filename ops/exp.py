"""Exp."""
import numpy as np

from refinfer.registry import register

from ._common import ALL, as_float, as_result


@register("Exp", family="elementwise", dtypes=ALL)
def exp(input):
    """Elementwise natural exponential: y = e ** x.

    Argument: input. Floats keep their dtype (overflow gives inf); integer
    and bool inputs give float32.
    """
    with np.errstate(over="ignore"):
        return as_result(np.exp(as_float(input)))
