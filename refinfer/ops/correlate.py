"""Correlate."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS, as_result, promote


@register("Correlate", family="nn", dtypes=NUMBERS,
          convert={"pad_mode": args.correlate_mode}, no_kernel="native")
def correlate(a, v, pad_mode="VALID"):
    """Cross-correlation of two 1-D sequences (mindspore.numpy.correlate).

    c[k] = sum_n a[n + k] * conj(v[n]), the sequences zero-padded where
    needed. Arguments: a, v (1-D tensors, not empty, promoted to one dtype);
    pad_mode="valid" (code 2: only full overlaps, length |len(a) - len(v)| +
    1), "same" (1: length max(len(a), len(v))) or "full" (3: every overlap,
    length len(a) + len(v) - 1). As NumPy's correlate.
    """
    a, v = promote(a, v)
    if a.ndim != 1 or v.ndim != 1 or a.size == 0 or v.size == 0:
        raise ValueError(f"Correlate: a and v must be non-empty 1-D tensors, got shapes "
                         f"{a.shape} and {v.shape}")
    return as_result(np.correlate(a, v, pad_mode.lower()), a.dtype)
