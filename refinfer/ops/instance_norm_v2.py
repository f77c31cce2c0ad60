"""InstanceNormV2."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, compute_dtype
from ._ref.norm import standardize


@register("InstanceNormV2", family="nn", dtypes=FLOATS,
          convert={"is_training": args.boolean, "momentum": args.scalar,
                   "epsilon": args.scalar}, no_kernel="vectorised")
def instance_norm_v2(x, gamma, beta, mean, variance, is_training=True, momentum=0.1,
                     epsilon=1e-5):
    """Instance normalisation with per-instance parameters; returns (y, mean, var).

    y = (x - m) / sqrt(v + epsilon) * gamma + beta, all broadcast from shape
    (N, C, 1, ..., 1): with is_training, m and v are each (sample, channel)'s
    statistics over the spatial axes (returned as batch_mean and
    batch_variance); without, they are the given mean and variance (returned
    as they are). Arguments (classic PRIMITIVE): x (N, C, H, W, ...) ; gamma,
    beta, mean, variance (N, C, 1, ...); attributes is_training=True,
    momentum=0.1 (the running-average update, a side effect dropped here),
    epsilon=1e-5. float16 is computed in float32.
    """
    axes = tuple(range(2, x.ndim))
    work = compute_dtype(x.dtype)
    if is_training:
        z, m, v = standardize(x, axes, epsilon)
        stats = (np.asarray(m, work).reshape(mean.shape), np.asarray(v, work).reshape(
            variance.shape))
    else:
        stats = (mean.astype(work), variance.astype(work))
        z = (x.astype(work) - stats[0]) / np.sqrt(stats[1] + work.type(epsilon))
    y = z * gamma.astype(work) + beta.astype(work)
    return y.astype(x.dtype), stats[0].astype(mean.dtype), stats[1].astype(variance.dtype)
