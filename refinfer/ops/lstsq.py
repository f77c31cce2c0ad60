"""Lstsq."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, compute_dtype
from ._ref.linalg import solve


@register("Lstsq", family="linalg", dtypes=FLOATS, no_kernel="native",
          convert={"fast": args.boolean, "l2_regularizer": args.scalar})
def lstsq(matrix, rhs, fast=True, l2_regularizer=0.0):
    """The (ridge-regularised) least-squares solution of matrix @ y = rhs.

    y = (A^T A + l2_regularizer I)^-1 A^T rhs, the normal equations
    MindSpore's fast path solves (it requires fast=True). Arguments
    (classic PRIMITIVE): matrix (M, N), rhs (M, K) or (M,); fast=True,
    l2_regularizer=0.0 (attributes). A^T A + l2 I must be invertible
    (full column rank). Output: (N, K) or (N,), matrix's dtype (float16
    computed in float32).
    """
    if not fast:
        raise ValueError("Lstsq: fast must be True (MindSpore's only mode)")
    if matrix.ndim != 2 or rhs.ndim not in (1, 2) or rhs.shape[0] != matrix.shape[0]:
        raise ValueError(f"Lstsq: matrix must be (M, N) and rhs (M, K) or (M,), got "
                         f"{list(matrix.shape)} and {list(rhs.shape)}")
    a = matrix.astype(compute_dtype(matrix.dtype))
    b = rhs.astype(a.dtype).reshape(rhs.shape[0], -1)
    gram = a.T @ a + l2_regularizer * np.eye(a.shape[1], dtype=a.dtype)
    y = solve("Lstsq", gram, a.T @ b)
    return y.reshape((a.shape[1],) + rhs.shape[1:]).astype(matrix.dtype)
