"""Einsum."""
import numpy as np

from refinfer.errors import describe_value
from refinfer.registry import register

from ._ref.common import NUMBERS, compute_dtype


@register("Einsum", family="shape", dtypes=NUMBERS, no_kernel="native",
          sequences=("inputs", "equation"))
def einsum(inputs, equation):
    """Einstein summation over a tuple of tensors (np.einsum semantics).

    Arguments (classic PRIMITIVE): inputs (tuple of tensors); equation
    (attribute, e.g. "ij,jk->ik"; "..." broadcasting allowed; without
    "->" the output takes the letters used once, sorted). Output dtype:
    the operands' common dtype; float16 accumulates in float32. Products
    are contracted pairwise in the cheapest order, on BLAS.
    MindSpore 2.7.1 cannot run ops.Einsum on CPU; mint.einsum exports
    ExpandDims / TransposeView / Reshape / BatchMatMulExt instead.
    """
    if not isinstance(equation, str):
        raise TypeError(f"Einsum: equation must be a string, got "
                        f"{describe_value(equation)}")
    dtype = np.result_type(*inputs)
    work = compute_dtype(dtype)
    # optimize: contractions go pairwise through BLAS (np.tensordot)
    out = np.einsum(equation, *[x.astype(work, copy=False) for x in inputs],
                    optimize=True)
    return np.asarray(out).astype(dtype, copy=False)
