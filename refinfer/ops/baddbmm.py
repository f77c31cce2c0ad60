"""Baddbmm."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, as_result, compute_dtype, matmul


@register("Baddbmm", family="linalg", dtypes=FLOATS, no_kernel="native",
          convert={"beta": args.scalar, "alpha": args.scalar})
def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    """Batched matrix products added to a tensor (BLAS gemm per batch).

    y = beta * input + alpha * (batch1 @ batch2), batch1 (B, n, m), batch2
    (B, m, p), input broadcast to (B, n, p). Arguments: input, batch1,
    batch2, beta=1, alpha=1. Output: batch1's dtype; float16 products
    accumulate in float32.
    """
    if batch1.ndim != 3 or batch2.ndim != 3 or batch1.shape[0] != batch2.shape[0] \
            or batch1.shape[2] != batch2.shape[1]:
        raise ValueError(f"Baddbmm: batch1 and batch2 must be (B, n, m) and (B, m, p), "
                         f"got {list(batch1.shape)} and {list(batch2.shape)}")
    work = compute_dtype(batch1.dtype)
    product = matmul(batch1, batch2).astype(work)
    return as_result(beta * input.astype(work) + alpha * product, batch1.dtype)
