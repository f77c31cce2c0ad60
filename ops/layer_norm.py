"""LayerNorm."""
from refinfer import args
from refinfer.registry import register

from ._common import FLOATS
from ._norm import affine, standardize


@register("LayerNorm", family="nn", dtypes=FLOATS,
          convert={"begin_norm_axis": args.scalar,
                   "begin_params_axis": args.scalar, "epsilon": args.scalar})
def layer_norm(input_x, gamma, beta, begin_norm_axis=1, begin_params_axis=1,
               epsilon=1e-7):
    """Layer normalisation over the trailing axes; returns (y, mean, var).

    y = (x - mean) / sqrt(var + epsilon) * gamma + beta, mean and (biased)
    var taken over axes begin_norm_axis..rank-1; gamma and beta have shape
    input_x.shape[begin_params_axis:].

    Arguments (nn.LayerNorm exports all as inputs): input_x, gamma, beta;
    begin_norm_axis=1, begin_params_axis=1 (negative allowed);
    epsilon=1e-7. Outputs y (input_x's dtype), mean and variance with the
    normalised axes kept as length 1 (verified on MindSpore 2.7.1 CPU:
    the third output is the variance, not 1/std). dtypes: float16
    (computed in float32), float32, float64.
    """
    rank = input_x.ndim
    start = int(begin_norm_axis) % rank
    params = int(begin_params_axis) % rank
    z, mean, var = standardize(input_x, tuple(range(start, rank)), epsilon)
    shape = (1,) * params + input_x.shape[params:]
    y = affine(z, gamma, beta, shape)
    dtype = input_x.dtype
    return (y.astype(dtype), mean.astype(dtype), var.astype(dtype))


# -- numba backend -------------------------------------------------------------
import numpy as np  # noqa: E402

from refinfer.jit import kernel  # noqa: E402
from refinfer.registry import register_kernel  # noqa: E402
from refinfer.threads import min_items, parallel_for  # noqa: E402

from . import _fast  # noqa: E402


@kernel
def layer_norm_rows(x, gamma, beta, epsilon, y, mean, var):
    """Each row of x (R, C): mean, biased variance (accumulated in float64,
    stored in x's dtype), y = (x - mean) / sqrt(var + epsilon) * gamma +
    beta."""
    count = x.shape[1]
    eps = x.dtype.type(epsilon)
    for r in range(x.shape[0]):
        total = 0.0
        for j in range(count):
            total += x[r, j]
        m = x.dtype.type(total / count)
        square = 0.0
        for j in range(count):
            d = x[r, j] - m
            square += d * d
        v = x.dtype.type(square / count)
        mean[r], var[r] = m, v
        scale = np.sqrt(v + eps)
        for j in range(count):
            y[r, j] = (x[r, j] - m) / scale * gamma[j] + beta[j]


@register_kernel("LayerNorm", "numba")
def layer_norm_numba(input_x, gamma, beta, begin_norm_axis=1,
                     begin_params_axis=1, epsilon=1e-7):
    """LayerNorm of float32/float64 rows, with gamma and beta over the same
    trailing axes (the usual case); anything else goes to the reference."""
    rank = input_x.ndim
    start = int(begin_norm_axis) % rank if rank else 0
    params = _fast.float_operands(input_x, gamma, beta)
    if params is None or rank == 0 or int(begin_params_axis) % rank != start \
            or gamma.shape != input_x.shape[start:] \
            or beta.shape != gamma.shape or input_x.size == 0:
        return layer_norm(input_x, gamma, beta, begin_norm_axis,
                          begin_params_axis, epsilon)
    x = _fast.writable(input_x).reshape(-1, gamma.size)
    y = np.empty(x.shape, x.dtype)
    mean, var = np.empty(x.shape[0], x.dtype), np.empty(x.shape[0], x.dtype)
    gamma, beta = _fast.writable(gamma).reshape(-1), _fast.writable(beta).reshape(-1)

    def rows(lo, hi):
        layer_norm_rows(x[lo:hi], gamma, beta, float(epsilon), y[lo:hi],
                        mean[lo:hi], var[lo:hi])
    parallel_for(x.shape[0], rows, grain=min_items(x.shape[1]))
    kept = input_x.shape[:start] + (1,) * (rank - start)
    return y.reshape(input_x.shape), mean.reshape(kept), var.reshape(kept)
