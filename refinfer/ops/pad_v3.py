"""PadV3."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.pad import from_last_axis, pad


@register("PadV3", family="shape", dtypes=ALL,
          convert={"paddings": args.ints, "mode": str.lower,
                   "paddings_contiguous": args.boolean})
def pad_v3(x, paddings, constant_value=None, mode="constant",
           paddings_contiguous=True):
    """Padding with torch-style widths and four modes (what ops.pad exports).

    Arguments (classic PRIMITIVE): x; paddings (tuple or 1-D tensor of 2k
    ints, k <= rank, starting at the LAST axis: (left, right) of the last
    axis, then of the one before; with paddings_contiguous=False all the
    befores come first, then the afters); constant_value (0-d tensor, the
    fill of mode "constant", cast to x's dtype; None means 0); attributes
    mode = "constant" | "reflect" | "edge" (replicate) | "circular" (wrap
    around) and paddings_contiguous=True. Negative widths crop (constant
    mode). All dtypes.
    """
    return _padded(pad, x, paddings, constant_value, mode, paddings_contiguous)


def _padded(pad_function, x, paddings, constant_value, mode, contiguous):
    widths = from_last_axis(paddings, x.ndim, contiguous)
    value = 0 if constant_value is None else constant_value
    return pad_function(x, widths, mode, value)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import shape as _fast_shape  # noqa: E402


@register_kernel("PadV3", "numba")
def pad_v3_numba(x, paddings, constant_value=None, mode="constant",
                 paddings_contiguous=True):
    """PadV3 as a gather (_fast_shape.pad), every mode."""
    return _padded(_fast_shape.pad, x, paddings, constant_value, mode,
                   paddings_contiguous)
