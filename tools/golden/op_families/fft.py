"""Discrete Fourier transforms (ops.fft ... ops.ihfftn, fftshift): float inputs, the
complex ones made inside the graph by a forward transform, every norm mode, cropped
and zero-padded lengths.

Lite's DataType has no complex members, so a complex result leaves the graph as its
real and imaginary parts (ops.real, ops.imag), compared at float32 tolerances.
"""
import numpy as np

from op_cases import OpCase, t

F32 = {"rtol": 1e-4, "atol": 1e-5}
REAL_OUT = ("IRFFT", "HFFT", "FFTShift", "IFFTShift", "FFTFreq", "RFFTFreq", "Angle")


def fft(name, op, expr, shape, dtype="float32"):
    ops = (op,) if isinstance(op, str) else op
    if not any(o.startswith(REAL_OUT) for o in ops[:1]):
        expr, ops = f"ops.real({expr}), ops.imag({expr})", ops + ("Real", "Imag")
    return OpCase(name, ops, expr, [t(shape, dtype)], tolerance=F32)


CASES = [
    fft("fft", "FFT", "ops.fft(x)", (2, 5)),
    fft("fft_n_ortho", "FFT", "ops.fft(x, 6, 0, 'ortho')", (4, 3)),
    fft("fft_f64_crop", "FFT", "ops.fft(x, 3, -1, 'forward')", (2, 5), "float64"),
    fft("ifft", ("IFFT", "FFT"), "ops.ifft(ops.fft(x), 4, -1, 'forward')", (2, 5)),
    fft("rfft", "RFFT", "ops.rfft(x, 6, 1, 'ortho')", (2, 5)),
    fft("irfft", ("IRFFT", "RFFT"), "ops.irfft(ops.rfft(x), 7)", (3, 7)),
    fft("hfft", ("HFFT", "FFT"), "ops.hfft(ops.fft(x), 6, 0)", (4, 3)),
    fft("ihfft", "IHFFT", "ops.ihfft(x, None, -1, 'ortho')", (2, 5)),
    fft("fft2", "FFT2", "ops.fft2(x, (3, 4))", (2, 3, 5)),
    fft("ifft2", ("IFFT2", "FFT2"), "ops.ifft2(ops.fft2(x), None, (0, 2), 'ortho')",
        (2, 3, 4)),
    fft("rfft2", "RFFT2", "ops.rfft2(x, None, (0, 1), 'forward')", (3, 4, 2)),
    fft("irfft2", ("IRFFT2", "RFFT2"), "ops.irfft2(ops.rfft2(x), (3, 5))", (2, 3, 5)),
    fft("hfft2", ("HFFT2", "FFT2"), "ops.hfft2(ops.fft2(x), (2, 6))", (2, 3, 4)),
    fft("ihfft2", "IHFFT2", "ops.ihfft2(x)", (2, 3, 4)),
    fft("fftn", "FFTN", "ops.fftn(x, (2, 3), (0, 2))", (3, 2, 4)),
    fft("ifftn", ("IFFTN", "FFTN"), "ops.ifftn(ops.fftn(x), None, None, 'forward')",
        (2, 3, 4)),
    fft("rfftn", "RFFTN", "ops.rfftn(x, None, (1, 2), 'ortho')", (2, 3, 4)),
    fft("irfftn", ("IRFFTN", "RFFTN"), "ops.irfftn(ops.rfftn(x), (2, 3, 4))", (2, 3, 4)),
    fft("hfftn", ("HFFTN", "FFTN"), "ops.hfftn(ops.fftn(x), (2, 3, 4))", (2, 3, 3)),
    fft("ihfftn", "IHFFTN", "ops.ihfftn(x, None, (0, 2))", (2, 3, 4)),
    fft("fftshift", "FFTShift", "ops.fftshift(x)", (3, 4)),
    fft("fftshift_dim", "FFTShift", "ops.fftshift(x, (0, -1))", (3, 2, 5)),
    fft("ifftshift", "IFFTShift", "ops.ifftshift(x, 1)", (3, 5)),
    fft("conj", ("Conj", "FFT"), "ops.conj(ops.fft(x))", (2, 4)),
    fft("angle", ("Angle", "FFT"), "ops.angle(ops.fft(x))", (2, 5)),
    OpCase("polar", ("Polar", "Real", "Imag"), "ops.real(ops.polar(x, y)), "
           "ops.imag(ops.polar(x, y))", [t((2, 3), low=0.0), t((2, 3))], tolerance=F32),
    fft("fft_freq", "FFTFreq", "ops.fftfreq(5, 0.5) + x", (5,)),
    fft("rfft_freq", "RFFTFreq", "ops.rfftfreq(6, 2.0) * x", (2, 4)),
    fft("fft_with_size_rfft", "FFTWithSize", "P.FFTWithSize(2, False, True)(x)",
        (2, 3, 6)),
    fft("fft_with_size_full", "FFTWithSize",
        "P.FFTWithSize(1, False, True, 'ortho', False)(x)", (2, 5)),
    fft("fft_with_size_irfft", "FFTWithSize",
        "P.FFTWithSize(2, True, True, 'forward', True, (3, 7))("
        "P.FFTWithSize(2, False, True)(x))",
        (2, 3, 7)),
    fft("fft_with_size_ifft", "FFTWithSize",
        "P.FFTWithSize(1, True, False)("
        "P.FFTWithSize(1, False, True, 'backward', False)(x))",
        (3, 4)),
]

CASES += [
    OpCase("hamming_window", "HammingWindow",
           "P.HammingWindow(True, 0.54, 0.46, ms.float32)(x)",
           [lambda rng: np.array([7], np.int64)]),
    OpCase("hann_window_f64", "HammingWindow",
           "P.HammingWindow(False, 0.5, 0.5, ms.float64)(x)",
           [lambda rng: np.array([6], np.int32)],
           "HammingWindow with alpha = beta = 0.5 (Hann), symmetric, float64"),
]
