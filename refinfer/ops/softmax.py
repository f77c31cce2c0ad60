"""Softmax."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import norm
from ._ref.common import FLOATS
from ._ref.reduce import shifted_logits


@register("Softmax", family="activation", dtypes=FLOATS,
          convert={"axis": args.ints},
          kernels={"numba": norm.softmax})
def softmax(input, axis=(-1,)):
    """Softmax along one axis: y = exp(x - max) / sum(exp(x - max)).

    Arguments: input (rank >= 1), axis=-1 (exported as a 1-tuple (-1,); an
    int works too; MindSpore's CPU kernel rejects several axes, and so does
    this one). Output has input's dtype; float16 is computed in float32.
    """
    z, axis = shifted_logits(input, axis, "Softmax")
    e = np.exp(z)
    return (e / e.sum(axis=axis, keepdims=True)).astype(input.dtype)
