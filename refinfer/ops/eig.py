"""Eig."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import square_matrices


@register("Eig", family="linalg", dtypes=("float32", "float64"), no_kernel="native",
          convert={"compute_v": args.boolean})
def eig(x, compute_v=False):
    """The eigenvalues and eigenvectors of general square matrices (complex).

    x v[:, k] = w[k] v[:, k] per matrix of the last two axes, each v[:, k]
    of unit length. Returns (w, v), complex64 (complex128 for float64 x);
    with compute_v=False v is a 0-d zero, as MindSpore's shape. The order
    of the eigenvalues and each vector's phase follow LAPACK (geev):
    MindSpore's CPU kernel (Eigen) orders them its own way, differently
    even between float32 and float64, so only order-free quantities
    compare. Arguments: x (..., n, n); compute_v=False.
    """
    square_matrices("Eig", "x", x)
    out = np.complex128 if x.dtype == np.float64 else np.complex64
    w, v = np.linalg.eig(x.astype(np.float64))
    return w.astype(out), v.astype(out) if compute_v else np.zeros((), out)
