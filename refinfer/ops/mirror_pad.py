"""MirrorPad."""
from refinfer.registry import register

from ._kernels import shape
from ._ref.common import ALL
from ._ref.pad import mirror_pairs, pad, padding_mode


@register("MirrorPad", family="shape", dtypes=ALL,
          convert={"mode": padding_mode}, kernels={"numba": shape.mirror_pad})
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
    return pad(x, mirror_pairs(x, paddings, mode), mode)
