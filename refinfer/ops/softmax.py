"""Softmax."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.reduce import shifted_logits


@register("Softmax", family="activation", dtypes=FLOATS,
          convert={"axis": args.ints})
def softmax(input, axis=(-1,)):
    """Softmax along one axis: y = exp(x - max) / sum(exp(x - max)).

    Arguments: input (rank >= 1), axis=-1 (exported as a 1-tuple (-1,); an
    int works too; MindSpore's CPU kernel rejects several axes, and so does
    this one). Output has input's dtype; float16 is computed in float32.
    """
    z, axis = shifted_logits(input, axis, "Softmax")
    e = np.exp(z)
    return (e / e.sum(axis=axis, keepdims=True)).astype(input.dtype)


# -- numba backend -------------------------------------------------------------
from refinfer.jit import kernel  # noqa: E402
from refinfer.registry import register_kernel  # noqa: E402
from refinfer.threads import min_items, parallel_for  # noqa: E402

from ._kernels import program as _fast  # noqa: E402
from ._kernels.libm import fast_exp, sum64  # noqa: E402


@kernel
def softmax_rows(x, y, log):
    """Each row of x (R, C): y = exp(x - max) / sum(exp(x - max)), or with
    ``log`` y = (x - max) - log(sum(exp(x - max))). exp is
    :func:`_fast_libm.fast_exp` (within 2 ulp) in a loop of its own, so that
    it vectorises; sums accumulate in float64 (:func:`_fast_libm.sum64`).
    A NaN anywhere in a row makes the sum, hence the whole row, NaN (as in
    the reference)."""
    for r in range(x.shape[0]):
        row, out = x[r], y[r]
        top = row[0]
        for j in range(1, row.shape[0]):
            top = row[j] if row[j] > top else top
        for j in range(row.shape[0]):
            out[j] = fast_exp(row[j] - top)
        total = sum64(out)
        if log:
            shift = out.dtype.type(np.log(total))
            for j in range(row.shape[0]):
                out[j] = (row[j] - top) - shift
        else:
            norm = out.dtype.type(total)
            for j in range(row.shape[0]):
                out[j] = out[j] / norm


def last_axis_rows(x, axis, log, reference):
    """Softmax / LogSoftmax of float32/float64 x along its last axis with
    :func:`softmax_rows`; other axes and dtypes go to ``reference``."""
    if _fast.float_operands(x) is None or x.ndim == 0 or len(axis) != 1 \
            or axis[0] not in (-1, x.ndim - 1) or x.size == 0:
        return reference(x, axis)
    x2 = _fast.writable(x).reshape(-1, x.shape[-1])
    y = np.empty(x2.shape, x.dtype)
    parallel_for(x2.shape[0], lambda lo, hi: softmax_rows(x2[lo:hi], y[lo:hi], log),
                 grain=min_items(x2.shape[1]))
    return y.reshape(x.shape)


@register_kernel("Softmax", "numba")
def softmax_numba(input, axis=(-1,)):
    """Softmax along the last axis, one pass per row (see softmax_rows)."""
    return last_axis_rows(input, axis, False, softmax)
