"""Helpers for MindSpore's scalar primitives (ScalarAdd, ScalarCast, ...).

These ops compute on shape values and other Python numbers that flow
through dynamic-shape and control-flow graphs. MindSpore types every scalar
(SCALAR<INT64>, SCALAR<FLOAT>, SCALAR<BOOL>); here integers and bools are
Python ``int``/``bool`` and floats are NumPy float scalars of their width:
float32 (MindSpore's Python floats are float32 scalars) unless an operand is
a float64 scalar.
"""
from __future__ import annotations

import numpy as np

SCALARS = ("bool", "int64", "float32", "float64")


def operand(value):
    """A scalar operand as a Python int/bool or a NumPy float scalar.

    0-d and one-element tensors are unwrapped (MindSpore accepts them where
    a scalar is due); NumPy integer and bool scalars become Python ones.
    """
    if isinstance(value, np.ndarray):
        if value.size != 1:
            raise ValueError(f"expected a scalar, got a tensor of shape "
                             f"{value.shape}")
        value = value.reshape(-1)[0]
    if isinstance(value, (np.integer, np.bool_)):
        return value.item()
    if not isinstance(value, (int, float, np.floating)):
        raise TypeError(f"expected a scalar, got {type(value).__name__}")
    return value


def result(value, *operands):
    """The result of scalar math on ``operands``: int and bool results of
    int/bool operands unchanged; otherwise a float, float32 (float64 if an
    operand is a float64 scalar), so ``max(3, 2.5)`` gives 3.0."""
    floats = any(isinstance(o, (float, np.floating)) for o in operands)
    if isinstance(value, (bool, int)) and not floats:
        return value
    wide = any(isinstance(o, np.float64) for o in operands)
    return np.float64(value) if wide else np.float32(value)


def nonzero_divisor(y, op: str) -> None:
    """MindSpore refuses a zero divisor (Python would raise or give inf)."""
    if y == 0:
        raise ValueError(f"{op}: the divisor is zero")
