"""UniqueConsecutive."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("UniqueConsecutive", family="shape", dtypes=ALL,
          convert={"return_inverse": args.boolean, "return_counts": args.boolean,
                   "dim": args.scalar},
          no_kernel="native")
def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapse runs of equal values (or of equal slices along dim).

    Returns (output, inverse, counts): output the first of each run
    (flattened first when dim is None); inverse (int64, input's shape, or
    dim's length) the run each element belongs to; counts (int64) each
    run's length. Arguments: input; return_inverse=False, return_counts=
    False (attributes: when False that output is a 0-d 0, as MindSpore
    2.7.1's); dim=None.
    """
    if dim is None:
        flat = input.reshape(-1)
        starts = np.ones(flat.shape, bool)
        starts[1:] = flat[1:] != flat[:-1]
        output, runs = flat[starts], np.cumsum(starts) - 1
        inverse_shape = input.shape
    else:
        axis = int(dim) % max(input.ndim, 1)
        slices = np.moveaxis(input, axis, 0).reshape(input.shape[axis], -1)
        starts = np.ones(slices.shape[0], bool)
        starts[1:] = (slices[1:] != slices[:-1]).any(axis=1)
        output = np.compress(starts, input, axis=axis)
        runs = np.cumsum(starts) - 1
        inverse_shape = runs.shape
    counts = np.diff(np.append(np.flatnonzero(starts), starts.size))
    unset = np.array(0, np.int64)
    return (output, runs.reshape(inverse_shape).astype(np.int64) if return_inverse
            else unset, counts.astype(np.int64) if return_counts else unset)
