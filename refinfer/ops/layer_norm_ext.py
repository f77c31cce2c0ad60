"""LayerNormExt."""
from refinfer import args
from refinfer.registry import register

from ._kernels import norm
from ._ref.common import FLOATS
from ._ref.norm import affine, rstd, standardize


@register("LayerNormExt", family="nn", dtypes=FLOATS,
          convert={"normalized_shape": args.ints, "eps": args.scalar},
          kernels={"numba": norm.layer_norm_ext})
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
