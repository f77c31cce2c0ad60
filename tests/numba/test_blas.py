"""refinfer/ops/_kernels/blas.py: which BLAS runs the fast kernels'
products, and that a product handed to MKL's cblas_sgemm is read and written
in place as np.matmul would (transposed views, column blocks, strided
rows). Without MKL the CBLAS call is played by a stand-in that reads the
same pointers and leading dimensions; with the ``mkl`` extra installed, the
golden models run on MKL and match MindSpore. Kernels that call BLAS from
Numba (``blas.gemm``) get NumPy's products on random shapes, transposes,
dtypes and strided rows."""
import ctypes
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from refinfer.ops._kernels import blas

AVX512 = frozenset({"avx2", "avx512f"})
AVX2 = frozenset({"avx2", "fma"})


@pytest.mark.parametrize("setting, flags, vendor, installed, expected", [
    ("auto", AVX512, "GenuineIntel", True, True),
    ("auto", AVX512, "GenuineIntel", False, False),   # the extra is missing
    ("auto", AVX2, "GenuineIntel", True, False),      # measured on AVX-512 only
    ("auto", AVX512, "AuthenticAMD", True, False),    # slower there (measured)
    ("mkl", AVX2, "AuthenticAMD", True, True),
    ("mkl", AVX2, "AuthenticAMD", False, False),
    ("numpy", AVX512, "GenuineIntel", True, False),
])
def test_the_choice_follows_the_setting_the_cpu_and_the_extra(
        setting, flags, vendor, installed, expected):
    assert blas.choose(setting, flags, vendor, installed) is expected


def test_an_unknown_setting_is_refused_by_name():
    with pytest.raises(ValueError, match=r"REFINFER_BLAS='openblas': expected "
                                         r"one of auto, mkl, numpy"):
        blas.choose("openblas", AVX512, "GenuineIntel", True)


def _matrix(address: int, rows: int, cols: int, lead: int) -> np.ndarray:
    """The row-major float32 matrix CBLAS reads at ``address``."""
    flat = np.ctypeslib.as_array((ctypes.c_float * ((rows - 1) * lead + cols))
                                 .from_address(address))
    return np.lib.stride_tricks.as_strided(flat, (rows, cols), (lead * 4, 4))


class _StandIn:
    """cblas_sgemm played with NumPy on the same memory: row-major only."""

    def __init__(self):
        self.calls = 0

    def __call__(self, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b,
                 ldb, beta, c, ldc):
        assert layout == 101 and alpha == 1.0 and beta == 0.0
        self.calls += 1
        left = _matrix(a, k, m, lda).T if trans_a == 112 else _matrix(a, m, k, lda)
        right = _matrix(b, n, k, ldb).T if trans_b == 112 else _matrix(b, k, n, ldb)
        _matrix(c, m, n, ldc)[...] = left.astype(np.float64) @ right


@pytest.fixture
def stand_in(monkeypatch):
    fake = _StandIn()
    monkeypatch.setattr(blas, "_mkl_sgemm", lambda: fake)
    return fake


def _operands():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((37, 24)).astype(np.float32)
    w = rng.standard_normal((24, 150)).astype(np.float32)
    v = rng.standard_normal((24, 16, 9)).astype(np.float32)
    return x, w, v


def test_products_in_place_go_to_cblas_with_their_leading_dimensions(stand_in):
    x, w, v = _operands()
    wide = np.zeros((37, 150), np.float32)
    cases = [
        (x, w, np.empty((37, 150), np.float32)),        # contiguous
        (x, w[:, 64:128], wide[:, 64:128]),             # column blocks
        (np.ascontiguousarray(x.T).T, w, np.empty((37, 150), np.float32)),
        (x, np.ascontiguousarray(w.T).T, np.empty((37, 150), np.float32)),
        (w.T, x.T, np.empty((150, 37), np.float32)),     # both transposed
        (x[:, :24], v[:, 3], np.empty((37, 9), np.float32)),   # strided rows
    ]
    for a, b, out in cases:
        got = blas.matmul(a, b, out)
        assert got is out
        np.testing.assert_allclose(out, a.astype(np.float64) @ b, rtol=1e-5,
                                   atol=1e-5)
    assert stand_in.calls == len(cases)
    assert not wide[:, :64].any() and not wide[:, 128:].any()


def test_what_cblas_cannot_read_in_place_stays_numpy(stand_in):
    x, w, _ = _operands()
    square = x[:24, :24].copy()
    want = square @ square
    np.testing.assert_allclose(blas.matmul(square, square, square), want,
                               rtol=1e-5, atol=1e-5)    # out is an operand
    for a, b, out in [
        (x.astype(np.float64), w.astype(np.float64), np.empty((37, 150))),
        (x[::2, ::2], w[::2], np.empty((19, 150), np.float32)),   # no unit step
        (x[:1], w, np.empty((1, 150), np.float32)),               # a row
        (x[None], w, np.empty((1, 37, 150), np.float32)),         # a stack
        (x, w, np.empty((150, 37), np.float32).T),                # out by columns
    ]:
        np.testing.assert_allclose(blas.matmul(a, b, out), np.matmul(a, b),
                                   rtol=1e-5, atol=1e-5)
    assert stand_in.calls == 0


@pytest.mark.slow
@pytest.mark.skipif(blas._mkl_library() is None,
                    reason="the mkl extra is not installed")
