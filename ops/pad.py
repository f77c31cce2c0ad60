"""Pad."""
from refinfer.registry import register

from ._common import ALL
from ._pad import pad as pad_array


@register("Pad", family="shape", dtypes=ALL)
def pad(x, paddings):
    """Zero padding given per axis (what nn.Pad with mode CONSTANT exports).

    y has shape[i] + paddings[i][0] + paddings[i][1] on axis i, with x in
    the middle and zeros around.

    Arguments (classic PRIMITIVE): x; paddings (attribute, one (before,
    after) pair of non-negative ints per axis, first axis first). All dtypes.
    """
    if len(paddings) != x.ndim:
        raise ValueError(f"Pad: {len(paddings)} (before, after) pairs for "
                         f"rank {x.ndim}")
    return pad_array(x, [tuple(int(v) for v in pair) for pair in paddings])
