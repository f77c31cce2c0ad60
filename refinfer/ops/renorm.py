"""Renorm."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, as_result, compute_dtype


@register("Renorm", family="nn", dtypes=FLOATS,
          convert={"p": args.scalar, "dim": args.scalar, "maxnorm": args.scalar},
          no_kernel="vectorised")
def renorm(x, p, dim, maxnorm):
    """Rescale each slice along dim whose p-norm exceeds maxnorm.

    For each k, s = x.take(k, dim) and n = (sum |s| ** p) ** (1 / p): y's
    slice is s * maxnorm / (n + 1e-7) where n > maxnorm, s elsewhere.
    Arguments: x (float tensor, rank >= 1); p (attribute, > 0); dim (the
    axis kept, negative allowed); maxnorm (attribute, >= 0). float16 is
    computed in float32.
    """
    if p <= 0 or maxnorm < 0:
        raise ValueError(f"Renorm: p must be > 0 and maxnorm >= 0, got p={p}, "
                         f"maxnorm={maxnorm}")
    work = x.astype(compute_dtype(x.dtype))
    axes = tuple(a for a in range(x.ndim) if a != int(dim) % x.ndim)
    norm = np.sum(np.abs(work) ** p, axis=axes, keepdims=True) ** (1.0 / p)
    scale = np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
    return as_result(work * scale.astype(work.dtype), x.dtype)
