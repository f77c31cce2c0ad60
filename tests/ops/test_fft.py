"""The discrete Fourier transforms against an explicit DFT matrix in float64
(never np.fft): every 1-D, 2-D and N-D form, each norm mode and its MindIR
code, cropped and zero-padded lengths, result dtypes; FFTShift, FFTFreq,
FFTWithSize, Real, Imag, Conj, Angle, Polar."""
import math

import numpy as np
import pytest

SIGN = {"FFT": -1, "IFFT": 1}
SCALE = {("backward", False): 1.0, ("backward", True): "n", ("forward", False): "n",
         ("forward", True): 1.0, ("ortho", False): "sqrt", ("ortho", True): "sqrt"}


def dft(x, n, axis, norm, inverse):
    """The DFT of x along axis, cropped or zero-padded to n, by its matrix."""
    x = np.moveaxis(np.asarray(x, np.complex128), axis, -1)
    m = x.shape[-1]
    x = x[..., :n] if m >= n else np.concatenate(
        [x, np.zeros(x.shape[:-1] + (n - m,))], -1)
    k = np.arange(n)
    matrix = np.exp((1 if inverse else -1) * 2j * np.pi * np.outer(k, k) / n)
    scale = {1.0: 1.0, "n": 1.0 / n, "sqrt": 1.0 / np.sqrt(n)}[SCALE[norm, inverse]]
    return np.moveaxis(x @ matrix.T * scale, -1, axis)


def hermitian_full(x, n, axis):
    """The full spectrum of length n whose first half is x (x[n - k] = conj x[k])."""
    x = np.moveaxis(np.asarray(x, np.complex128), axis, -1)
    half = n // 2 + 1
    x = x[..., :half] if x.shape[-1] >= half else np.concatenate(
        [x, np.zeros(x.shape[:-1] + (half - x.shape[-1],))], -1)
    tail = np.conj(x[..., 1:n - half + 1][..., ::-1])
    return np.moveaxis(np.concatenate([x, tail], -1), -1, axis)


