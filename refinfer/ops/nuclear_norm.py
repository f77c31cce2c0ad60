"""NuclearNorm."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import as_result


@register("NuclearNorm", family="linalg", dtypes=("float32", "float64"),
          convert={"dim": args.axes, "keepdim": args.boolean}, no_kernel="native")
def nuclear_norm(input, dim=None, keepdim=False):
    """Sum of the singular values of the matrices over two axes.

    y = sum(svd(input over axes dim)). Arguments: input (float32 or
    float64, rank >= 2); dim=None (two axes; None means (0, 1), so a 2-D
    input unless dim is given); keepdim=False (keep the two axes as length
    1). Computed in float64 (LAPACK).
    """
    axes = (0, 1) if dim is None else dim
    if input.ndim < 2 or len(axes) != 2 or len({a % input.ndim for a in axes}) != 2 \
            or not all(-input.ndim <= a < input.ndim for a in axes):
        raise ValueError(f"NuclearNorm: dim must name two distinct axes of input "
                         f"{input.shape}, got {dim}")
    if dim is None and input.ndim != 2:
        raise ValueError(f"NuclearNorm: without dim, input must be 2-D, got "
                         f"{input.shape}")
    first, second = (a % input.ndim for a in axes)
    matrices = np.moveaxis(input.astype(np.float64), (first, second), (-2, -1))
    norm = np.linalg.svd(matrices, compute_uv=False).sum(axis=-1)
    if keepdim:
        norm = np.expand_dims(norm, tuple(sorted((first, second))))
    return as_result(norm, input.dtype)
