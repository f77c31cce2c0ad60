"""BatchNormExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import norm
from ._ref.common import FLOATS, compute_dtype
from ._ref.norm import affine, rstd, standardize


@register("BatchNormExt", family="nn", dtypes=FLOATS,
          convert={"training": args.boolean, "momentum": args.scalar,
                   "epsilon": args.scalar},
          kernels={"numba": norm.batch_norm_ext})
def batch_norm_ext(input, weight=None, bias=None, running_mean=None,
                   running_var=None, training=False, momentum=0.1,
                   epsilon=1e-5):
    """Batch normalisation per channel (mint.nn.BatchNorm2d); a 3-tuple.

    y = (x - mean) / sqrt(var + epsilon) * weight + bias along channel
    axis 1, with the running statistics in inference (training=False) or
    the batch's own (biased) statistics when training or when no running
    statistics are given. Returns (y, mean, rstd) with the statistics used
    (rstd = 1 / sqrt(var + epsilon)); updating the running statistics in
    training is a side effect not performed here.

    Arguments: input (N, C, *S); weight, bias, running_mean, running_var
    ((C,) or None); training=False; momentum=0.1; epsilon=1e-5. MindSpore
    2.7.1 has no CPU kernel for it. dtypes: float16 (computed in float32),
    float32, float64.
    """
    shape = (-1,) + (1,) * (input.ndim - 2)
    work = compute_dtype(input.dtype)
    if training or running_mean is None or running_var is None:
        axes = (0,) + tuple(range(2, input.ndim))
        z, mean, var = standardize(input, axes, epsilon)
        mean, var = mean.reshape(-1), var.reshape(-1)
    else:
        mean = running_mean.astype(work, copy=False)
        var = running_var.astype(work, copy=False)
        z = (input.astype(work, copy=False) - mean.reshape(shape)) \
            * rstd(var, epsilon).reshape(shape)
    y = affine(z, weight, bias, shape)
    dtype = input.dtype
    return (y.astype(dtype), np.asarray(mean).astype(dtype),
            rstd(np.asarray(var), epsilon).astype(dtype))
