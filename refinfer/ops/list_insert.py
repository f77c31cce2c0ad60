"""ListInsert."""
from refinfer import args
from refinfer.registry import register

from ._ref.sequence import require_sequence


@register("ListInsert", family="plumbing", convert={"index": args.scalar})
def list_insert(input_data, index, target):
    """A copy of a list with ``target`` inserted before position ``index``,
    as Python's ``lst.insert(index, target)`` (a negative index counts from
    the end; one past either end appends or prepends).

    Arguments: input_data (list); index (int); target (any value).
    """
    require_sequence(input_data, "ListInsert")
    items = list(input_data)
    items.insert(args.integer(index), target)
    return items
