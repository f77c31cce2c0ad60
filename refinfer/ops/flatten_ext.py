"""FlattenExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("FlattenExt", family="shape", dtypes=ALL,
          convert={"start_dim": args.scalar, "end_dim": args.scalar},
          no_kernel="view")
def flatten_ext(input, start_dim=0, end_dim=-1):
    """Merge axes start_dim..end_dim into one (mint.flatten, torch.flatten).

    Arguments: input; start_dim=0, end_dim=-1 (negative allowed,
    start_dim <= end_dim). A 0-d input becomes 1-D. All dtypes.
    """
    if input.ndim == 0:
        return input.reshape(1)
    start, end = int(start_dim) % input.ndim, int(end_dim) % input.ndim
    if start > end:
        raise ValueError(f"FlattenExt: start_dim {start_dim} is after "
                         f"end_dim {end_dim}")
    merged = int(np.prod(input.shape[start:end + 1], dtype=np.int64))
    return input.reshape(input.shape[:start] + (merged,)
                         + input.shape[end + 1:])
