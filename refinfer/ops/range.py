"""Range."""
from refinfer import args
from refinfer.registry import register

from ._kernels import shape
from ._ref.common import NUMBERS
from ._ref.sequence import progression


@register("Range", family="shape", dtypes=NUMBERS,
          convert={"maxlen": args.scalar}, kernels={"numba": shape.range_})
def range_(start, end, step, maxlen=1000000):
    """Arithmetic progression [start, start + step, ...) stopping before end.

    What ops.range / ops.arange export (the bounds arrive as scalars, or as
    0-d tensors). Length ceil((end - start) / step); step 0 or pointing away
    from end raises, as more than maxlen=1000000 elements does.

    Output dtype (MindSpore 2.7.1 CPU): int64 when all three are integers,
    else float32 (also for float64 inputs).
    """
    return progression(start, end, step, None, "Range", int(maxlen))
