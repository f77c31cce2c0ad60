"""CumProd."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.search import cumulative


@register("CumProd", family="reduction", dtypes=NUMBERS,
          convert={"axis": args.scalar, "exclusive": args.boolean,
                   "reverse": args.boolean})
def cum_prod(x, axis, exclusive=False, reverse=False):
    """Cumulative product along one axis (ops.cumprod).

    y[i] = x[0] * ... * x[i]; exclusive=False: when True, x[i] itself is
    left out (y[0] = 1); reverse=False: when True, products run from the
    end. Output keeps x's dtype (integers wrap); float16 accumulates in
    float32.
    """
    return cumulative(np.cumprod, x, axis, exclusive, reverse, identity=1)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("CumProd", "numba")
def cum_prod_numba(x, axis, exclusive=False, reverse=False):
    """CumProd with the scan runner (float32/64, int32/64); other dtypes
    through the reference."""
    return _fast_reduce.or_reference(
        _fast_reduce.scan(_fast_reduce.CUMPROD, x, axis, exclusive, reverse),
        cum_prod, x, axis, exclusive, reverse)
