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


def well_conditioned(shape, dtype="float32"):
    """Square matrices with a dominant diagonal (stable solves and powers)."""
    return lambda rng: (rng.uniform(-1, 1, shape) + 3 * np.eye(shape[-1])).astype(dtype)


def cholesky_factor(n, dtype="float32", upper=False):
    """A Cholesky factor with a positive diagonal; the other triangle holds
    noise that the ops must ignore."""
    def make(rng):
        factor = rng.uniform(-1, 1, (n, n)) + 2 * np.eye(n)
        kept = np.triu(factor) if upper else np.tril(factor)
        return (kept + 7 * (np.tril(factor, -1) if upper else np.triu(factor, 1))
                ).astype(dtype)
    return make


CASES += [
    OpCase("baddbmm", "Baddbmm", "ops.auto_generate.Baddbmm()(x, y, z, 0.5, 2.0)",
           [t((2, 3, 4)), t((2, 3, 5)), t((2, 5, 4))],
           "Baddbmm as a primitive (ops.baddbmm exports Mul, BatchMatMul, Add); "
           "MindSpore 2.7.1 exports it but fails to run it, so the outputs are a "
           "float64 NumPy reference",
           reference=lambda i, a, b: [(0.5 * i.astype(np.float64) + 2.0 * (a.astype(
               np.float64) @ b)).astype(i.dtype)]),
    OpCase("diagonal", "Diagonal", "ops.auto_generate.Diagonal(1, 0, 2)(x)",
           [t((3, 2, 4))]),
    OpCase("diagonal_view", "DiagonalView",
           "ops.auto_generate.DiagonalView(-1, 2, 1)(x)", [t((2, 4, 3))],
           "DiagonalView (MindSpore 2.7.1 has no graph-mode CPU kernel for it: outputs "
           "from np.diagonal, exact)",
           reference=lambda x: [np.diagonal(x, -1, 2, 1).copy()]),
    OpCase("trace_v2", "TraceV2", "ops.auto_generate.TraceV2()(x, 1, 1, 2, None)",
           [t((2, 3, 4))]),
    OpCase("trace_v2_int8", "TraceV2", "ops.auto_generate.TraceV2()(x, 0, 0, 1, None)",
           [t((3, 3, 2), "int8")]),
    OpCase("tril_triu_indices", ("TrilIndices", "TriuIndices"),
           "P.TrilIndices(3, 4, 1)() + x, P.TriuIndices(4, 3, -1, ms.int64)()",
           [t((2, 9), "int32", 0, 0)]),
    OpCase("matrix_power", "MatrixPower", "P.MatrixPower(3)(x)",
           [well_conditioned((2, 3, 3))]),
    OpCase("matrix_power_negative", "MatrixPower", "P.MatrixPower(-2)(x)",
           [well_conditioned((3, 3))]),
    OpCase("matrix_solve_adjoint", "MatrixSolve", "P.MatrixSolve(True)(x, y)",
           [well_conditioned((2, 3, 3)), t((2, 3, 2))]),
    OpCase("matrix_triangular_solve", "MatrixTriangularSolve",
           "P.MatrixTriangularSolve(lower=False, adjoint=True)(x, y)",
           [well_conditioned((2, 3, 3)), t((2, 3, 2))]),
    OpCase("solve_triangular", "SolveTriangular",
           "ops.auto_generate.SolveTriangular()(x, y, 1, True, True)",
           [well_conditioned((2, 3, 3)), t((2, 3, 2))]),
    OpCase("solve_triangular_vector", "SolveTriangular",
           "ops.auto_generate.SolveTriangular()(x, y, 0, False, False)",
           [well_conditioned((4, 4), "float64"), t((4,), "float64")]),
    OpCase("cholesky_inverse", "CholeskyInverse",
           "ops.auto_generate.CholeskyInverse(False)(x)", [cholesky_factor(3)],
           "CholeskyInverse: MindSpore's CPU kernel reads the whole factor, noise in its "
           "upper triangle included"),
    OpCase("cholesky_inverse_upper", "CholeskyInverse",
           "ops.auto_generate.CholeskyInverse(True)(x)",
           [cholesky_factor(4, upper=True)]),
    OpCase("cholesky_solve", "CholeskySolve", "P.CholeskySolve(False)(x, y)",
           [t((3, 2)), cholesky_factor(3)]),
    OpCase("pdist", "Pdist", "P.Pdist(2.0)(x)", [t((4, 3))]),
    OpCase("pdist_p1", "Pdist", "P.Pdist(1.0)(x)", [t((5, 2))]),
    OpCase("lstsq", "Lstsq", "P.Lstsq(True, 0.0)(x, y)", [t((6, 3)), t((6, 2))]),
]


