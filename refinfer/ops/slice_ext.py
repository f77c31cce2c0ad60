"""SliceExt and SliceExtView."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("SliceExt", "SliceExtView", family="shape", dtypes=ALL,
          convert={"dim": args.scalar, "start": args.scalar, "end": args.scalar,
                   "step": args.scalar}, no_kernel="copy")
def slice_ext(input, dim, start, end, step):
    """Every step-th entry of [start, end) along dim (Python slicing).

    y = input[..., start:end:step, ...]. Arguments: input; dim (negative
    allowed); start, end (negative count from the end, both clamped to
    the axis as Python does: end <= start gives an empty axis); step >= 1.
    SliceExtView (the view form) is the same values. MindSpore 2.7.1 runs
    them in PyNative mode only on CPU.
    """
    if input.ndim == 0 or not -input.ndim <= int(dim) < input.ndim:
        raise ValueError(f"SliceExt: dim {dim} out of range for input of shape "
                         f"{input.shape}")
    if int(step) < 1:
        raise ValueError(f"SliceExt: step must be >= 1, got {step}")
    axis = int(dim) % input.ndim
    index = (slice(None),) * axis + (slice(int(start), int(end), int(step)),)
    return input[index].copy()
