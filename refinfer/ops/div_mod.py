"""DivMod."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import ALL, promote
from ._ref.math import floor_divide, true_divide, truncate_divide

# MindIR codes of ops.div's rounding_mode (MindSpore's RoundingMode enum).
ROUNDING_MODES = {1: "trunc", 2: "floor"}


def rounding_mode(value):
    """None, a MindIR code or a string -> None, "trunc" or "floor"."""
    if value is None:
        return None
    if isinstance(value, str) and value.lower() in ROUNDING_MODES.values():
        return value.lower()
    if isinstance(value, (int, np.integer)) and int(value) in ROUNDING_MODES:
        return ROUNDING_MODES[int(value)]
    raise ValueError(f"unknown rounding_mode {value!r}")


@register("DivMod", family="elementwise", dtypes=ALL,
          convert={"rounding_mode": rounding_mode},
          kernels={"numba": logic.div_mod})
def div_mod(input, other, rounding_mode=None):
    """Division with a rounding mode (what ops.div(..., rounding_mode) exports).

    Arguments: input, other (tensors or Python scalars); rounding_mode=None:
    None is true division (as Div: integers give float32), "trunc" (code 1)
    rounds toward zero and "floor" (code 2) down, both keeping the promoted
    dtype (int32 -7 / 2 -> -3 trunc, -4 floor; an integer x / 0 saturates as
    FloorDiv). Bool operands give bool for the rounding modes.
    """
    if rounding_mode is None:
        return true_divide(input, other)
    a, b = promote(input, other)
    if a.dtype.kind == "b":
        a, b = a.astype(np.int8), b.astype(np.int8)
        return (floor_divide(a, b) != 0) if rounding_mode == "floor" else \
            (truncate_divide(a, b) != 0)
    return (floor_divide if rounding_mode == "floor" else truncate_divide)(a, b)
