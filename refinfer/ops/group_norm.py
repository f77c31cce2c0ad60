"""GroupNorm."""
from refinfer import args
from refinfer.registry import register

from ._kernels import norm
from ._ref.common import FLOATS
from ._ref.norm import affine, rstd, standardize


@register("GroupNorm", family="nn", dtypes=FLOATS,
          convert={"num_groups": args.scalar, "eps": args.scalar},
          kernels={"numba": norm.group_norm})
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Group normalisation; returns (y, mean, rstd).

    The C channels split into num_groups groups; each (sample, group) is
    normalised over its channels and spatial positions:
    y = (x - mean) / sqrt(var + eps) * weight[c] + bias[c].
    mean and rstd = 1 / sqrt(var + eps) come back with shape (N, G)
    (verified on MindSpore 2.7.1 CPU).

    Arguments: input (N, C, *S); num_groups (divides C); weight=None,
    bias=None (C,); eps=1e-5. nn.GroupNorm and mint.nn.GroupNorm export it.
    dtypes: float16 (computed in float32), float32, float64.
    """
    n, c = input.shape[:2]
    groups = int(num_groups)
    if groups <= 0 or c % groups:
        raise ValueError(f"GroupNorm: {groups} groups do not divide {c} "
                         "channels")
    grouped = input.reshape((n, groups, -1))
    z, mean, var = standardize(grouped, (2,), eps)
    z = z.reshape(input.shape)
    y = affine(z, weight, bias, (c,) + (1,) * (input.ndim - 2))
    dtype = input.dtype
    return (y.astype(dtype), mean.reshape(n, groups).astype(dtype),
            rstd(var, eps).reshape(n, groups).astype(dtype))
