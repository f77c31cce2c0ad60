"""LayerNorm."""
from refinfer import args
from refinfer.registry import register

from ._kernels import norm
from ._ref.common import FLOATS
from ._ref.norm import affine, standardize


@register("LayerNorm", family="nn", dtypes=FLOATS,
          convert={"begin_norm_axis": args.scalar,
                   "begin_params_axis": args.scalar, "epsilon": args.scalar},
          kernels={"numba": norm.layer_norm})
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
