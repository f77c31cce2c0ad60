"""Argmax."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.search import extreme


@register("Argmax", family="reduction", dtypes=ALL,
          convert={"axis": args.scalar, "output_type": args.dtype})
def argmax(input_x, axis=-1, output_type=args.dtype(34)):
    """Index of the largest value along one axis.

    Arguments: input_x; axis=-1; output_type=int32 (TypeId; ops.argmax
    exports int64 = 35). Ties give the first index. NaN follows MindSpore's
    CPU scan: it is the answer only when it comes first ([nan, 1, 3] -> 0,
    [1, nan, 3] -> 2).
    """
    return extreme(input_x, axis, False, largest=True)[1].astype(output_type)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("Argmax", "numba")
def argmax_numba(input_x, axis=-1, output_type=args.dtype(34)):
    """Argmax with the arg-search runner; other dtypes through the
    reference."""
    found = _fast_reduce.arg_search(input_x, axis, False, largest=True)
    return argmax(input_x, axis, output_type) if found is None \
        else found[1].astype(output_type)
