"""make_range."""
from refinfer import args
from refinfer.registry import register

from ._ref.scalar import SCALARS


@register("make_range", family="scalar", dtypes=SCALARS,
          convert={"start": args.scalar, "limit": args.scalar, "delta": args.scalar})
def make_range(start, limit, delta):
    """The tuple of numbers from ``start`` up to ``limit`` (exclusive) in
    steps of ``delta``: out = tuple(range(start, limit, delta)), what graph
    mode makes of ``range`` over values it only knows at run time.

    Arguments: start, limit, delta (ints). As MindSpore, a delta of 0 and an
    empty range (start >= limit for delta > 0, start <= limit for delta < 0)
    are errors rather than an empty tuple.
    """
    start, limit, delta = int(start), int(limit), int(delta)
    if delta == 0:
        raise ValueError("make_range: delta must not be 0")
    if (limit - start) * delta <= 0:
        raise ValueError(f"make_range: range({start}, {limit}, {delta}) is empty")
    return tuple(range(start, limit, delta))
