"""ReverseV2."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("ReverseV2", family="shape", dtypes=ALL, convert={"axis": args.ints})
def reverse_v2(input, axis):
    """Reverse the order of elements along the given axes (ops.flip).

    Arguments: input; axis (tuple of distinct axes, negative allowed).
    nn.LSTM's backward direction runs on ReverseV2'd sequences. All dtypes.
    """
    if len({a % max(input.ndim, 1) for a in axis}) != len(axis):
        raise ValueError(f"ReverseV2: repeated axis in {axis}")
    return np.flip(input, axis).copy()


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import shape as _fast_shape  # noqa: E402


@register_kernel("ReverseV2", "numba")
def reverse_v2_numba(input, axis):
    """A flipped last axis as a gather (_fast_shape.gather: reversed runs,
    a vectorised loop where NumPy steps backwards element by element).
    Flips of other axes only copy whole rows, which NumPy does at memcpy
    speed: they go to the reference, as small tensors and invalid axes do."""
    rank = input.ndim
    flipped = {a % rank for a in axis if -rank <= a < rank} if rank else set()
    if len(flipped) != len(axis) or rank - 1 not in flipped \
            or input.size < _fast_shape.SMALL:
        return reverse_v2(input, axis)
    maps = [np.arange(n)[::-1] if k in flipped else _fast_shape.COPY
            for k, n in enumerate(input.shape)]
    y = _fast_shape.gather(input, maps)
    return reverse_v2(input, axis) if y is None else y
