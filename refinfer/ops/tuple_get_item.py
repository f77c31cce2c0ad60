"""TupleGetItem."""
from refinfer import args
from refinfer.registry import register

from ._ref.sequence import position


@register("TupleGetItem", "list_getitem",
          family="plumbing", convert={"index": args.scalar})
def tuple_get_item(sequence, index):
    """Element ``index`` of a tuple or list (negative counts from the end)."""
    return sequence[position(sequence, index, "TupleGetItem")]
