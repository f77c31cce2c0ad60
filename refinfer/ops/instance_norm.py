"""InstanceNorm."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._kernels.norm import affine, standardize


@register("InstanceNorm", family="nn", dtypes=FLOATS,
          convert={"epsilon": args.scalar, "momentum": args.scalar})
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


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import norm as _norm  # noqa: E402


@register_kernel("InstanceNorm", "numba")
def instance_norm_numba(input_x, gamma, beta, mean, variance, epsilon=1e-5,
                        momentum=0.1):
    """InstanceNorm, one row kernel pass per (sample, channel)
    (_norm.normalize_rows); other dtypes through the reference."""
    if input_x.ndim < 2 or not _norm.fits(input_x, input_x.shape[1], gamma,
                                          beta):
        return instance_norm(input_x, gamma, beta, mean, variance, epsilon,
                             momentum)
    x2 = _norm.rows_of(input_x, input_x.shape[0] * input_x.shape[1])
    y, _, _ = _norm.normalize(x2, gamma, beta, input_x.shape[1], x2.shape[1],
                              epsilon)
    return y.reshape(input_x.shape), mean.copy(), variance.copy()
