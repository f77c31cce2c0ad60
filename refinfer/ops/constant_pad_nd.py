"""ConstantPadND."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.pad import from_last_axis, pad


@register("ConstantPadND", family="shape", dtypes=ALL,
          convert={"padding": args.ints, "value": args.scalar})
def constant_pad_nd(input, padding, value=0.0):
    """Constant padding as mint.nn.functional.pad exports it.

    Arguments: input; padding (2k ints, k <= rank, starting at the last
    axis: (left, right) of the last axis, then of the one before; negative
    widths crop); value=0.0 (Python scalar, cast to input's dtype). All
    dtypes. MindSpore 2.7.1 has no CPU kernel for it.
    """
    return pad(input, from_last_axis(padding, input.ndim), "constant", value)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import shape as _fast_shape  # noqa: E402


@register_kernel("ConstantPadND", "numba")
def constant_pad_nd_numba(input, padding, value=0.0):
    """Constant padding as a gather (_fast_shape.pad)."""
    return _fast_shape.pad(input, from_last_axis(padding, input.ndim),
                           "constant", value)
