"""Switch."""
import numpy as np

from refinfer.registry import register


@register("Switch", family="control")
def switch(cond, true_branch, false_branch):
    """Select a value by a condition: y = true_branch if cond else
    false_branch.

    ``cond`` is a bool (or 0-d / one-element tensor); the branches are
    usually closures (``Partial`` results) that a following node calls.
    """
    if isinstance(cond, np.ndarray):
        if cond.size != 1:
            raise ValueError(f"Switch condition must have one element, "
                             f"got shape {cond.shape}")
        cond = cond.reshape(-1)[0]
    return true_branch if bool(cond) else false_branch
