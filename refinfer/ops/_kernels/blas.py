"""The fast kernels' matrix products: NumPy's BLAS, or Intel MKL where it is
the faster one.

Single-thread sgemm on the benchmark models' product shapes (GFLOP/s;
numpy's bundled OpenBLAS 0.3.31, MKL 2026.2, ONNX Runtime's MLAS for
reference; the Xeon's from issue 15, the AMD's from tools/bench_gemm.py):

| machine | OpenBLAS | MKL | MLAS |
|---|---|---|---|
| Intel Xeon (AVX-512, AMX) | 114-155 | 147-189 | 167-196 |
| AMD EPYC (AVX2) | 56-86 | 52-81 | 44-86 |

So, by default (``REFINFER_BLAS=auto``), the products go to MKL on Intel
CPUs with AVX-512 when the optional ``mkl`` extra is installed (``pip install
'refinfer[mkl]'``), and to NumPy's BLAS everywhere else. ``REFINFER_BLAS=mkl``
asks for MKL on any CPU, ``REFINFER_BLAS=numpy`` never uses it; the variable
is read at the first product (or the first plan whose kernels call BLAS).
MKL runs sequential: refinfer's worker pool splits the products
(refinfer/threads.py), and a second pool of threads would fight it for the
cores. Only float32 matrices whose rows or columns are contiguous go to MKL
from Python (every product the kernels split is one); anything else, and
every product of the reference backend, is NumPy's. Kernels that call BLAS
themselves (:func:`gemm`) use MKL for float32 and float64 alike.
"""
from __future__ import annotations

import ctypes
import functools
import importlib.metadata
import os

import numpy as np

import llvmlite.binding
from numba import types

from refinfer.cpu import cpu_field, cpu_flags
from refinfer.jit import inlined
from refinfer.process import blas_libraries

CHOICES = ("auto", "mkl", "numpy")
_ROW_MAJOR, _NO_TRANS, _TRANS = 101, 111, 112     # CBLAS enums
_SEQUENTIAL = 1                                   # MKL_THREADING_SEQUENTIAL
_FLOAT = 4                                        # bytes


