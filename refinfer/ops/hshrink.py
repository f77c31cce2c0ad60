"""HShrink."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels.elementwise import HSHRINK
from ._ref.common import FLOATS, as_result


@register("HShrink", family="activation", dtypes=FLOATS,
          convert={"lambd": args.scalar}, recipe=HSHRINK)
def hshrink(input, lambd=0.5):
    """Hard shrinkage: y = x where |x| > lambd, 0 elsewhere.

    Arguments: input; lambd=0.5. Output has input's dtype.
    """
    keep = np.abs(input.astype(np.float64)) > lambd
    return as_result(np.where(keep, input, input.dtype.type(0)))
