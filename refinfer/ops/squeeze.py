"""Squeeze."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.reduce import reduce_axes


@register("Squeeze", family="shape", dtypes=ALL, convert={"axis": args.axes},
          no_kernel="view")
def squeeze(input, axis=()):
    """Remove length-1 axes.

    Arguments: input; axis=() (int or tuple; () removes every length-1
    axis). MindSpore 2.7.1 (PyNative and graph mode, CPU) silently keeps a
    listed axis whose length is not 1 instead of raising, and so does this:
    Squeeze(axis=1) of a (2, 3) tensor returns it unchanged.
    """
    if not axis:
        return input.reshape([d for d in input.shape if d != 1])
    drop = {a for a in reduce_axes(axis, input.ndim) if input.shape[a] == 1}
    return input.reshape([d for i, d in enumerate(input.shape)
                          if i not in drop])
