"""TupleToTensor and ListToTensor."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS, cast
from ._ref.sequence import require_sequence


@register("TupleToTensor", "ListToTensor", family="plumbing",
          dtypes=NUMBERS + ("bool",), convert={"dtype": args.dtype})
def tuple_to_tensor(input_tuple, dtype=43):
    """A 1-D tensor from a tuple or list of scalars:
    out = Tensor(input_tuple, dtype), as ``ops.tuple_to_array(x.shape)``.

    Arguments: input_tuple (tuple or list of int, float or bool scalars; an
    empty sequence gives shape (0,)); dtype (TypeId int or dtype value in
    MindIR, default 43 = float32). Values convert as Cast does.
    """
    require_sequence(input_tuple, "TupleToTensor")
    values = [np.asarray(v).item() for v in input_tuple]
    array = np.asarray(values) if values else np.zeros((0,), np.float32)
    return cast(array, dtype)
