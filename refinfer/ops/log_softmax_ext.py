"""LogSoftmaxExt."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, cast
from .log_softmax import log_softmax


@register("LogSoftmaxExt", family="activation", dtypes=FLOATS,
          convert={"dim": args.scalar, "dtype": args.optional_dtype})
def log_softmax_ext(input, dim=None, dtype=None):
    """Log of the softmax along dim (mint.nn.functional.log_softmax).

    Arguments: input; dim=None (PyTorch's legacy default: 0 for rank 0, 1
    and 3, else 1); dtype=None (TypeId: input is cast to it first). See
    LogSoftmax.
    """
    if dtype is not None:
        input = cast(input, dtype)
    if dim is None:
        dim = 0 if input.ndim in (0, 1, 3) else 1
    return log_softmax(input, (int(dim),))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("LogSoftmaxExt", "numba")
def log_softmax_ext_numba(input, dim=None, dtype=None):
    """LogSoftmaxExt of float32/float64 tensors along any dim without moving
    it (max, sum of exponentials, then the output, per row or column
    block); float16 through the reference."""
    work = input if dtype is None else cast(input, dtype)
    axis = dim if dim is not None else 0 if work.ndim in (0, 1, 3) else 1
    found = _fast_reduce.log_softmax(work, int(axis))
    return log_softmax_ext(input, dim, dtype) if found is None else found
