"""SequenceIndex."""
from refinfer import args
from refinfer.registry import register

from ._ref.sequence import same_element


@register("SequenceIndex", family="plumbing",
          convert={"start": args.scalar, "end": args.scalar})
def sequence_index(sequence, target, start, end):
    """Position of the first element equal to ``target`` in
    sequence[start:end]: out = sequence.index(target, start, end), counted
    from the start of the whole sequence (an int).

    Arguments: sequence (tuple or list); target (a scalar or tensor); start,
    end (ints, negative count from the end, clipped as Python slices). A
    target not found is an error, as in MindSpore and Python.
    """
    positions = range(len(sequence))[slice(int(start), int(end))]
    for position in positions:
        if same_element(sequence[position], target):
            return position
    raise ValueError(f"SequenceIndex: {target!r} is not in the sequence of "
                     f"{len(sequence)} element(s) between {start} and {end}")
