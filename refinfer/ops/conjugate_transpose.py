"""ConjugateTranspose."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("ConjugateTranspose", family="shape", dtypes=ALL,
          convert={"perm": args.ints}, no_kernel="copy")
def conjugate_transpose(x, perm):
    """Transpose by perm, then complex-conjugate (real dtypes: transpose).

    y = conj(transpose(x, perm)). Arguments: x; perm (a permutation of
    range(rank)).
    """
    if sorted(perm) != list(range(x.ndim)):
        raise ValueError(f"ConjugateTranspose: perm {perm} is not a permutation "
                         f"of the {x.ndim} axes of x")
    moved = np.transpose(x, perm)
    return np.conj(moved) if moved.dtype.kind == "c" else moved.copy()
