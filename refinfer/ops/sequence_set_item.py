"""list_setitem and tuple_setitem."""
from refinfer import args
from refinfer.registry import register

from ._ref.sequence import position


@register("list_setitem", "tuple_setitem", family="plumbing",
          convert={"index": args.scalar})
def sequence_set_item(sequence, index, value):
    """A copy of a list or tuple with one element replaced:
    out = seq[:i] + [value] + seq[i+1:], as ``lst[i] = value`` in a graph
    (graph values are immutable, so the input is never changed).

    Arguments: sequence (list or tuple); index (int, negative counts from
    the end); value (any value). The result has the input's kind.
    """
    items = list(sequence)
    items[position(sequence, index, "list_setitem")] = value
    return items if isinstance(sequence, list) else tuple(items)
