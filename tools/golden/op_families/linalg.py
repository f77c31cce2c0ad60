"""Vector algebra, norms and small matrix algebra: cross and outer products,
pairwise distances, p-norms, traces, inverses, determinants."""
import numpy as np

from op_cases import OpCase, fixed, t

CASES = [
    OpCase("cross", "Cross", "ops.cross(x, y, 1)", [t((2, 3, 4)), t((2, 3, 4))]),
    OpCase("cross_default_dim", "Cross", "ops.cross(x, y)", [t((2, 4, 3), "int32"),
                                                            t((2, 4, 3), "int32")]),
    OpCase("cdist", "Cdist", "ops.cdist(x, y, 2.0)", [t((2, 3, 4)), t((2, 5, 4))]),
    OpCase("cdist_p1", "Cdist", "ops.cdist(x, y, 1.0)", [t((3, 4)), t((2, 4))]),
    OpCase("cdist_p3", "Cdist", "ops.cdist(x, y, 3.0)", [t((3, 2)), t((4, 2))]),
    OpCase("cdist_p0", "Cdist", "ops.cdist(x, y, 0.0)",
           [fixed([[1.0, 2.0], [0.0, 2.0]]), fixed([[1.0, 2.0], [1.0, 5.0]])]),
    OpCase("lp_norm", "LpNorm", "P.LpNorm((1,), 2, False, 1e-12)(x)", [t((2, 3, 4))]),
    OpCase("lp_norm_p1_keep", "LpNorm", "P.LpNorm((0, 2), 1, True)(x)", [t((2, 3, 4))]),
    OpCase("trace", "Trace", "ops.trace(x)", [t((3, 4))]),
    OpCase("trace_int", "Trace", "ops.trace(x)", [t((4, 3), "int32")]),
    OpCase("matrix_inverse", "MatrixInverse", "ops.inverse(x)",
           [lambda rng: (rng.uniform(-1, 1, (2, 3, 3)) + 3 * np.eye(3))
            .astype("float32")]),
    OpCase("matrix_determinant", "MatrixDeterminant", "ops.det(x)", [t((2, 3, 3))]),
    OpCase("log_matrix_determinant", "LogMatrixDeterminant", "ops.slogdet(x)",
           [t((2, 3, 3))]),
    OpCase("ger", "Ger", "ops.ger(x, y)", [t((3,)), t((4,))]),
    OpCase("lp_norm_p3_f16", "LpNorm", "P.LpNorm((-1,), 3)(x)", [t((3, 4), "float16")]),
]