def matmul(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``np.matmul(a, b, out=out)``; 2-D float32 operands by MKL when it is
    chosen (see the module's docstring)."""
    sgemm = _mkl_sgemm()
    layouts = sgemm and _layouts(a, b, out)
    if not layouts:
        return np.matmul(a, b, out=out)
    (trans_a, lda), (trans_b, ldb), (_, ldc) = layouts
    sgemm(_ROW_MAJOR, trans_a, trans_b, out.shape[0], out.shape[1], a.shape[1],
          1.0, a.ctypes.data, lda, b.ctypes.data, ldb, 0.0, out.ctypes.data, ldc)
    return out


def _layouts(a, b, out) -> tuple | None:
    """(transpose flag, leading dimension) of each matrix as row-major CBLAS
    reads it in place; None when one is not a float32 matrix with contiguous
    rows or columns (``out``: rows), the product is degenerate, or ``out``
    may overlap an operand (CBLAS does not allow it; np.matmul copies)."""
    if any(m.dtype != np.float32 or m.ndim != 2 or min(m.shape) < 2
           for m in (a, b, out)):
        return None
    if np.may_share_memory(out, a) or np.may_share_memory(out, b):
        return None
    found = [_layout(m) for m in (a, b, out)]
    if None in found or found[2][0] != _NO_TRANS:
        return None
    return tuple(found)


def _layout(m: np.ndarray) -> tuple[int, int] | None:
    rows, cols = m.shape
    row_step, col_step = m.strides
    if col_step == _FLOAT and row_step % _FLOAT == 0 and row_step >= cols * _FLOAT:
        return _NO_TRANS, row_step // _FLOAT
    if row_step == _FLOAT and col_step % _FLOAT == 0 and col_step >= rows * _FLOAT:
        return _TRANS, col_step // _FLOAT
    return None


def choose(setting: str, flags: frozenset, vendor: str, installed: bool) -> bool:
    """Whether the products go to MKL: ``setting`` (REFINFER_BLAS), the
    CPU's flags and vendor, and whether the ``mkl`` extra is installed."""
    if setting not in CHOICES:
        raise ValueError(f"REFINFER_BLAS={setting!r}: expected one of "
                         f"{', '.join(CHOICES)}")
    if setting == "auto":
        return installed and vendor == "GenuineIntel" and "avx512f" in flags
    return installed and setting == "mkl"


@functools.cache
def _mkl_sgemm():
    """MKL's cblas_sgemm, sequential, when :func:`choose` picks it; else
    None."""
    library = _mkl_library()
    if not choose(os.environ.get("REFINFER_BLAS", "auto"), cpu_flags(),
                  cpu_field("vendor_id"), library is not None):
        return None
    mkl = ctypes.CDLL(library)
    mkl.MKL_Set_Threading_Layer(_SEQUENTIAL)   # before any other MKL call
    sgemm = mkl.cblas_sgemm
    sgemm.restype = None
    sgemm.argtypes = [ctypes.c_int] * 6 + [ctypes.c_float, ctypes.c_void_p,
                                           ctypes.c_int, ctypes.c_void_p,
                                           ctypes.c_int, ctypes.c_float,
                                           ctypes.c_void_p, ctypes.c_int]
    return sgemm


def _mkl_library() -> str | None:
    """The path of the ``mkl`` distribution's libmkl_rt, if installed."""
    try:
        files = importlib.metadata.files("mkl") or []
    except importlib.metadata.PackageNotFoundError:
        return None
    found = [f for f in files if f.name.startswith("libmkl_rt.so")]
    return str(found[0].locate()) if found else None


# -- products inside Numba kernels ---------------------------------------------------
# A kernel that runs a whole piece of work, its products and what lies between
# them, in one GIL-free call (two threads then hand the GIL over once per
# piece, not once per product: each hand-off wakes a sleeping thread, ~50 us
# on the project's VM) calls BLAS by symbol: a CBLAS sgemm / dgemm with 64-bit
# indices, MKL's where it is chosen (above), else that of the OpenBLAS NumPy
# loaded, registered with LLVM under names of ours before the first such
# kernel runs, so that cached kernels find them in every process.
_NATIVE_SYMBOLS = {"refinfer_sgemm": ("scipy_cblas_sgemm64_", "cblas_sgemm64_",
                                      "cblas_sgemm_64"),
                   "refinfer_dgemm": ("scipy_cblas_dgemm64_", "cblas_dgemm64_",
                                      "cblas_dgemm_64")}


@functools.cache
def native_gemm() -> bool:
    """Whether kernels can call :func:`gemm` (registers its BLAS if so).
    NumPy's wheels bring an OpenBLAS with 64-bit indices, MKL has them
    too; a BLAS without (a 32-bit-index build) leaves the callers on their
    products called from Python."""
    if _mkl_sgemm() is not None:
        libraries = [ctypes.CDLL(_mkl_library())]
    else:
        libraries = [library.dynlib for library in blas_libraries()]
    for library in libraries:
        found = {ours: next((getattr(library, name) for name in names
                             if hasattr(library, name)), None)
                 for ours, names in _NATIVE_SYMBOLS.items()}
        if None not in found.values():
            for ours, function in found.items():
                llvmlite.binding.add_symbol(
                    ours, ctypes.cast(function, ctypes.c_void_p).value)
            return True
    return False


_INT, _INDEX, _POINTER = types.int32, types.int64, types.uintp
_sgemm, _dgemm = (types.ExternalFunction(name, types.void(
    _INT, _INT, _INT, _INDEX, _INDEX, _INDEX, real, _POINTER, _INDEX, _POINTER,
    _INDEX, real, _POINTER, _INDEX)) for name, real in (
        ("refinfer_sgemm", types.float32), ("refinfer_dgemm", types.float64)))


@inlined
def gemm(trans_a, a, trans_b, b, out):
    """out = op(a) @ op(b), op(m) = m.T where trans_*, inside a kernel
    (only where :func:`native_gemm`). a, b and out: 2-D float32 or float64
    arrays of out's dtype, each row contiguous (unit step along the last
    axis), out apart from a and b."""
    m, n = out.shape
    k = a.shape[0] if trans_a else a.shape[1]
    size = out.itemsize
    # BLAS would read or write out of bounds where these do not hold
    if (a.shape[1] if trans_a else a.shape[0]) != m \
            or (b.shape[0] if trans_b else b.shape[1]) != n \
            or (b.shape[1] if trans_b else b.shape[0]) != k:
        raise ValueError("gemm: the operands' shapes do not agree")
    if not (_rows_contiguous(a, size) and _rows_contiguous(b, size)
            and _rows_contiguous(out, size)):
        raise ValueError("gemm: an operand's rows are not contiguous")
    if m == 0 or n == 0:
        return
    lda = max(a.strides[0] // size, a.shape[1], 1)
    ldb = max(b.strides[0] // size, b.shape[1], 1)
    ldc = max(out.strides[0] // size, n, 1)
    flag_a = _TRANS if trans_a else _NO_TRANS
    flag_b = _TRANS if trans_b else _NO_TRANS
    if size == 4:
        _sgemm(_ROW_MAJOR, flag_a, flag_b, m, n, k, np.float32(1), a.ctypes.data,
               lda, b.ctypes.data, ldb, np.float32(0), out.ctypes.data, ldc)
    else:
        _dgemm(_ROW_MAJOR, flag_a, flag_b, m, n, k, 1.0, a.ctypes.data, lda,
               b.ctypes.data, ldb, 0.0, out.ctypes.data, ldc)


@inlined
def _rows_contiguous(m, size):
    return m.shape[1] < 2 or m.size == 0 or m.strides[1] == size
