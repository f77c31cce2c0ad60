"""Dropout and DropoutExt."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS


@register("Dropout", family="nn", dtypes=FLOATS, no_kernel="copy")
def dropout(x, keep_prob=0.5, Seed0=0, Seed1=0):
    """Dropout as inference sees it: y = x, mask = ones; returns (y, mask).

    An exported eval-mode network drops nn.Dropout altogether; a Dropout
    primitive that stays in the graph (ops.Dropout) still drops at random
    in MindSpore (scaling kept values by 1 / keep_prob), which no
    reference can reproduce: here it is the identity, as for keep_prob=1.
    Arguments: x; keep_prob=0.5, Seed0=0, Seed1=0. mask has x's shape and
    dtype. Fast path: this reference (y is x itself, the mask one fill).
    """
    return x, np.ones_like(x)


@register("DropoutExt", family="nn", dtypes=FLOATS, no_kernel="copy")
def dropout_ext(input, p, seed, offset):
    """mint dropout as inference sees it: y = input; returns (y, mask).

    The identity (as for p=0); mask is the keep mask packed as bits
    (uint8, all kept), one bit per element. Arguments: input; p; seed;
    offset (the random state, unused here). Fast path: this reference (y
    is the input itself, the mask one fill).
    """
    return input, np.full(-(-input.size // 8), 255, dtype=np.uint8)
