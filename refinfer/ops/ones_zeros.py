"""Ones and Zeros."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.fill import filled


@register("Ones", family="shape", dtypes=ALL,
          convert={"shape": args.ints, "type": args.optional_dtype}, no_kernel="copy")
def ones(shape, type=None):
    """A tensor of ones of the given shape (ops.ones).

    Arguments: shape (int, tuple or 1-D int tensor); type=None (TypeId;
    None means float32). Graph mode folds a static shape's Ones into a
    constant, so exports hold it only for dynamic shapes.
    """
    return filled(shape, 1, np.float32 if type is None else type)


@register("Zeros", family="shape", dtypes=ALL,
          convert={"shape": args.ints, "type": args.optional_dtype}, no_kernel="copy")
def zeros(shape, type=None):
    """A tensor of zeros of the given shape (ops.zeros); arguments as Ones."""
    return filled(shape, 0, np.float32 if type is None else type)
