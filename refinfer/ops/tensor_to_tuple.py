"""TensorToTuple and TensorToList."""
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.scalar import operand


@register("TensorToTuple", family="plumbing", dtypes=ALL)
def tensor_to_tuple(input_x):
    """The elements of a 1-D tensor as a tuple of scalars:
    out = tuple(x), as ``TensorToTuple()(x)``.

    Integer and bool elements become Python ints and bools, float elements
    NumPy float scalars of the tensor's dtype (see ops/_scalar.py).
    """
    return tuple(_elements(input_x))


@register("TensorToList", family="plumbing", dtypes=ALL)
def tensor_to_list(input_x):
    """The elements of a 1-D tensor as a list of scalars: out = list(x).
    Element types as for TensorToTuple."""
    return _elements(input_x)


def _elements(x) -> list:
    if x.ndim != 1:
        raise ValueError(f"expected a 1-D tensor, got shape {x.shape}")
    return [operand(v) for v in x]
