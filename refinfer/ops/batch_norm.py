"""BatchNorm."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import norm
from ._ref.common import FLOATS, compute_dtype


@register("BatchNorm", family="nn", dtypes=FLOATS,
          convert={"is_training": args.boolean, "epsilon": args.scalar,
                   "momentum": args.scalar, "data_format": args.data_format},
          kernels={"numba": norm.batch_norm})
def batch_norm(x, scale, bias, mean, variance, is_training=False,
               epsilon=1e-5, momentum=0.1, data_format="NCHW"):
    """Batch normalisation per channel with given (or batch) statistics.

    y = (x - mean) / sqrt(variance + epsilon) * scale + bias.

    Arguments (PRIMITIVE_FUNCTION order): x (N, C, ...) or (N, ..., C) for
    data_format "NHWC" (code 1); scale, bias, mean, variance (C,);
    is_training=False, epsilon=1e-5, momentum=0.1, data_format="NCHW"
    (code 0).

    Returns the 5-tuple (y, batch_mean, batch_variance, reserve_space_1,
    reserve_space_2). Inference (is_training=False) normalises with the
    given moving statistics; MindSpore 2.7.1 CPU does not write the other
    four outputs (it returned zeros, once leftover memory), so they are
    zeros of shape (C,) in scale's dtype. Training mode (a graph exported
    after set_train(True)) normalises with the batch's own mean and biased
    variance and, as MindSpore CPU does, returns them as outputs 3 and 4
    with zeros in 1 and 2; the in-place moving-average update of mean and
    variance (a side effect) is not performed.

    y has x's dtype; float16 inputs are computed in float32.
    """
    if x.ndim < 2:
        raise ValueError(f"BatchNorm: x must have rank >= 2 (batch, channels, "
                         f"...), got shape {x.shape}")
    axis = x.ndim - 1 if data_format == "NHWC" else 1
    shape = [1] * x.ndim
    shape[axis] = x.shape[axis]
    work = compute_dtype(np.result_type(x, scale))
    xw = x.astype(work, copy=False)
    zeros = [np.zeros(scale.shape, dtype=scale.dtype) for _ in range(4)]
    if is_training:  # normalise with this batch's statistics instead
        other = tuple(a for a in range(x.ndim) if a != axis)
        mean, variance = xw.mean(axis=other), xw.var(axis=other)
        extra = (zeros[0], zeros[1], mean.astype(scale.dtype),
                 variance.astype(scale.dtype))
    else:
        extra = tuple(zeros)
    inv = np.asarray(scale, work) / np.sqrt(np.asarray(variance, work)
                                            + work.type(epsilon))
    shift = np.asarray(bias, work) - np.asarray(mean, work) * inv
    y = xw * inv.reshape(shape) + shift.reshape(shape)
    return (y.astype(x.dtype, copy=False),) + extra
