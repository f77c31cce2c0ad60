"""IndexAdd and InplaceIndexAdd."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.indexing import index_add as add_slices


@register("IndexAdd", family="shape", dtypes=NUMBERS,
          convert={"axis": args.scalar}, mutates="input_x", no_kernel="native")
def index_add(input_x, indices, input_y, axis, use_lock=True,
              check_index_bound=True):
    """Adds slices of input_y into input_x at indices along axis.

    y = copy(input_x); y[.., indices[j], ..] += input_y[.., j, ..] (axis
    ``axis``), repeats accumulate. Arguments: input_x; indices (1-D int,
    entries in [0, n): MindSpore 2.7.1 CPU raises on negative ones);
    input_y (input_x's shape with len(indices) on axis); axis; use_lock,
    check_index_bound (attributes, no effect here). What ops.index_add
    exports; MindSpore writes input_x in place, this returns the new value.
    """
    return add_slices("IndexAdd", input_x, indices, input_y, axis)


@register("InplaceIndexAdd", family="shape", dtypes=NUMBERS,
          convert={"axis": args.scalar}, mutates="var", no_kernel="native")
def inplace_index_add(var, indices, updates, axis):
    """Adds slices of updates into var at indices along axis.

    As IndexAdd(var, indices, updates, axis); negative indices raise
    (MindSpore 2.7.1 too). MindSpore writes var in place, this returns the
    new value.
    """
    return add_slices("InplaceIndexAdd", var, indices, updates, axis)
