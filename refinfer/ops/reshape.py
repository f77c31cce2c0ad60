"""Reshape."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("Reshape", family="shape", dtypes=ALL, convert={"shape": args.ints},
          no_kernel="view")
def reshape(input, shape):
    """Same data, new shape.

    Arguments: input; shape (tuple, or 1-D int tensor when computed in the
    graph); one entry may be -1 and is inferred. 0 means a zero-length axis
    (no ONNX-style "copy this dim").
    """
    return input.reshape(shape)
