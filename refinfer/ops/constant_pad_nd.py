"""ConstantPadND."""
from refinfer import args
from refinfer.registry import register

from ._kernels import shape
from ._ref.common import ALL
from ._ref.pad import torch_pad


@register("ConstantPadND", family="shape", dtypes=ALL,
          convert={"padding": args.ints, "value": args.scalar},
          kernels={"numba": shape.constant_pad_nd})
def constant_pad_nd(input, padding, value=0.0):
    """Constant padding as mint.nn.functional.pad exports it.

    Arguments: input; padding (2k ints, k <= rank, starting at the last
    axis: (left, right) of the last axis, then of the one before; negative
    widths crop); value=0.0 (Python scalar, cast to input's dtype). All
    dtypes. MindSpore 2.7.1 has no CPU kernel for it.
    """
    return torch_pad(input, padding, "constant", value)
