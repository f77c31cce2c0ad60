"""Shape-category primitives of the census (issue 14): the view forms mint
exports, identities, constant fills of dynamic shapes, diagonal fills, sorted
bounds, bit counts, Complex, Mvlgamma and Rint.

The view primitives run on CPU in PyNative mode only, so their cases carry a
NumPy ``reference``.
"""
import numpy as np

from op_cases import OpCase, fixed, t

G = "ops.auto_generate"


def _split_at(sizes, axis):
    """Reference: np.split at the running sums of ``sizes``."""
    return lambda x: list(np.split(x, np.cumsum(sizes)[:-1], axis=axis))


CASES = [
    # the view forms: the same values as their copying ops
    OpCase("chunk_view", "ChunkView", f"{G}.ChunkView()(x, 3, 1)", [t((2, 5))],
           reference=_split_at([2, 2, 1], 1)),
    OpCase("expand_dims_view", "ExpandDimsView", f"{G}.ExpandDimsView()(x, -1)",
           [t((2, 3), "int32")], reference=lambda x: [x[..., None]]),
    OpCase("split_tensor_view", "SplitTensorView", f"{G}.SplitTensorView()(x, 2, 0)",
           [t((5, 2))], reference=_split_at([2, 2, 1], 0)),
    OpCase("split_with_size_view", "SplitWithSizeView",
           f"{G}.SplitWithSizeView()(x, (1, 3), 1)", [t((2, 4))],
           reference=_split_at([1, 3], 1)),
    OpCase("unstack_ext_view", "UnstackExtView", f"{G}.UnstackExtView()(x, 1)",
           [t((2, 3))]),
    # identities
    OpCase("contiguous", "Contiguous", "x.contiguous() * 2", [t((2, 3))]),
    OpCase("copy", "Copy", f"{G}.Copy()(x)", [t((2, 3), "int32")],
           reference=lambda x: [x]),
    OpCase("convert_to_dynamic", "ConvertToDynamic", "ops.operations._inner_ops.ConvertToDynamic()(x) * 2",
           [t((2, 3))]),
    OpCase("check_numerics", "CheckNumerics", "P.CheckNumerics()(x)", [t((2, 3))]),
    # constant fills (graph mode folds static-shape ones into constants)
    OpCase("ones_dynamic", "Ones", "P.Ones()(x.shape, ms.float32) + x", [t((2, 3))],
           dynamic=True),
    OpCase("zeros_dynamic", "Zeros", "P.Zeros()(x.shape, ms.int32) + x",
           [t((3, 2), "int32")], dynamic=True),
    OpCase("new_empty", "NewEmpty", "x.new_empty((2, 3)) * 0", [t((3,))]),
    OpCase("fill_diagonal", "FillDiagonal", "P.FillDiagonal(9.0)(x)", [t((5, 3))]),
    OpCase("fill_diagonal_wrap", "FillDiagonal", "P.FillDiagonal(-2.0, True)(x)",
           [t((7, 3), "int32")]),
    OpCase("conjugate_transpose", "ConjugateTranspose",
           "P.ConjugateTranspose()(x, (1, 2, 0))", [t((2, 3, 4))]),
    # bounds, bits, complex, special functions
    OpCase("lower_bound", "LowerBound", "P.LowerBound()(ops.sort(x)[0], y)",
           [t((3, 5), "int32", -5, 5), t((3, 4), "int32", -6, 6)]),
    OpCase("upper_bound", "UpperBound", "P.UpperBound(ms.int64)(ops.sort(x)[0], y)",
           [t((3, 5), "int32", -5, 5), t((3, 4), "int32", -6, 6)]),
    OpCase("population_count", "PopulationCount", "ops.population_count(x)",
           [t((3, 4), "int16", -32768, 32767)]),
    # (Lite has no complex outputs: its real and imaginary parts come back)
    OpCase("complex", "Complex", "ops.real(P.Complex()(x, y)), ops.imag(P.Complex()(y, x))",
           [t((2, 3)), t((2, 3))]),
    OpCase("mvlgamma", "Mvlgamma", "P.Mvlgamma(3)(x)", [t((2, 3), low=1.1, high=6.0)]),
    OpCase("rint", "Rint", "P.Rint()(x)",
           [fixed([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.49, -3.7, np.inf, np.nan])]),
]
