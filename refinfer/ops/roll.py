"""Roll."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("Roll", family="shape", dtypes=ALL,
          convert={"shifts": args.ints, "dims": args.axes}, no_kernel="copy")
def roll(input, shifts, dims=None):
    """Shift elements cyclically along axes: y[i + s] = input[i] (mod n).

    Arguments: input; shifts (int or tuple); dims=None (tuple of axes the
    same length as shifts; None rolls the flattened tensor). All dtypes.
    """
    if dims is None:
        return np.roll(input.reshape(-1), sum(shifts)).reshape(input.shape)
    if len(shifts) != len(dims):
        raise ValueError(f"Roll: shifts {shifts} and dims {dims} differ in "
                         "length")
    return np.roll(input, shifts, dims)
