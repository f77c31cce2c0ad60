"""Print."""
import sys

import numpy as np

from refinfer.registry import register

from ._ref.common import ALL

DTYPE_NAMES = {"bool": "Bool", "float16": "Float16", "float32": "Float32",
               "float64": "Float64"}


@register("Print", family="plumbing", dtypes=ALL, side_effect=True)
def print_op(*inputs):
    """Prints strings and tensors, as MindSpore's Print does.

    To stderr (MindSpore writes to stdout): ``refinfer run`` prints the
    model's outputs on stdout, for scripts to read. Each input on its own
    line: a string as it is, a tensor as
    ``Tensor(shape=[2], dtype=Float32, value=[ 1.00000000e+00 ...])``
    (NumPy's formatting of the values; MindSpore's own spacing may differ),
    a number as itself. Returns MindSpore's placeholder, an int32 [0]. Runs
    even when nothing reads its result (a side effect).
    """
    for item in inputs:
        print(_shown(item), file=sys.stderr)
    return np.zeros(1, np.int32)


def _shown(item) -> str:
    if not isinstance(item, np.ndarray):
        return str(item)
    name = DTYPE_NAMES.get(item.dtype.name, item.dtype.name.capitalize())
    if item.dtype.kind == "f":
        values = np.array2string(item, formatter={"float_kind": "{: .8e}".format})
    else:
        values = np.array2string(item)
    return f"Tensor(shape={list(item.shape)}, dtype={name}, value={values})"
