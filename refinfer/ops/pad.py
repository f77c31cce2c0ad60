"""Pad."""
from refinfer.registry import register

from ._kernels import shape
from ._ref.common import ALL
from ._ref.pad import axis_pairs
from ._ref.pad import pad as pad_array


@register("Pad", family="shape", dtypes=ALL, kernels={"numba": shape.zero_pad},
          sequences=("paddings",))
def pad(x, paddings):
    """Zero padding given per axis (what nn.Pad with mode CONSTANT exports).

    y has shape[i] + paddings[i][0] + paddings[i][1] on axis i, with x in
    the middle and zeros around.

    Arguments (classic PRIMITIVE): x; paddings (attribute, one (before,
    after) pair of non-negative ints per axis, first axis first). All dtypes.
    """
    return pad_array(x, axis_pairs(x, paddings))
