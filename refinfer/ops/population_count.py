"""PopulationCount."""
import numpy as np

from refinfer.registry import register

from ._ref.common import INTS


@register("PopulationCount", family="elementwise", dtypes=INTS,
          no_kernel="vectorised")
def population_count(input_x):
    """Number of set bits of each element's two's-complement pattern.

    y = popcount(input_x) as uint8 (int16 -1 -> 16). Argument: input_x
    (an integer dtype).
    """
    if input_x.dtype.kind not in "iu":
        raise TypeError(f"PopulationCount: input_x must be an integer tensor, "
                        f"got {input_x.dtype}")
    as_bytes = np.ascontiguousarray(input_x).view(np.uint8)
    bits = np.unpackbits(as_bytes.reshape(input_x.shape + (-1,)), axis=-1)
    return bits.sum(axis=-1, dtype=np.uint8)
