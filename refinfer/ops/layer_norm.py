"""LayerNorm."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._kernels.norm import affine, standardize


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
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import norm as _norm  # noqa: E402


@register_kernel("LayerNorm", "numba")
def layer_norm_numba(input_x, gamma, beta, begin_norm_axis=1,
                     begin_params_axis=1, epsilon=1e-7):
    """LayerNorm of float32/float64 rows, with gamma and beta over the same
    trailing axes (the usual case), one row kernel pass per normalised row
    (_norm.normalize_rows); anything else goes to the reference."""
    rank = input_x.ndim
    start = int(begin_norm_axis) % rank if rank else 0
    if rank == 0 or int(begin_params_axis) % rank != start \
            or gamma.shape != input_x.shape[start:] or beta.shape != gamma.shape \
            or not _norm.fits(input_x, gamma.size, gamma, beta):
        return layer_norm(input_x, gamma, beta, begin_norm_axis,
                          begin_params_axis, epsilon)
    x2 = _norm.rows_of(input_x, input_x.size // gamma.size)
    y, mean, var = _norm.normalize(x2, gamma, beta, 1, 1, epsilon)
    kept = input_x.shape[:start] + (1,) * (rank - start)
    return y.reshape(input_x.shape), mean.reshape(kept), var.reshape(kept)
