"""Pad."""
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.pad import pad as pad_array


@register("Pad", family="shape", dtypes=ALL)
def pad(x, paddings):
    """Zero padding given per axis (what nn.Pad with mode CONSTANT exports).

    y has shape[i] + paddings[i][0] + paddings[i][1] on axis i, with x in
    the middle and zeros around.

    Arguments (classic PRIMITIVE): x; paddings (attribute, one (before,
    after) pair of non-negative ints per axis, first axis first). All dtypes.
    """
    return pad_array(x, _widths(x, paddings))


def _widths(x, paddings) -> list[tuple[int, int]]:
    if len(paddings) != x.ndim:
        raise ValueError(f"Pad: {len(paddings)} (before, after) pairs for "
                         f"rank {x.ndim}")
    return [tuple(int(v) for v in pair) for pair in paddings]


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import shape as _fast_shape  # noqa: E402


@register_kernel("Pad", "numba")
def pad_numba(x, paddings):
    """Zero padding as a gather (_fast_shape.pad)."""
    return _fast_shape.pad(x, _widths(x, paddings))
