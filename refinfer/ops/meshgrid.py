"""Meshgrid."""
import numpy as np

from refinfer.errors import describe_value
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.sequence import require_sequence


_INDEXING = {0: "ij", 1: "xy", "ij": "ij", "xy": "xy"}


def _indexing(value):
    """"ij" / "xy", also as MindSpore's enum codes (0 / 1); anything else
    (a tensor from a corrupt graph included) is refused."""
    key = int(value) if isinstance(value, (int, np.integer)) else value
    if not isinstance(key, (int, str)) or key not in _INDEXING:
        raise ValueError(f"Meshgrid: indexing must be 'xy' or 'ij', got "
                         f"{describe_value(value)}")
    return _INDEXING[key]


@register("Meshgrid", family="shape", dtypes=ALL,
          convert={"indexing": _indexing}, no_kernel="copy",
          sequences=("inputs",))
def meshgrid(inputs, indexing="xy"):
    """Coordinate grids from 1-D tensors; returns a tuple.

    Arguments: inputs (tuple of 1-D tensors); indexing "xy" (Cartesian:
    the first two output axes swapped; code 1) or "ij" (matrix; code 0).
    As np.meshgrid.
    """
    require_sequence(inputs, "Meshgrid")
    return tuple(np.meshgrid(*inputs, indexing=indexing))  # C-contiguous copies
