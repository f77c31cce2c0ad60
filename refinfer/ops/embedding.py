"""Embedding."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import index
from ._ref.common import FLOATS, compute_dtype, optional
from ._ref.indexing import check_rows


@register("Embedding", family="nn", dtypes=FLOATS,
          convert={"max_norm": optional(args.scalar),
                   "norm_type": args.scalar},
          kernels={"numba": index.embedding})
def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False):
    """Look up rows of an embedding table: y[...] = weight[input[...]].

    With max_norm, a looked-up row whose norm_type-norm exceeds max_norm is
    scaled by max_norm / (norm + 1e-7) first (PyTorch's renormalisation,
    which MindSpore documents; it also rewrites the table in place, a side
    effect dropped here). Deviation: MindSpore 2.7.1's CPU kernel returns
    row**2 * max_norm / norm for such rows instead (signs lost; seen on
    random 5 x 3 tables), which looks like a bug and is not reproduced.
    padding_idx and scale_grad_by_freq only matter for training.

    Arguments: input (int tensor, any rank; indices in [0, rows)); weight
    (rows, dim); padding_idx=None; max_norm=None; norm_type=2.0;
    scale_grad_by_freq=False. What mint.nn.Embedding exports (nn.Embedding
    exports Gather). MindSpore 2.7.1 has no CPU kernel for it.
    """
    check_rows(input, weight)
    rows = weight[input]
    if max_norm is None:
        return rows
    work = compute_dtype(weight.dtype)
    norms = np.linalg.norm(rows.astype(work), ord=norm_type, axis=-1,
                           keepdims=True)
    scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    return (rows * scale).astype(weight.dtype)

