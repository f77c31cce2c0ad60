"""MirrorPad."""
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.pad import pad


@register("MirrorPad", family="shape", dtypes=ALL,
          convert={"mode": str.lower})
def mirror_pad(x, paddings, mode="reflect"):
    """Mirror padding per axis (nn.Pad and nn.ReflectionPad exports).

    REFLECT mirrors about the edge element ([1, 2, 3] padded by 2 on each
    side: [3, 2, 1, 2, 3, 2, 1]); SYMMETRIC repeats it ([2, 1, 1, 2, 3,
    3, 2]).

    Arguments (classic PRIMITIVE): x; paddings (int tensor of shape
    (rank, 2): (before, after) per axis, first axis first; REFLECT needs
    them < the axis length, SYMMETRIC <= it); mode attribute "REFLECT" or
    "SYMMETRIC". All dtypes.
    """
    return pad(x, _widths(x, paddings, mode), mode)


def _widths(x, paddings, mode) -> list[tuple[int, int]]:
    if mode not in ("reflect", "symmetric"):
        raise ValueError(f"MirrorPad: unknown mode {mode!r}")
    widths = [(int(b), int(a)) for b, a in paddings.reshape(-1, 2)]
    if len(widths) != x.ndim:
        raise ValueError(f"MirrorPad: paddings {paddings.shape} for rank "
                         f"{x.ndim}")
    return widths


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import shape as _fast_shape  # noqa: E402


@register_kernel("MirrorPad", "numba")
def mirror_pad_numba(x, paddings, mode="reflect"):
    """Mirror padding as a gather (_fast_shape.pad)."""
    return _fast_shape.pad(x, _widths(x, paddings, mode), mode)
