"""MatMul."""
from refinfer import args
from refinfer.registry import register

from ._kernels import gemm
from ._ref.common import NUMBERS, matmul, require_tensors


@register("MatMul", family="nn", dtypes=NUMBERS,
          convert={"transpose_a": args.boolean, "transpose_b": args.boolean},
          kernels={"numba": gemm.mat_mul})
def mat_mul(input, mat2, transpose_a=False, transpose_b=False):
    """Matrix product of two 2-D tensors, optionally transposed first.

    y = op(input) @ op(mat2), op transposing when transpose_a / transpose_b
    is set.

    Arguments: input (M, K) or (K, M); mat2 (K, N) or (N, K);
    transpose_a=False, transpose_b=False (nn.Dense exports
    MatMul(x, W, False, True)). MindSpore accepts 2-D operands of one dtype
    only. float16 accumulates in float32.
    """
    require_tensors("MatMul", input=input, mat2=mat2)
    if input.ndim != 2 or mat2.ndim != 2:
        raise ValueError(f"MatMul: operands must be 2-D, got {input.shape} "
                         f"and {mat2.shape}")
    return matmul(input.T if transpose_a else input,
                  mat2.T if transpose_b else mat2)
