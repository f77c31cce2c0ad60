"""MindSpore's in-place spellings of elementwise ops (InplaceMul of Mul,
InplaceAddExt of AddExt, ...), registered as variants of the op.

``x.mul_(y)`` in graph mode exports ``InplaceMul(x, y, U)``: MindSpore's
kernel writes the result into x, so the result keeps x's dtype and shape. Its
operands are converted to x's dtype first (int32 ``x.mul_(2.5)`` multiplies
by 2, float32 y added into an int32 x is truncated), then the op runs and its
result is converted back (int32 ``x.div_(2)``: 3 / 2 = 1.5 -> 1), each
conversion as MindSpore's Cast. The registry's ``mutates`` makes later reads
of x see the result. Divs (``mint.div(x, 2)``) computes in x's dtype the same
way, without writing x.
"""
from __future__ import annotations

import functools

import numpy as np

from refinfer.registry import register_variant

from .common import cast


def in_input_dtype(fn, name: str):
    """``fn`` (a reference or kernel of ``(input, other, *params)``) as op
    ``name`` computes it in input's dtype and shape; a kernel's None passes
    through."""
    # (the wrapper's module stays this one: it is no program kernel)
    @functools.wraps(fn, assigned=("__name__", "__qualname__", "__doc__"))
    def inplace(input, other, *params):
        if not isinstance(input, np.ndarray):
            raise TypeError(f"{name}: input must be a tensor, got "
                            f"{type(input).__name__}")
        result = fn(input, cast(np.asarray(other), input.dtype), *params)
        if result is None:
            return None
        if result.shape != input.shape:
            raise ValueError(f"{name}: the result's shape {result.shape} is not "
                             f"input's {input.shape} (the result takes "
                             "input's shape)")
        return cast(result, input.dtype)
    return inplace


def register_inplace(of: str, *names: str) -> None:
    """Register ``names`` as MindSpore's in-place spellings of op ``of``
    (``register_inplace("Mul", "InplaceMul", "InplaceMuls")``)."""
    register_variant(of, *names, wrap=in_input_dtype, mutates="input")
