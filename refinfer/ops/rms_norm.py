"""RmsNorm (Ascend)."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.norm import root_mean_square_normalize


@register("RmsNorm", family="nn", dtypes=FLOATS, no_kernel="oracle",
          convert={"epsilon": args.scalar})
def rms_norm(x, gamma, epsilon=1e-6):
    """Root-mean-square normalisation (Ascend only in MindSpore; a CPU
    oracle here); returns (y, rstd):

        rstd = 1 / sqrt(mean(x ** 2) + epsilon),  y = x * rstd * gamma

    the mean taken over the trailing gamma.ndim axes of x, which rstd keeps
    as length 1. Arguments: x; gamma (x's trailing shape); epsilon=1e-6.
    y has x's dtype, rstd is float32 (float64 for float64 x); float16 is
    computed in float32, as Ascend's kernel.
    """
    return root_mean_square_normalize(x, gamma, epsilon)