def expected(op, x, n, axis, norm):
    """One 1-D transform, by its definition."""
    if op in ("FFT", "IFFT"):
        return dft(x, n or x.shape[axis], axis, norm, op == "IFFT")
    if op == "RFFT":
        n = n or x.shape[axis]
        return np.take(dft(x, n, axis, norm, False), range(n // 2 + 1), axis)
    if op == "IHFFT":
        n = n or x.shape[axis]
        return np.take(dft(x, n, axis, norm, True), range(n // 2 + 1), axis)
    n = n or 2 * (x.shape[axis] - 1)
    full = hermitian_full(x, n, axis)
    if op == "IRFFT":
        return dft(full, n, axis, norm, True).real
    return dft(full, n, axis, norm, False).real      # HFFT


def close(got, want, dtype):
    assert got.dtype == dtype, (got.dtype, dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    tol = 1e-12 if dtype in (np.complex128, np.float64) else 2e-5
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def sample(rng, shape, dtype):
    if np.dtype(dtype).kind == "i":
        return rng.integers(-5, 6, shape).astype(dtype)
    return rng.uniform(-3, 3, shape).astype(dtype)


ONE_D = ["FFT", "IFFT", "RFFT", "IRFFT", "HFFT", "IHFFT"]
REAL_OUT = {"IRFFT", "HFFT"}
DTYPES = {"float32": (np.complex64, np.float32), "float64": (np.complex128, np.float64),
          "int32": (np.complex64, np.float32), "float16": (np.complex64, np.float32)}


@pytest.mark.parametrize("op", ONE_D)
@pytest.mark.parametrize("dtype", sorted(DTYPES))
@pytest.mark.parametrize("shape, n, dim", [((5,), None, -1), ((2, 6), 4, 1),
                                           ((3, 4, 2), 7, 0), ((2, 1), None, 0)])
@pytest.mark.parametrize("norm", ["backward", "forward", "ortho"])
def test_one_dimensional(call, rng, op, dtype, shape, n, dim, norm):
    x = sample(rng, shape, dtype)
    got = call(op, x, n, dim, norm)
    close(got, expected(op, x.astype(np.float64), n, dim, norm),
          DTYPES[dtype][op in REAL_OUT])


@pytest.mark.parametrize("op", ONE_D)
def test_complex_input_and_norm_codes(call, rng, op):
    x = sample(rng, (3, 4), np.float64) + 1j * sample(rng, (3, 4), np.float64)
    for code, norm in enumerate(["backward", "forward", "ortho"]):
        if op in ("RFFT", "IHFFT"):     # real-input transforms
            with pytest.raises(ValueError, match=f"{op}: input must be a real tensor "
                                                 r"of rank >= 1, got complex64"):
                call(op, x.astype(np.complex64))
            continue
        got = call(op, x.astype(np.complex64), 6, 1, code)
        close(got, expected(op, x, 6, 1, norm), (np.float32 if op in REAL_OUT
                                                else np.complex64))
    assert call(op, x.real, None, -1, None).shape == call(op, x.real).shape


MULTI = {"FFT2": "FFT", "IFFT2": "IFFT", "FFTN": "FFT", "IFFTN": "IFFT",
         "RFFT2": "RFFT", "RFFTN": "RFFT", "IRFFT2": "IRFFT", "IRFFTN": "IRFFT",
         "HFFT2": "HFFT", "HFFTN": "HFFT", "IHFFT2": "IHFFT", "IHFFTN": "IHFFT"}


def expected_n(op, x, s, dims, norm):
    """The N-D transform as 1-D ones: the halved axis (the last of dims) goes
    first for the real-input transforms and last for the real-output ones."""
    one = MULTI[op]
    full = {"RFFT": "FFT", "IHFFT": "IFFT", "IRFFT": "IFFT", "HFFT": "FFT"}.get(one, one)
    order = list(range(len(dims)))
    order = order[::-1] if one in ("RFFT", "IHFFT") else order
    for i in order:
        last = i == len(dims) - 1
        x = expected(one if last else full, x, s[i] if s else None, dims[i], norm)
    return x


@pytest.mark.parametrize("op", sorted(MULTI))
@pytest.mark.parametrize("s, dim", [(None, None), ((3, 4), None), (None, (0, 2)),
                                    ((2, 6), (2, 0))])
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_multi_dimensional(call, rng, op, s, dim, norm):
    x = sample(rng, (2, 3, 4), np.float64)
    if op.endswith("2") and dim is None:
        got = call(op, x, s, (-2, -1), norm)
        dims = (1, 2)
    else:
        got = call(op, x, s, dim, norm)
        dims = dim if dim is not None else (
            tuple(range(3 - len(s), 3)) if s else (0, 1, 2))
    close(got, expected_n(op, x, s, dims, norm),
          np.float64 if MULTI[op] in REAL_OUT else np.complex128)


def test_clear_errors(call):
    with pytest.raises(ValueError, match=r"unknown FFT norm 'sideways'"):
        call("FFT", np.ones(4, np.float32), None, -1, "sideways")
    with pytest.raises(ValueError, match=r"unknown FFT norm 3"):
        call("FFT", np.ones(4, np.float32), None, -1, 3)
    with pytest.raises(ValueError, match=r"RFFT: input must be a real tensor of rank "
                                         r">= 1, got float32 of shape \(\)"):
        call("RFFT", np.float32(1.0).reshape(()))
    with pytest.raises(ValueError, match=r"FFTN: s \(2, 3\) and dim \(0,\) must have "):
        call("FFTN", np.ones((2, 3), np.float32), (2, 3), (0,))


@pytest.mark.parametrize("dtype", ["float32", "int8", "bool"])
def test_fft_shift(call, rng, dtype):
    x = sample(rng, (3, 4, 5), "int32").astype(dtype)
    close_shift = np.testing.assert_array_equal
    close_shift(call("FFTShift", x), np.roll(x, (1, 2, 2), (0, 1, 2)))
    close_shift(call("FFTShift", x, (0, -1)), np.roll(x, (1, 2), (0, 2)))
    close_shift(call("IFFTShift", x, 2), np.roll(x, -2, 2))
    close_shift(call("IFFTShift", call("FFTShift", x)), x)


def test_real_and_imag(call):
    z = np.array([1 - 2j, 0.5 + 3j], np.complex64)
    assert call("Real", z).dtype == np.float32 and call("Imag", z).dtype == np.float32
    np.testing.assert_array_equal(call("Real", z), [1.0, 0.5])
    np.testing.assert_array_equal(call("Imag", z), [-2.0, 3.0])
    np.testing.assert_array_equal(call("Imag", np.array([2.0])), [0.0])


@pytest.mark.parametrize("n, d", [(1, 1.0), (5, 0.5), (8, 2.0)])
def test_fft_frequencies(call, n, d):
    full = [k / (d * n) for k in range(n)]
    full = [f - 1 / d if k > (n - 1) // 2 else f for k, f in enumerate(full)]
    got = call("FFTFreq", n, d)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, full, rtol=1e-6)
    np.testing.assert_allclose(call("RFFTFreq", n, d, np.float64),
                               [k / (d * n) for k in range(n // 2 + 1)], rtol=1e-12)
    with pytest.raises(ValueError, match=r"FFTFreq: n must be >= 1, got 0"):
        call("FFTFreq", 0)


def test_fft_frequencies_of_a_zero_spacing(call):
    """d = 0 divides in floating point, as MindSpore 2.7.1's CPU kernel
    does (ops.fftfreq(5, 0.0) printed these); not a ZeroDivisionError."""
    np.testing.assert_array_equal(call("FFTFreq", 5, 0.0),
                                  [np.nan, np.inf, np.inf, -np.inf, -np.inf])
    np.testing.assert_array_equal(call("RFFTFreq", 5, 0.0), [np.nan, np.inf, np.inf])


@pytest.mark.parametrize("rank", [1, 2])
def test_fft_with_size_is_the_named_transforms(call, rng, rank):
    x = sample(rng, (2, 3, 6), np.float64)
    dims = (1, 2)[-rank:] if rank == 2 else (2,)
    same = {(False, False, True): ("FFTN", x), (True, False, True): ("IFFTN", x),
            (False, True, True): ("RFFTN", x), (False, True, False): ("FFTN", x)}
    for (inverse, real, onesided), (op, arg) in same.items():
        close(call("FFTWithSize", arg, rank, inverse, real, "ortho", onesided),
              call(op, arg, None, dims, "ortho"), np.complex128)
    spectrum = call("RFFTN", x, None, dims)
    close(call("FFTWithSize", spectrum, rank, True, True, "backward", True, (3, 6)),
          x, np.float64)
    with pytest.raises(ValueError, match=r"FFTWithSize: signal_ndim 4 must be 1..3"):
        call("FFTWithSize", x, 4, False, False)


def test_conj_angle_polar(call, rng):
    z = (sample(rng, (3, 4), np.float64) + 1j * sample(rng, (3, 4), np.float64))
    for dtype, real in ((np.complex64, np.float32), (np.complex128, np.float64)):
        w = z.astype(dtype)
        got = call("Conj", w)
        assert got.dtype == dtype
        np.testing.assert_array_equal(got.imag, -w.imag)
        angle = call("Angle", w)
        assert angle.dtype == real
        np.testing.assert_allclose(angle, [[math.atan2(v.imag, v.real) for v in row]
                                           for row in w.astype(np.complex128)], rtol=1e-6)
        magnitude = np.abs(w).astype(real)
        back = call("Polar", magnitude, angle)
        assert back.dtype == dtype
        np.testing.assert_allclose(back, w, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(call("Angle", np.array([-2.0, 0.0, 3.0])),
                                  [math.pi, 0.0, 0.0])
    with pytest.raises(TypeError, match=r"Polar: abs and angle must be float tensors of "
                                        r"one dtype, got float32 and float64"):
        call("Polar", np.ones(2, np.float32), np.ones(2))
