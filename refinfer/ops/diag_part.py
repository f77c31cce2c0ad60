"""DiagPart."""
import math

from refinfer.registry import register

from ._ref.common import ALL


@register("DiagPart", family="shape", dtypes=ALL, no_kernel="copy")
def diag_part(input_x):
    """The diagonal of a tensor of shape (d1, ..., dk, d1, ..., dk).

    y[i1, ..., ik] = input_x[i1, ..., ik, i1, ..., ik]: the inverse of Diag.
    Argument: input_x (rank 2k, k >= 1, its second half of axes equal to the
    first). All dtypes.
    """
    half = input_x.ndim // 2
    shape = input_x.shape[:half]
    if input_x.ndim == 0 or input_x.ndim % 2 or input_x.shape[half:] != shape:
        raise ValueError(f"DiagPart: input_x must have shape (d1, ..., dk, d1, ..., "
                         f"dk), got {input_x.shape}")
    size = math.prod(shape)
    return input_x.reshape(size, size).diagonal().reshape(shape).copy()
