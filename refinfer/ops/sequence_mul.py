"""SequenceMul."""
from refinfer import args
from refinfer.registry import register


@register("SequenceMul", family="plumbing", convert={"scalar": args.scalar})
def sequence_mul(sequence, scalar):
    """A tuple or list repeated ``scalar`` times: out = sequence * scalar, as
    Python's ``*`` on sequences (0 or a negative count gives an empty one).

    Arguments: sequence (tuple or list); scalar (int).
    """
    return sequence * int(scalar)
