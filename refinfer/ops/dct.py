"""DCT and IDCT: the orthonormal discrete cosine transform along one axis.

Arguments, norm and result dtypes: ``ops/_ref/dct.py``.
"""
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.dct import CONVERT, cosine_transform


@register("DCT", family="fft", dtypes=NUMBERS, convert=CONVERT, no_kernel="native")
def dct(x, type=2, n=None, axis=-1, norm=None):
    """The orthonormal DCT-II along one axis (mindspore.scipy.fft.dct).

    X[k] = s_k sum_j x[j] cos(pi k (2j + 1) / (2n)), s_0 = sqrt(1/n), else
    sqrt(2/n). Arguments: x; type=2 (the only one); n=None (crop or pad);
    axis=-1; norm=None ("ortho", the only one). Result: float32 (float64,
    complex for those inputs).
    """
    return cosine_transform("DCT", x, type, (n,), (axis,), inverse=False)


@register("IDCT", family="fft", dtypes=NUMBERS, convert=CONVERT, no_kernel="native")
def idct(x, type=2, n=None, axis=-1, norm=None):
    """The inverse of DCT: the orthonormal DCT-III along one axis.

    x[j] = sum_k s_k X[k] cos(pi k (2j + 1) / (2n)). Arguments as DCT.
    """
    return cosine_transform("IDCT", x, type, (n,), (axis,), inverse=True)
