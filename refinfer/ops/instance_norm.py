"""InstanceNorm."""
from refinfer import args
from refinfer.registry import register

from ._kernels import norm
from ._ref.common import FLOATS
from ._ref.norm import affine, standardize


@register("InstanceNorm", family="nn", dtypes=FLOATS,
          convert={"epsilon": args.scalar, "momentum": args.scalar},
          kernels={"numba": norm.instance_norm})
def instance_norm(input_x, gamma, beta, mean, variance, epsilon=1e-5,
                  momentum=0.1):
    """Instance normalisation; returns (y, mean, variance).

    Each (sample, channel) is normalised over its spatial positions with
    its own statistics, also in inference (nn.InstanceNorm2d):
    y = (x - mean_nc) / sqrt(var_nc + epsilon) * gamma[c] + beta[c].

    Arguments (classic PRIMITIVE): input_x (N, C, *S); gamma, beta, mean,
    variance (C,); attributes epsilon=1e-5, momentum=0.1. MindSpore
    updates mean and variance in place as moving averages (a side effect
    a reference interpreter drops) and returns them; here they come back
    unchanged. MindSpore 2.7.1 has no CPU kernel for it. dtypes: float16
    (computed in float32), float32, float64.
    """
    axes = tuple(range(2, input_x.ndim))
    z, _, _ = standardize(input_x, axes, epsilon)
    y = affine(z, gamma, beta, (-1,) + (1,) * len(axes))
    return y.astype(input_x.dtype), mean.copy(), variance.copy()
