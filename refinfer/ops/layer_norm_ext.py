"""LayerNormExt."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._kernels.norm import affine, rstd, standardize


@register("LayerNormExt", family="nn", dtypes=FLOATS,
          convert={"normalized_shape": args.ints, "eps": args.scalar})
def layer_norm_ext(input, normalized_shape, weight=None, bias=None,
                   eps=1e-5):
    """Layer normalisation over the trailing normalized_shape axes (mint).

    y = (x - mean) / sqrt(var + eps) * weight + bias over the last
    len(normalized_shape) axes, which must equal normalized_shape.
    Returns (y, mean, rstd), mean and rstd = 1 / sqrt(var + eps) with the
    normalised axes kept as length 1. weight, bias: None or of shape
    normalized_shape. MindSpore 2.7.1 has no CPU kernel for it. dtypes:
    float16 (computed in float32), float32, float64.
    """
    count = len(normalized_shape)
    if tuple(input.shape[input.ndim - count:]) != tuple(normalized_shape):
        raise ValueError(f"LayerNormExt: normalized_shape {normalized_shape} "
                         f"is not the end of {input.shape}")
    axes = tuple(range(input.ndim - count, input.ndim))
    z, mean, var = standardize(input, axes, eps)
    y = affine(z, weight, bias, tuple(normalized_shape))
    dtype = input.dtype
    return (y.astype(dtype), mean.astype(dtype),
            rstd(var, eps).astype(dtype))


# -- numba backend -------------------------------------------------------------
import math  # noqa: E402

from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import norm as _norm  # noqa: E402


@register_kernel("LayerNormExt", "numba")
def layer_norm_ext_numba(input, normalized_shape, weight=None, bias=None,
                         eps=1e-5):
    """LayerNormExt, one row kernel pass per normalised row
    (_norm.normalize_rows); other dtypes through the reference."""
    count = len(normalized_shape)
    size = math.prod(normalized_shape)
    if tuple(input.shape[input.ndim - count:]) != tuple(normalized_shape) \
            or not _norm.fits(input, size, weight, bias):
        return layer_norm_ext(input, normalized_shape, weight, bias, eps)
    x2 = _norm.rows_of(input, input.size // size)
    y, mean, var = _norm.normalize(x2, weight, bias, 1, 1, eps)
    kept = input.shape[:input.ndim - count] + (1,) * count
    return (y.reshape(input.shape), mean.reshape(kept),
            _norm.rstd(var, eps).reshape(kept))
