"""TExt."""
from refinfer.registry import register

from ._kernels import shape
from ._ref.common import ALL


@register("TExt", family="shape", dtypes=ALL, kernels={"numba": shape.t_ext})
def t_ext(input):
    """Transpose of a matrix (mint.t): 0-d and 1-D inputs come back as is.

    Arguments: input (rank <= 2). MindSpore 2.7.1 cannot run it on CPU.
    """
    if input.ndim > 2:
        raise ValueError(f"TExt: input must have rank <= 2, got {input.shape}")
    return input.T.copy()

