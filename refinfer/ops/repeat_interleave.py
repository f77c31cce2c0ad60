"""RepeatInterleaveInt and RepeatInterleaveTensor."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import index
from ._ref.common import ALL


@register("RepeatInterleaveInt", "RepeatInterleaveTensor", family="shape",
          dtypes=ALL, kernels={"numba": index.repeat_interleave})
def repeat_interleave(input, repeats, dim=None, output_size=None):
    """Repeat each element ``repeats`` times along dim (np.repeat).

    Arguments: input; repeats (int, or 1-D int tensor with one count per
    entry along dim); dim=None (None flattens first); output_size=None
    (only checked when given).
    """
    repeats = repeats if isinstance(repeats, np.ndarray) else int(repeats)
    dim = None if dim is None else int(args.scalar(dim))
    out = np.repeat(input, repeats, axis=dim)
    length = out.shape[0 if dim is None else dim]
    if output_size is not None and length != int(args.scalar(output_size)):
        raise ValueError(f"RepeatInterleave: output_size {output_size} but "
                         f"{length} elements")
    return out

