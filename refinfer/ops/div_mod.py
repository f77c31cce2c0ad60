"""DivMod."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, promote
from ._ref.math import floor_divide, truncate_divide
from .div import div

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
          convert={"rounding_mode": rounding_mode})
def div_mod(input, other, rounding_mode=None):
    """Division with a rounding mode (what ops.div(..., rounding_mode) exports).

    Arguments: input, other (tensors or Python scalars); rounding_mode=None:
    None is true division (as Div: integers give float32), "trunc" (code 1)
    rounds toward zero and "floor" (code 2) down, both keeping the promoted
    dtype (int32 -7 / 2 -> -3 trunc, -4 floor; an integer x / 0 saturates as
    FloorDiv). Bool operands give bool for the rounding modes.
    """
    if rounding_mode is None:
        return div(input, other)
    a, b = promote(input, other)
    if a.dtype.kind == "b":
        a, b = a.astype(np.int8), b.astype(np.int8)
        return (floor_divide(a, b) != 0) if rounding_mode == "floor" else \
            (truncate_divide(a, b) != 0)
    return (floor_divide if rounding_mode == "floor" else truncate_divide)(a, b)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402
from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("DivMod", "numba")
def div_mod_numba(input, other, rounding_mode=None):
    """DivMod: true division as Div's fast path; trunc and floor in one
    compiled pass (``_fast_logic.division``, integer x / 0 included); bool
    and float16 through the reference."""
    if rounding_mode is None:
        return _fast.elementwise(_fast.OP_DIV, div, input, other)
    op = _fast_logic.FLOOR_DIV if rounding_mode == "floor" else _fast_logic.TRUNC_DIV
    return _fast_logic.division(
        op, lambda a, b: div_mod(a, b, rounding_mode), input, other)
