"""Inv."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import RECIPROCAL
from ._ref.common import as_result, cast


@register("Inv", family="elementwise", dtypes=("float16", "float32", "float64", "int32"),
          recipe=RECIPROCAL)
def inv(x):
    """Elementwise reciprocal in x's dtype: y = 1 / x.

    Argument: x (float16, float32, float64 or int32). Floats: 1 / 0 = inf.
    int32 keeps its dtype, as MindSpore 2.7.1 CPU: 1 / x in float converted
    back as its Cast, so 1 / 2 = 0, 1 / -1 = -1 and 1 / 0 = -2**31 (inf
    converted). Compare Reciprocal, which gives float32 for integers.
    """
    if x.dtype.kind == "f":
        with np.errstate(divide="ignore"):
            return as_result(np.reciprocal(x))
    with np.errstate(divide="ignore"):
        return cast(np.reciprocal(x.astype(np.float32)), x.dtype)
