"""DCTN and IDCTN: the orthonormal discrete cosine transform over several axes.

Arguments, norm and result dtypes: ``ops/_ref/dct.py``.
"""
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.dct import CONVERT, cosine_transform_n


@register("DCTN", family="fft", dtypes=NUMBERS, convert=CONVERT, no_kernel="native")
def dctn(x, type=2, s=None, axes=None, norm=None):
    """The orthonormal DCT-II over several axes (mindspore.scipy.fft.dctn).

    DCT along each of axes in turn. Arguments: x; type=2; s=None (lengths
    per axis); axes=None (the last len(s) axes, or every axis); norm=None
    ("ortho"). Result: float32 (float64, complex for those inputs).
    """
    return cosine_transform_n("DCTN", x, type, s, axes, inverse=False)


@register("IDCTN", family="fft", dtypes=NUMBERS, convert=CONVERT, no_kernel="native")
def idctn(x, type=2, s=None, axes=None, norm=None):
    """The inverse of DCTN: the orthonormal DCT-III over several axes.

    Arguments as DCTN.
    """
    return cosine_transform_n("IDCTN", x, type, s, axes, inverse=True)
