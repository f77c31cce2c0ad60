"""Tril and TrilExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("Tril", "TrilExt", family="shape", dtypes=ALL,
          convert={"diagonal": args.scalar})
def tril(input, diagonal=0):
    """Lower triangle of the last two axes; the rest is zero.

    y[..., i, j] = input[..., i, j] if j - i <= diagonal else 0.

    Arguments: input (rank >= 2); diagonal=0 (positive: above the main
    diagonal, negative: below). ops.tril exports Tril (classic PRIMITIVE,
    diagonal an attribute); mint.tril exports TrilExt(input, diagonal),
    which MindSpore 2.7.1 cannot run on CPU. All dtypes.
    """
    if input.ndim < 2:
        raise ValueError(f"Tril: input must have rank >= 2, got {input.shape}")
    return np.tril(input, int(diagonal))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import index as _fast_index  # noqa: E402


def tril_numba(input, diagonal=0):
    """Tril as one masked copy (``_fast_index.triangle``); rank < 2 through
    the reference."""
    out = _fast_index.triangle(input, int(diagonal), True)
    return tril(input, diagonal) if out is None else out


register_kernel("Tril", "numba")(tril_numba)
register_kernel("TrilExt", "numba")(tril_numba)
