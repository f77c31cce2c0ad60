"""Normalisers for op arguments: every MindIR spelling -> one canonical form.

PRIMITIVE ops store enums as strings in any case and window sizes as
4-tuples; PRIMITIVE_FUNCTION ops store enums as int codes (MindSpore core's
enums) and dtypes as TypeId ints. Ops name these functions in their
``convert=`` table; kernels then only ever see the canonical form.
"""
from __future__ import annotations

import numpy as np

from .dtypes import dtype_from_any
from .errors import SHOWN_VALUES, describe_value

PAD_MODES = {0: "PAD", 1: "SAME", 2: "VALID"}
CORRELATE_MODES = {1: "SAME", 2: "VALID", 3: "FULL"}    # MindSpore's PadMode codes
FORMATS = {0: "NCHW", 1: "NHWC", 14: "NCDHW", 15: "NWC", 16: "NCW",
           17: "NDHWC", 20: "ND"}
REDUCTIONS = {0: "SUM", 1: "MEAN", 2: "NONE"}
SCATTER_REDUCES = {0: "NONE", 1: "ADD", 2: "MULTIPLY"}    # MindSpore's Reduce
# MindSpore's FASInputLayoutMode (the Ascend attention ops' input_layout)
ATTENTION_LAYOUTS = {0: "BSH", 1: "BNSD", 2: "SBH", 3: "BSND", 4: "TND", 5: "TH",
                     6: "NSD", 7: "SH", 8: "BNSD_BSND"}


def _enum(codes: dict[int, str], what: str):
    names = set(codes.values())

    def normalise(value):
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            if int(value) in codes:
                return codes[int(value)]
        elif isinstance(value, str) and value.upper() in names:
            return value.upper()
        raise ValueError(f"unknown {what} {_shown(value)} "
                         f"(expected one of {sorted(names)} or their codes)")
    return normalise


pad_mode = _enum(PAD_MODES, "pad_mode")
correlate_mode = _enum(CORRELATE_MODES, "pad_mode")
data_format = _enum(FORMATS, "data_format")
reduction = _enum(REDUCTIONS, "reduction")
scatter_reduce = _enum(SCATTER_REDUCES, "reduce")
attention_layout = _enum(ATTENTION_LAYOUTS, "input_layout")


def dtype(value) -> np.dtype:
    """A dtype argument: TypeId int, numpy dtype or mind_ir type value."""
    return dtype_from_any(value)


def optional_dtype(value):
    return None if value is None else dtype_from_any(value)


def ints(value) -> tuple[int, ...]:
    """An int or a sequence of ints (or a 1-D int tensor) -> tuple of ints."""
    if isinstance(value, np.ndarray):
        items = value.reshape(-1)
    else:
        items = value if isinstance(value, (list, tuple)) else (value,)
    try:
        return tuple(int(v) for v in items)
    except (TypeError, ValueError, OverflowError):
        raise TypeError(f"expected an int, ints or an int tensor, got "
                        f"{_shown(value)}") from None


def int_pairs(value) -> tuple[tuple[int, int], ...]:
    """Pairs of ints (paddings, crops): a sequence of pairs, an even count
    of ints, or an (M, 2) int tensor -> ((a, b), ...)."""
    try:
        flat = ints(np.asarray(value, dtype=object).reshape(-1))
    except (TypeError, ValueError):
        flat = None
    if flat is None or len(flat) % 2:
        raise TypeError(f"expected pairs of ints, got {_shown(value)}")
    return tuple(zip(flat[::2], flat[1::2]))


def integer(value) -> int:
    """One int (a Python or NumPy int, or a one-element tensor)."""
    v = ints(value)
    if len(v) != 1:
        raise TypeError(f"expected one int, got {_shown(value)}")
    return v[0]


def axes(value):
    """None, an int, a sequence or a tensor of axes -> None or tuple."""
    if value is None:
        return None
    return ints(value)


def pair(value) -> tuple[int, int]:
    """Window sizes, strides, dilations: int, 2-tuple or 4-tuple (N, C, H, W)
    -> (h, w)."""
    v = ints(value)
    if len(v) == 1:
        return (v[0], v[0])
    if len(v) in (2, 4):
        return (v[-2], v[-1])
    raise ValueError(f"expected 1, 2 or 4 values, got {_shown(value)}")


def pads4(value) -> tuple[int, int, int, int]:
    """Explicit padding (top, bottom, left, right) from 1, 2 or 4 values."""
    v = ints(value)
    if len(v) == 1:
        return (v[0],) * 4
    if len(v) == 2:
        return (v[0], v[0], v[1], v[1])
    if len(v) == 4:
        return v
    raise ValueError(f"expected 1, 2 or 4 padding values, got "
                     f"{_shown(value)}")


def number(value):
    """:func:`scalar` for a parameter that is not optional: None is
    refused (the registry gives it in place of ``scalar`` to every
    parameter whose default is a value, or that has none)."""
    if value is None:
        raise TypeError("expected a number, got None")
    return scalar(value)


def scalar(value):
    """A Python scalar or 0-d / 1-element tensor -> Python scalar (None, an
    absent optional argument, passes)."""
    if isinstance(value, np.ndarray):
        if not value.size:
            raise ValueError(f"expected a value, got an empty tensor "
                             f"{_shown(value)}")
        return value.reshape(-1)[0].item()
    if isinstance(value, np.generic):
        return value.item()
    if value is not None and not isinstance(value, (bool, int, float, complex)):
        raise TypeError(f"expected a number, got {_shown(value)}")
    return value


def floats(value) -> tuple[float, ...]:
    """A number, a sequence of numbers or a tensor -> tuple of floats."""
    values = value if isinstance(value, (tuple, list)) else np.ravel(value)
    found = tuple(scalar(v) for v in values)
    if not all(isinstance(v, (bool, int, float)) for v in found):
        raise TypeError(f"expected real numbers, got {_shown(value)}")
    return tuple(map(float, found))


def boolean(value) -> bool:
    return bool(scalar(value))


def _shown(value) -> str:
    """``value`` for an error message: a tensor's dtype, shape and first
    values, never the whole array."""
    return describe_value(value, SHOWN_VALUES)
