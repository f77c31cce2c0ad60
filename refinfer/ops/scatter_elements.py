"""Scatter, TensorScatterElements and ScatterAddWithAxis: element scatters
along one axis (torch's scatter_), one helper with the combining ufunc as a
parameter."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL, NUMBERS
from ._ref.indexing import scatter_along

# The reduce enum (MindSpore's Reduce: none, add, multiply) -> its ufunc.
COMBINE = {"NONE": None, "ADD": np.add, "MULTIPLY": np.multiply}


@register("Scatter", family="shape", dtypes=ALL,
          convert={"dim": args.scalar, "reduce": args.scatter_reduce},
          no_kernel="native")
def scatter(input, dim, index, src, reduce="NONE"):
    """Copy of input with src's elements written along dim at index.

    y = copy(input); y[i0, .., index[i...], .., ik] (op)= src[i...] for
    every position i... of index (the dim axis replaced). Arguments: input;
    dim (negative allowed); index (int, input's rank, each other axis no
    longer than input's; entries in [-n, n), negative wrap); src (index's
    shape: MindSpore 2.7.1 CPU refuses a larger one); reduce "none" (assign, the last
    repeat wins), "add" or "multiply" (repeats accumulate), MindSpore's
    enum codes 0, 1, 2. What ops.scatter / Tensor.scatter export.
    """
    return scatter_along("Scatter", input, dim, index, src, COMBINE[reduce])


@register("TensorScatterElements", family="shape", dtypes=ALL,
          convert={"axis": args.scalar, "reduce": args.scatter_reduce},
          no_kernel="native")
def tensor_scatter_elements(data, indices, updates, axis=0, reduce="NONE"):
    """Copy of data with updates written along axis at indices.

    As Scatter with (input, dim, index, src, reduce) = (data, axis,
    indices, updates, reduce); updates has indices' shape. The primitive
    of ops.tensor_scatter_elements, P.TensorScatterElements and
    TensorScatterElementsExt.
    """
    return scatter_along("TensorScatterElements", data, axis, indices, updates,
                         COMBINE[reduce])


@register("ScatterAddWithAxis", family="shape", dtypes=NUMBERS,
          convert={"axis": args.scalar}, mutates="input_x", no_kernel="native")
def scatter_add_with_axis(input_x, indices, updates, axis=0):
    """Adds updates into a Parameter along axis at indices.

    As Scatter with reduce "add": input_x[.., indices[i...], ..] +=
    updates[i...], repeats accumulate, negative indices wrap. MindSpore
    updates input_x in place and returns it; this returns the new value.
    """
    return scatter_along("ScatterAddWithAxis", input_x, axis, indices, updates,
                         np.add)
