"""Weights stored only in the layout of the kernel that reads them.

On the fast backends a weight that only fused matrix products read
(passes/gemm.py: BERT's and GPT-2's Dense and MatMul weights) is packed
once for our own product and kept only so: a second, plain copy would
double a transformer's memory. Where the file's parameters and the model
graph held the array, they hold a :class:`StoredWeight`; whatever else
reads the weight (a reference kernel that a fused node falls back to, the
plans without fusions that debugging hooks run, the weights' API) gets
:func:`value_of` it: a plain copy, made for that reader when it reads it
(a plan's step unpacks it at each run: refinfer/step.py).
"""
from __future__ import annotations

from typing import Any

import numpy as np


class StoredWeight:
    """A weight held in a kernel's layout: ``layout`` (an object with
    ``shape`` (K, N), ``dtype`` and ``unpacked()``, the (K, N) matrix) and
    whether the weight is that matrix's transpose, (N, K) (MindSpore's
    Dense and MatMul(transpose_b) weights). Its ``shape`` and ``dtype`` are
    the weight's."""

    def __init__(self, layout, transposed: bool):
        self.layout, self.transposed = layout, transposed
        rows, cols = layout.shape
        self.shape = (cols, rows) if transposed else (rows, cols)
        self.dtype = layout.dtype
        self.ndim, self.size = 2, rows * cols
        self.nbytes = self.size * self.dtype.itemsize

    def __repr__(self) -> str:
        return f"{self.dtype}{list(self.shape)} (stored packed)"

    def array(self) -> np.ndarray:
        """The weight as a read-only array (a copy); a transposed one is
        the transposed view of the (K, N) matrix, which BLAS reads faster
        (passes/gemm.py) and weight sharing publishes as it is."""
        matrix = self.layout.unpacked()
        weight = matrix.T if self.transposed else matrix
        weight.flags.writeable = False
        return weight


def value_of(constant: Any) -> Any:
    """``constant`` as the reference kernels read it: a stored weight's
    array, anything else as it is."""
    return constant.array() if isinstance(constant, StoredWeight) else constant
