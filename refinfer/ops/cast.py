"""Cast."""
from refinfer import args
from refinfer.registry import register

from ._kernels import logic
from ._ref.common import ALL, cast as convert


@register("Cast", family="elementwise", dtypes=ALL,
          convert={"dtype": args.dtype},
          kernels={"numba": logic.float_cast})
def cast(input_x, dtype):
    """Convert to another dtype.

    Arguments: input_x; dtype (MindSpore TypeId int in MindIR, e.g. 43 =
    float32, or a NumPy dtype). Floats to integers truncate toward zero;
    NaN, inf and out-of-range values follow MindSpore's CPU conversion
    (through int32 or int64, then wrap: NaN -> int32 gives -2**31,
    300.0 -> uint8 gives 44, -1.7 -> uint8 gives 255). To bool: nonzero
    (NaN included) is True. Integer narrowing wraps; float narrowing rounds
    to nearest (1e6 -> float16 inf).
    """
    return convert(input_x, dtype)
