"""BroadcastTo, Expand, DynamicBroadcastTo and BroadcastToView."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("BroadcastTo", "Expand", "DynamicBroadcastTo", "BroadcastToView", family="shape", dtypes=ALL,
          convert={"shape": args.ints}, no_kernel="copy")
def broadcast_to(input, shape):
    """Broadcast to a target shape with NumPy's rules (what expand_as exports).

    Arguments: input; shape (tuple, aligned to input's trailing axes). An
    entry -1 keeps input's length on that axis (only where the axis exists
    in input). A length-1 axis repeats, a missing leading axis is added.
    All dtypes. Expand (classic PRIMITIVE, ops.Expand) is the same with the
    shape as an int tensor input, and DynamicBroadcastTo (an inner op of
    dynamic-shape graphs) the same with a computed shape. BroadcastToView
    (the view primitive) returns the same values, copied.
    """
    extra = len(shape) - input.ndim
    if extra < 0:
        raise ValueError(f"BroadcastTo: shape {shape} has fewer axes than "
                         f"the input {input.shape}")
    target = []
    for i, size in enumerate(shape):
        if size == -1:
            if i < extra:
                raise ValueError(f"BroadcastTo: -1 in shape {shape} at a new "
                                 "leading axis")
            size = input.shape[i - extra]
        target.append(size)
    return np.broadcast_to(input, target).copy()
