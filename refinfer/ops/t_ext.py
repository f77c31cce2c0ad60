"""TExt."""
from refinfer.registry import register

from ._ref.common import ALL


@register("TExt", family="shape", dtypes=ALL)
def t_ext(input):
    """Transpose of a matrix (mint.t): 0-d and 1-D inputs come back as is.

    Arguments: input (rank <= 2). MindSpore 2.7.1 cannot run it on CPU.
    """
    if input.ndim > 2:
        raise ValueError(f"TExt: input must have rank <= 2, got {input.shape}")
    return input.T.copy()


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import shape as _fast_shape  # noqa: E402


@register_kernel("TExt", "numba")
def t_ext_numba(input):
    """A matrix's transpose as a blocked copy (_fast_shape.permute); other
    ranks go to the reference."""
    y = _fast_shape.permute(input, (1, 0)) if input.ndim == 2 else None
    return t_ext(input) if y is None else y