def test_golden_models_match_on_mkl():
    """The CNNs' convolutions, the transformer's and the LSTM's products on
    MKL (forced on any CPU), against the MindSpore goldens."""
    script = """
import json, sys
import numpy as np
from refinfer.ops._kernels import blas
from refinfer.runtime import LoadedModel
sys.path.insert(0, "tests")
from golden_cases import golden_case
assert blas._mkl_sgemm() is not None
worst = {}
for name in ("resnet50_narrow", "bert_tiny", "lstm_classifier", "mobilenetv2"):
    case = golden_case(name)
    got = LoadedModel(case.model_path, "numba").run(case.inputs())
    tol = case.tolerance
    for out, want in zip(got, case.outputs()):
        np.testing.assert_allclose(out, want, rtol=tol["rtol"], atol=tol["atol"])
    worst[name] = max(float(np.abs(o - w).max()) for o, w in zip(got, case.outputs()))
print(json.dumps(worst))
"""
    root = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))
    done = subprocess.run([sys.executable, "-c", script], cwd=root, text=True,
                          capture_output=True, timeout=900,
                          env={**os.environ, "REFINFER_BLAS": "mkl"})
    assert done.returncode == 0, done.stderr[-3000:]
    assert set(json.loads(done.stdout.strip().splitlines()[-1])) == {
        "resnet50_narrow", "bert_tiny", "lstm_classifier", "mobilenetv2"}


def test_the_vendor_is_read_from_cpuinfo(tmp_path):
    from refinfer.cpu import cpu_field
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu\n"
                    "processor\t: 1\nvendor_id\t: Other\n")
    assert cpu_field("vendor_id", str(info)) == "GenuineIntel"
    assert cpu_field("vendor_id", str(tmp_path / "missing")) == ""


needs_native_gemm = pytest.mark.skipif(
    not blas.native_gemm(), reason="NumPy's BLAS has no 64-bit-index CBLAS")


@needs_native_gemm
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("seed", range(6))
def test_a_product_inside_a_kernel_is_numpys(dtype, seed):
    """op(a) @ op(b) into out, with a, b and out views whose rows are
    padded (leading dimensions above their widths), on random shapes down
    to one row or one column."""
    rng = np.random.default_rng(seed)
    m, n, k = rng.integers(1, 40, 3)
    for trans_a in (False, True):
        for trans_b in (False, True):
            a = _padded(rng, (k, m) if trans_a else (m, k), dtype)
            b = _padded(rng, (n, k) if trans_b else (k, n), dtype)
            out = _padded(rng, (m, n), dtype)
            blas.gemm(trans_a, a, trans_b, b, out)
            want = (a.T if trans_a else a).astype(np.float64) \
                @ (b.T if trans_b else b).astype(np.float64)
            tolerance = 1e-5 if dtype == np.float32 else 1e-12
            np.testing.assert_allclose(out, want, rtol=tolerance,
                                       atol=tolerance * k)


@needs_native_gemm
def test_a_product_inside_a_kernel_of_nothing():
    """An empty inner dimension gives zeros (whatever out held); an empty
    output is left alone."""
    out = np.full((3, 2), np.nan, np.float32)
    blas.gemm(False, np.ones((3, 0), np.float32), False,
              np.ones((0, 2), np.float32), out)
    np.testing.assert_array_equal(out, np.zeros((3, 2)))
    blas.gemm(False, np.ones((0, 4), np.float32), False,
              np.ones((4, 2), np.float32), np.empty((0, 2), np.float32))


@needs_native_gemm
def test_a_product_inside_a_kernel_refuses_what_blas_would_misread():
    a, b = np.ones((3, 4), np.float32), np.ones((4, 2), np.float32)
    with pytest.raises(ValueError, match="shapes do not agree"):
        blas.gemm(False, a, False, b, np.empty((3, 3), np.float32))
    with pytest.raises(ValueError, match="shapes do not agree"):
        blas.gemm(True, a, False, b, np.empty((3, 2), np.float32))
    with pytest.raises(ValueError, match="rows are not contiguous"):
        blas.gemm(False, np.ones((3, 8), np.float32)[:, ::2], False, b,
                  np.empty((3, 2), np.float32))


@needs_native_gemm
def test_a_fresh_process_finds_the_products_before_its_first_block():
    """A kernel calling BLAS needs its symbols registered before it is
    compiled or loaded from the cache (else LLVM aborts the process): a
    block run straight away, with no plan made first, registers them."""
    script = """
import numpy as np
from refinfer.ops._kernels.separable import InvertedResidual, inverted_residual
weights = [np.ones(s, np.float32) for s in ((8, 4, 1, 1), (8, 1, 3, 3), (4, 8, 1, 1))]
block = InvertedResidual(*weights, (None,) * 3, (0,) * 3, ("SAME", (0,) * 4, (1, 1)))
print(inverted_residual(np.ones((1, 4, 5, 5), np.float32), None, block)[0, 0, 2, 2])
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert float(done.stdout.split()[-1]) == 4 * 9 * 8


def _padded(rng, shape, dtype):
    """A random matrix of ``shape`` inside a wider one (rows spaced by
    more than their length)."""
    wide = rng.standard_normal((shape[0], shape[1] + 3)).astype(dtype)
    return wide[:, 1:shape[1] + 1]