def magnitudes(expr, count):
    """The outputs of a decomposition with each vector output as its absolute
    values: singular and eigenvectors are unique up to sign only, and
    MindSpore's CPU kernels (Eigen) pick other signs than LAPACK's."""
    return ", ".join(f"{expr}[{k}]" if k == 0 else f"ops.abs({expr}[{k}])"
                     for k in range(count))


EIGH = "ops.operations.linalg_ops.Eigh"       # not in ops.operations' namespace
SELF_ADJOINT_EIG = "ops.operations.math_ops.SelfAdjointEig"

CASES += [
    OpCase("eigh_upper", "Eigh", magnitudes(f"{EIGH}(True, False)(x)", 2), [t((4, 4))],
           "Eigh from the upper triangle of a non-symmetric x; eigenvectors as |v| "
           "(unique up to sign)"),
    OpCase("eigh_values_f64", "Eigh", f"{EIGH}(False, True)(x)",
           [t((3, 3), "float64")], "Eigh eigenvalues only, from the lower triangle"),
    OpCase("self_adjoint_eig", "SelfAdjointEig",
           magnitudes(f"{SELF_ADJOINT_EIG}(True)(x)", 2), [t((2, 3, 3))],
           "SelfAdjointEig from the lower triangle of non-symmetric matrices; "
           "eigenvectors as |v|"),
    OpCase("svd", "Svd", magnitudes("ops.auto_generate.Svd(False, True)(x)", 3),
           [t((2, 4, 3))], "Svd; singular vectors as |u|, |v| (unique up to sign)"),
    OpCase("svd_full", "Svd", magnitudes("ops.auto_generate.Svd(True, True)(x)", 3),
           [t((2, 3), "float64")], "Svd full_matrices; singular vectors as |u|, |v|"),
    OpCase("qr", "Qr", "ops.auto_generate.Qr(False)(x)", [t((2, 4, 3))]),
    OpCase("qr_full", "Qr", "ops.auto_generate.Qr(True)(x)", [t((3, 2), "float64")]),
    OpCase("geqrf", "Geqrf", "ops.auto_generate.Geqrf()(x)", [t((2, 4, 3))]),
    OpCase("eig", ("Eig", "Real", "Imag", "Sort"),
           "ops.sort(ops.real(ops.auto_generate.Eig(True)(x)[0]))[0], "
           "ops.sort(ops.imag(ops.auto_generate.Eig(True)(x)[0]))[0]", [t((4, 4))],
           "Eig's eigenvalues, their real and imaginary parts each sorted: MindSpore "
           "(Eigen) and LAPACK order eigenvalues differently"),
    OpCase("matrix_logarithm", ("MatrixLogarithm", "Polar", "Real", "Imag"),
           "ops.real(P.MatrixLogarithm()(ops.polar(x, y))), "
           "ops.imag(P.MatrixLogarithm()(ops.polar(x, y)))",
           [lambda rng: (rng.uniform(0.1, 0.5, (2, 3, 3)) + 2 * np.eye(3))
            .astype("float32"), t((2, 3, 3), "float32", -0.3, 0.3)],
           "MatrixLogarithm of complex matrices near 2 I, made in the graph by "
           "ops.polar"),
]
