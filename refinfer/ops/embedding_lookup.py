"""EmbeddingLookup."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL, INTS, require_dtype


@register("EmbeddingLookup", family="shape", dtypes=ALL,
          convert={"offset": args.scalar}, no_kernel="vectorised")
def embedding_lookup(input_params, input_indices, offset):
    """Rows of input_params at input_indices - offset; zeros out of range.

    y[i...] = input_params[input_indices[i...] - offset] where that lies in
    [0, rows), else a row of zeros (no error: a shard's table holds only
    its own rows). Arguments: input_params (rank >= 1); input_indices (int
    tensor); offset (int). Output: input_indices.shape +
    input_params.shape[1:].
    """
    require_dtype("EmbeddingLookup", "input_indices", input_indices, INTS)
    if input_params.ndim == 0:
        raise ValueError("EmbeddingLookup: input_params must have rank >= 1")
    rows = np.asarray(input_indices).astype(np.int64) - int(offset)
    inside = (rows >= 0) & (rows < input_params.shape[0])
    out = input_params[np.where(inside, rows, 0)]
    out[~inside] = 0
    return out
