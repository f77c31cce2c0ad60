"""CumSum."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import NUMBERS
from ._ref.search import cumulative


@register("CumSum", family="reduction", dtypes=NUMBERS,
          convert={"axis": args.scalar, "exclusive": args.boolean,
                   "reverse": args.boolean},
          kernels={"numba": reduce.cumulative(reduce.CUMSUM)})
def cum_sum(input, axis, exclusive=False, reverse=False):
    """Cumulative sum along one axis (ops.cumsum).

    y[i] = x[0] + ... + x[i]; exclusive=False: when True, x[i] itself is
    left out (y[0] = 0); reverse=False: when True, sums run from the end.
    Output keeps input's dtype (integers wrap: int8 [100, 100] ->
    [100, -56]); float16 accumulates in float32.
    """
    return cumulative(np.cumsum, input, axis, exclusive, reverse, identity=0)
