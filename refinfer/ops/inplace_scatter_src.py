"""InplaceScatterSrc."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL, cast, require_tensors


@register("InplaceScatterSrc", family="shape", dtypes=ALL, mutates="input",
          convert={"dim": args.integer}, no_kernel="vectorised")
def inplace_scatter_src(input, dim, index, src):
    """src's values written into input at positions index along dim (scatter_).

    y = input, then y[i_0, .., index[i], .., i_n] = src[i] for every
    position i of index (dim replaced by index[i]); where index repeats a
    position the last write wins (MindSpore leaves it unspecified).
    Arguments: input; dim (negative allowed); index (integer tensor of
    input's rank, no larger than src, nor than input off dim; entries in
    [-size, size) of input's dim); src (tensor, converted to input's dtype).
    """
    require_tensors("InplaceScatterSrc", input=input, index=index, src=src)
    rank, axis = input.ndim, int(dim)
    if not -max(rank, 1) <= axis < max(rank, 1):
        raise ValueError(f"InplaceScatterSrc: dim {axis} is out of range for rank {rank}")
    axis %= max(rank, 1)
    if index.dtype.kind not in "iu" or index.ndim != rank or src.ndim != rank:
        raise ValueError(f"InplaceScatterSrc: index (integer) and src must have input's "
                         f"rank {rank}, got index {index.dtype}{list(index.shape)} and "
                         f"src {list(src.shape)}")
    too_big = [d for d in range(rank) if index.shape[d] > src.shape[d]
               or (d != axis and index.shape[d] > input.shape[d])]
    if too_big:
        raise ValueError(f"InplaceScatterSrc: index {index.shape} is larger than src "
                         f"{src.shape} or input {input.shape} on axis {too_big[0]}")
    size = input.shape[axis] if rank else 1
    if index.size and (index.min() < -size or index.max() >= size):
        raise IndexError(f"InplaceScatterSrc: index values must be in [{-size}, {size}), "
                         f"got [{index.min()}, {index.max()}]")
    out = input.copy()
    coordinates = list(np.indices(index.shape, sparse=True))
    coordinates[axis] = index
    out[tuple(coordinates)] = cast(src, input.dtype)[tuple(slice(0, n) for n in index.shape)]
    return out
