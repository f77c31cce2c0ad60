"""CumProd."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import NUMBERS
from ._ref.search import cumulative


@register("CumProd", family="reduction", dtypes=NUMBERS,
          convert={"axis": args.scalar, "exclusive": args.boolean,
                   "reverse": args.boolean},
          kernels={"numba": reduce.cumulative(reduce.CUMPROD)})
def cum_prod(x, axis, exclusive=False, reverse=False):
    """Cumulative product along one axis (ops.cumprod).

    y[i] = x[0] * ... * x[i]; exclusive=False: when True, x[i] itself is
    left out (y[0] = 1); reverse=False: when True, products run from the
    end. Output keeps x's dtype (integers wrap); float16 accumulates in
    float32.
    """
    return cumulative(np.cumprod, x, axis, exclusive, reverse, identity=1)
