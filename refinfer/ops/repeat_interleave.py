"""RepeatInterleaveInt and RepeatInterleaveTensor."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("RepeatInterleaveInt", "RepeatInterleaveTensor", family="shape",
          dtypes=ALL)
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


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import index as _fast_index  # noqa: E402


def repeat_interleave_numba(input, repeats, dim=None, output_size=None):
    """RepeatInterleave as row copies at precomputed offsets
    (``_fast_index.repeat``); odd or failing cases through the reference."""
    out = _fast_index.repeat(
        input, repeats, None if dim is None else int(args.scalar(dim)),
        None if output_size is None else int(args.scalar(output_size)))
    return repeat_interleave(input, repeats, dim, output_size) if out is None else out


register_kernel("RepeatInterleaveInt", "numba")(repeat_interleave_numba)
register_kernel("RepeatInterleaveTensor", "numba")(repeat_interleave_numba)
