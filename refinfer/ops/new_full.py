"""NewFull, NewZeros, NewOnes and NewEmpty."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.fill import filled


@register("NewFull", family="shape", dtypes=ALL,
          convert={"size": args.ints, "dtype": args.optional_dtype},
          no_kernel="copy")
def new_full(input, size, fill_value, dtype=None):
    """A tensor of shape ``size`` filled with fill_value (Tensor.new_full).

    Arguments: input (gives the default dtype only); size (tuple);
    fill_value (scalar); dtype=None (TypeId; None keeps input's dtype).
    """
    return filled(size, fill_value, input.dtype if dtype is None else dtype)


@register("NewZeros", family="shape", dtypes=ALL,
          convert={"size": args.ints, "dtype": args.optional_dtype},
          no_kernel="copy")
def new_zeros(input, size, dtype=None):
    """Zeros of shape ``size`` in input's dtype or dtype (Tensor.new_zeros)."""
    return new_full(input, size, 0, dtype)


@register("NewOnes", family="shape", dtypes=ALL,
          convert={"size": args.ints, "dtype": args.optional_dtype},
          no_kernel="copy")
def new_ones(input, size, dtype=None):
    """Ones of shape ``size`` in input's dtype or dtype (Tensor.new_ones)."""
    return new_full(input, size, 1, dtype)


@register("NewEmpty", family="shape", dtypes=ALL,
          convert={"size": args.ints, "dtype": args.optional_dtype},
          no_kernel="copy")
def new_empty(input, size, dtype=None, device=None):
    """An uninitialised tensor of shape ``size`` (Tensor.new_empty): zeros.

    MindSpore leaves the values unset (whatever the memory held); this
    gives zeros, so a model whose output depends on them cannot match.
    Arguments: input (the default dtype); size; dtype=None; device=None
    (no effect here).
    """
    return new_full(input, size, 0, dtype)
