"""Histogram."""
import numpy as np

from refinfer import args
from refinfer.registry import register


@register("Histogram", family="reduction", dtypes=("float16", "float32", "int32"),
          convert={"bins": args.scalar, "min": args.scalar, "max": args.scalar},
          no_kernel="native")
def histogram(x, bins=100, min=0.0, max=0.0):
    """Counts of x's elements in bins equal-width bins over [min, max].

    bin(v) = floor((v - min) * bins / (max - min)), v = max in the last bin,
    values outside [min, max] not counted, NaN counted in the first bin (as
    MindSpore 2.7.1's CPU kernel does); min = max = 0 (the defaults) means
    x's own minimum and maximum. Arguments: x (float16,
    float32 or int32); bins=100, min=0.0, max=0.0 (attributes). Output:
    (bins,), x's dtype.
    """
    count = int(bins)
    if count < 1 or float(min) > float(max):
        raise ValueError(f"Histogram: need bins >= 1 and min <= max, got bins "
                         f"{count}, min {min}, max {max}")
    values = x.astype(np.float64).reshape(-1)
    low, high = float(min), float(max)
    if low == high and values.size:
        low, high = float(np.nanmin(values)), float(np.nanmax(values))
    kept = values[(values >= low) & (values <= high) | np.isnan(values)]
    width = high - low
    with np.errstate(invalid="ignore"):
        where = np.zeros(kept.shape) if width == 0 else \
            np.floor((kept - low) * count / width)
    where = np.minimum(np.nan_to_num(where, nan=0.0).astype(np.int64), count - 1)
    return np.bincount(where, minlength=count).astype(x.dtype)
