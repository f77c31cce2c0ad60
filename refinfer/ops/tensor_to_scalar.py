"""TensorToScalar."""
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.scalar import operand


@register("TensorToScalar", family="plumbing", dtypes=ALL)
def tensor_to_scalar(input_x):
    """The value of a 0-d (or one-element) tensor as a scalar:
    out = x.item(), as ``Tensor.item()`` or ``int(tensor)`` in a graph.

    Integer and bool tensors give Python ints and bools; float tensors a
    NumPy float scalar of the tensor's dtype.
    """
    return operand(input_x)
