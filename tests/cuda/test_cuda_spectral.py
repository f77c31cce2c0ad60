"""The cuda kernels of refinfer/cuda/spectral.py (one direct DFT runner
along an axis, composed per axis) equal their NumPy references: every
transform in 1-D, 2-D and N-D with each norm, crops and zero pads, real,
complex, double and integer inputs; FFTWithSize's forms; the cosine
transforms; the shifts, frequency tables and HammingWindow; the declines."""
import numpy as np
import pytest

from cuda_check import check as check_reference
from cuda_check import run, values

from refinfer import registry
from refinfer.cuda import spectral  # noqa: F401  (declares the kernels)

ids = lambda d: np.dtype(d).name     # noqa: E731
NORMS = (None, "forward", "ortho")


def check(op, *args):
    """The kernel against the reference within the error of a float32
    (float64) transform of a few dozen points: the reference's pocketfft
    rounds in the result's precision, the kernel sums in float64 (so also
    an absolute bound where a bin's exact value is 0)."""
    expected = np.asarray(registry.get_op(op).reference(*args))
    single = expected.dtype in (np.float32, np.complex64)
    bound = 2e-5 if single else 1e-11
    check_reference(op, *args, tolerance={"rtol": bound, "atol": bound})


def complex_values(shape, dtype):
    """Random complex values of ``dtype``."""
    return (values(shape, np.float64) + 1j * values(shape, np.float64)).astype(dtype)


def signals(dtype):
    """A (3, 6) signal of ``dtype``: complex for the complex dtypes."""
    kind = np.dtype(dtype).kind
    return complex_values((3, 6), dtype) if kind == "c" else values((3, 6), dtype)


@pytest.mark.parametrize("dtype", (np.float32, np.complex64, np.float64,
                                   np.complex128, np.int32), ids=ids)
def test_complex_transforms(dtype):
    x = signals(dtype)
    for op in ("FFT", "IFFT", "HFFT", "IRFFT"):
        for norm in NORMS:
            check(op, x, None, -1, norm)
        check(op, x, 4, 0)                               # axis 0 (3) zero padded
        check(op, x, 4, 1, "ortho")                      # axis 1 (6) cropped
    for op in ("FFT2", "IFFT2", "FFTN", "IFFTN", "HFFT2", "IRFFTN"):
        check(op, x, None, (0, 1) if op.endswith("N") else (-2, -1), "forward")
        check(op, x, (4, 5), None if op.endswith("N") else (1, 0))


@pytest.mark.parametrize("dtype", (np.float32, np.float64, np.int64), ids=ids)
def test_real_transforms(dtype):
    x = values((2, 7), dtype)
    for op in ("RFFT", "IHFFT"):
        for norm in NORMS:
            check(op, x, None, -1, norm)
        check(op, x, 4, 1)
        check(op, x, 3, 0, "ortho")
    for op in ("RFFT2", "IHFFT2", "RFFTN", "IHFFTN"):
        check(op, x, None, None if op.endswith("N") else (-2, -1))
        check(op, x, (3, 5), (1, 0), "ortho")


def test_fft_with_size():
    x, z = values((2, 3, 4), np.float32), complex_values((2, 3, 4), np.complex64)
    check("FFTWithSize", z, 2, False, False)
    check("FFTWithSize", z, 1, True, False, "ortho")
    check("FFTWithSize", x, 2, False, True, "backward", True)
    check("FFTWithSize", x, 3, False, True, "forward", False)
    check("FFTWithSize", z, 2, True, True, "backward", True, (3, 6))
    check("FFTWithSize", z, 1, True, True)


@pytest.mark.parametrize("dtype", (np.float32, np.float64, np.complex64, np.int32),
                         ids=ids)
def test_cosine_transforms(dtype):
    x = signals(dtype)
    for op in ("DCT", "IDCT"):
        check(op, x)
        check(op, x, 2, 4, 0)
        check(op, x, 2, 8, -1, "ortho")
    for op in ("DCTN", "IDCTN"):
        check(op, x)
        check(op, x, 2, (2, 7), (1, 0))


@pytest.mark.parametrize("dtype", (np.float32, np.int32, np.bool_), ids=ids)
def test_shifts(dtype):
    x = values((3, 4, 5), dtype)
    for op in ("FFTShift", "IFFTShift"):
        check(op, x)
        check(op, x, (0, -1))
        check(op, x, (2,))


def test_frequencies_and_window():
    for op in ("FFTFreq", "RFFTFreq"):
        check(op, 7)
        check(op, 8, 0.25, np.dtype(np.float64))
        check(op, 1, 2.0)
    for length, periodic in ((8, True), (7, False), (1, True), (0, False)):
        check("HammingWindow", length, periodic)
    check("HammingWindow", 9, True, 0.5, 0.5, np.dtype(np.float64))


def test_refused_arguments_decline():
    """The reference raises its error for each of these."""
    x = values((2, 3), np.float32)
    assert run("FFT", x, 0) is None
    assert run("FFT", x, None, 2) is None
    assert run("IRFFT", x[:, :1]) is None                # 2 (1 - 1) = 0 points
    assert run("RFFT", complex_values((2, 3), np.complex64)) is None
    assert run("FFT2", x, (3,), (0, 1)) is None
    assert run("FFTN", x, None, ()) is None
    assert run("FFTN", x, None, (1, -1)) is None         # an axis twice
    assert run("FFTWithSize", x, 3, False, False) is None
    assert run("DCT", x, 1) is None                      # type 1
    assert run("DCTN", x, 2, None, (0, -2)) is None
    assert run("FFTShift", x, (2,)) is None
    assert run("IFFTShift", values((), np.float32)) is None   # no axes: np.roll raises
    assert run("FFTFreq", 0) is None
    assert run("HammingWindow", -1) is None
    assert run("FFT", values((4,), np.float16)) is None
