"""PadV3."""
from refinfer import args
from refinfer.registry import register

from ._kernels import shape
from ._ref.common import ALL
from ._ref.pad import padding_mode, torch_pad


@register("PadV3", family="shape", dtypes=ALL,
          convert={"paddings": args.ints, "constant_value": args.scalar,
                   "mode": padding_mode, "paddings_contiguous": args.boolean},
          kernels={"numba": shape.pad_v3})
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
    return torch_pad(x, paddings, mode, constant_value, paddings_contiguous)
