"""Gather."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import index
from ._ref.common import ALL, as_result
from ._ref.indexing import check_take, gather_axes


@register("Gather", family="shape", dtypes=ALL,
          convert={"axis": args.scalar, "batch_dims": args.scalar},
          kernels={"numba": index.gather})
def gather(input_params, input_indices, axis, batch_dims=0):
    """Take slices of input_params along axis at the given indices.

    out[b..., p..., i..., q...] = params[b..., p..., indices[b..., i...], q...]
    with the first batch_dims axes shared by params and indices; output
    shape params.shape[:axis] + indices.shape[batch_dims:] +
    params.shape[axis+1:].

    Arguments: input_params; input_indices (int tensor, any rank incl. 0-d);
    axis (negative allowed); batch_dims=0 (<= axis). Negative indices count
    from the end (MindSpore CPU accepts them); out-of-range indices raise.
    """
    axis, batch_dims = gather_axes(input_params, input_indices, axis,
                                   batch_dims)
    check_take("Gather", input_indices, input_params.shape[axis], axis)
    if batch_dims == 0:
        return as_result(np.take(input_params, input_indices, axis=axis))
    batch = input_params.shape[:batch_dims]
    if input_indices.shape[:batch_dims] != batch:
        raise ValueError(f"Gather: batch axes differ: {input_params.shape} "
                         f"and {input_indices.shape}")
    out_shape = (batch + input_params.shape[batch_dims:axis]
                 + input_indices.shape[batch_dims:]
                 + input_params.shape[axis + 1:])
    params = input_params.reshape((-1,) + input_params.shape[batch_dims:])
    indices = input_indices.reshape((-1,) + input_indices.shape[batch_dims:])
    out = np.empty((params.shape[0],) + out_shape[batch_dims:],
                   input_params.dtype)
    for b in range(params.shape[0]):  # one plain gather per batch entry
        out[b] = np.take(params[b], indices[b], axis=axis - batch_dims)
    return out.reshape(out_shape)

