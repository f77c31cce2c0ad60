"""ScalarToTensor."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS, cast
from ._ref.scalar import operand


@register("ScalarToTensor", family="plumbing", dtypes=NUMBERS + ("bool",),
          convert={"dtype": args.dtype})
def scalar_to_tensor(input_x, dtype=43):
    """A 0-d tensor holding a scalar: out = Tensor(x, dtype).

    Arguments: input_x (int, float or bool scalar); dtype (TypeId int in
    MindIR, default 43 = float32). The value converts as Cast does (a float
    into an integer dtype truncates toward zero).
    """
    return cast(np.asarray(operand(input_x)), dtype)
