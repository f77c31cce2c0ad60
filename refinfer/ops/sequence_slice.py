"""SequenceSlice."""
from refinfer import args
from refinfer.registry import register


@register("SequenceSlice", family="plumbing",
          convert={"start": args.scalar, "stop": args.scalar, "step": args.scalar})
def sequence_slice(seq, start, stop, step):
    """A slice of a tuple or list: out = seq[start:stop:step], as Python's
    slicing (negative bounds count from the end, bounds are clipped). The
    result has the input's kind.

    Arguments: seq (tuple or list); start, stop, step (ints; step not 0).
    """
    if int(step) == 0:
        raise ValueError("SequenceSlice: step must not be 0")
    return seq[int(start):int(stop):int(step)]
