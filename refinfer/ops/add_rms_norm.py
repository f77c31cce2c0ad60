"""AddRmsNorm (Ascend)."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.norm import root_mean_square_normalize


@register("AddRmsNorm", family="nn", dtypes=FLOATS, no_kernel="oracle",
          convert={"epsilon": args.scalar})
def add_rms_norm(x1, x2, gamma, epsilon=1e-6):
    """A residual add then RmsNorm (Ascend only in MindSpore; a CPU oracle
    here); returns (y, rstd, x):

        x = x1 + x2,  rstd = 1 / sqrt(mean(x ** 2) + epsilon),
        y = x * rstd * gamma

    the mean over the trailing gamma.ndim axes. Arguments: x1, x2 (same
    shape and dtype); gamma (their trailing shape); epsilon=1e-6. y and x
    have x1's dtype, rstd is float32 (float64 for float64 inputs); the sum
    is rounded to x1's dtype before it is normalised, as the x output is.
    """
    x = (x1 + x2).astype(x1.dtype, copy=False)
    y, rstd = root_mean_square_normalize(x, gamma, epsilon)
    return y, rstd, x
