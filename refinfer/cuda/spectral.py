"""The ``cuda`` kernels of the Fourier family: FFT, IFFT, RFFT, IRFFT, HFFT,
IHFFT in their 1-D, 2-D and N-D forms, FFTWithSize, the cosine transforms
DCT, IDCT, DCTN, IDCTN, the shifts FFTShift and IFFTShift, the frequency
tables FFTFreq and RFFTFreq, and HammingWindow, declared in
:data:`KERNELS`.

One DFT runner along one axis (:func:`_dft`): a thread per output element
sums its direct O(n^2) series, the input read as complex128 and the
twiddles and sums in float64 whatever the result's dtype, the input
cropped or zero-padded to the transform's length by reading only its
first elements. The N-D forms run it once per axis, in NumPy's order for
the real forms: RFFT halves the last axis first, IRFFT transforms the
others first and ends with the Hermitian sum (:func:`_dft_real`: bins
past the half are the conjugates of those before, the imaginary parts of
the first bin and of an even length's middle one ignored, as pocketfft).
The Hermitian transforms are the real ones with the sign of the exponent
flipped and the opposite norm (HFFT = IRFFT(conj x): its real part is
IRFFT's with the sign flipped; IHFFT = conj(RFFT x) = RFFT with the
sign flipped for a real x). The argument handling is the references'
(ops/_ref/fft.py's helpers); what they refuse, and float16 input, is
declined. The cosine transforms are their product with the orthonormal
DCT-II matrix, its entries computed in place (:func:`_cosine`).
"""
from __future__ import annotations

import math

import numba
import numpy as np

from refinfer import args, registry
from refinfer.ops._ref import fft as spec
from refinfer.ops._ref.reduce import reduce_axes
from refinfer.ops._ref.search import one_axis
from refinfer.ops.hamming_window import window_dtype

from . import device
from .device import cuda, dmath
from .fill import filled
from .index import convert
from .layout import flat
from .movement import roll

TAU = 2 * math.pi


# -- the kernels ---------------------------------------------------------------
@device.jit
def _dft(x, out, length, n, count, inner, sign, scale):
    """out (outer, count, inner)[o, k, r] = scale * sum over j < min(length,
    n) of x (outer, length, inner)[o, j, r] exp(sign 2 pi i j k / n)."""
    stop = length if length < n else n
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        o, k, r = i // (count * inner), (i // inner) % count, i % inner
        real, imag = 0.0, 0.0
        for j in range(stop):
            value = x[(o * length + j) * inner + r]
            angle = sign * TAU * ((j * k) % n) / n
            c, s = dmath.cos(angle), dmath.sin(angle)
            real += value.real * c - value.imag * s
            imag += value.real * s + value.imag * c
        out[i] = (real + 1j * imag) * scale


@device.jit
def _dft_real(x, out, length, n, inner, sign, scale):
    """out (outer, n, inner)[o, j, r] = scale * the real sum over the n bins
    of the Hermitian spectrum whose first bins are x (outer, length, inner)
    (at most n // 2 + 1 of them read), exp(sign 2 pi i j k / n)."""
    bins = n // 2 + 1
    if bins > length:
        bins = length
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        o, j, r = i // (n * inner), (i // inner) % n, i % inner
        total = 0.0
        for k in range(bins):
            value = x[(o * length + k) * inner + r]
            angle = sign * TAU * ((j * k) % n) / n
            term = value.real * dmath.cos(angle)
            if k == 0 or 2 * k == n:        # their own conjugates: imag ignored
                total += term
            else:
                total += 2 * (term - value.imag * dmath.sin(angle))
        out[i] = total * scale


@device.jit
def _cosine(x, out, length, n, inner, inverse):
    """The orthonormal DCT-II (``inverse``: DCT-III) along the middle axis:
    out (outer, n, inner)[o, k, r] = sum over j < min(length, n) of
    C[k, j] x[o, j, r] (inverse: C[j, k]), C[k, j] = s_k cos(pi k (2j + 1)
    / (2n)), s_0 = sqrt(1 / n), s_k = sqrt(2 / n)."""
    stop = length if length < n else n
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        o, k, r = i // (n * inner), (i // inner) % n, i % inner
        total = 0.0         # (complex128 for a complex x: numba unifies)
        for j in range(stop):
            row, column = (j, k) if inverse else (k, j)
            weight = dmath.sqrt((1.0 if row == 0 else 2.0) / n) * dmath.cos(
                math.pi * row * (2 * column + 1) / (2 * n))
            total += weight * x[(o * length + j) * inner + r]
        out[i] = total


@device.jit
def _frequencies(out, n, half, scale):
    """out[i] = (i below ``half``, else i - n) * scale, in float64 first."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = (i if i < half else i - n) * scale


@device.jit
def _hamming(out, alpha, beta, span):
    """out[i] = alpha - beta cos(2 pi i / span), in float64 first."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = alpha - beta * dmath.cos(TAU * i / span)


# -- the DFT runner ------------------------------------------------------------
def _along(x, axis: int) -> tuple[int, int, int]:
    """(outer, length, inner) of x viewed around ``axis``."""
    shape = tuple(x.shape)
    return math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1:])


def _scale(norm: str, inverse: bool, n: int) -> float:
    """The factor of a transform of length n in the direction ``inverse``
    under ``norm`` (ops/_ref/fft.py)."""
    if norm == "ortho":
        return 1 / math.sqrt(n)
    return 1 / n if inverse == (norm == "backward") else 1.0


def _pass(x, axis: int, n: int, count: int, sign: int, scale: float):
    """The DFT of length n of complex128 x along ``axis``, its first
    ``count`` bins (complex128)."""
    outer, length, inner = _along(x, axis)
    shape = tuple(x.shape)
    out = device.empty(shape[:axis] + (count,) + shape[axis + 1:], np.complex128)
    if out.size:
        device.launch(_dft, out.size, flat(x), flat(out), length, n, count, inner,
                      sign, scale)
    return out


def _hermitian_pass(x, axis: int, n: int, sign: int, scale: float):
    """The real signal of length n along ``axis`` whose Hermitian
    spectrum begins with x (float64)."""
    outer, length, inner = _along(x, axis)
    shape = tuple(x.shape)
    out = device.empty(shape[:axis] + (n,) + shape[axis + 1:], np.float64)
    if out.size:
        device.launch(_dft_real, out.size, flat(x), flat(out), length, n, inner, sign,
                      scale)
    return out


def _as(x, dtype):
    """x converted by assignment to ``dtype`` on the device."""
    out = device.empty(tuple(x.shape), np.dtype(dtype))
    if out.size:
        device.launch(convert, out.size, flat(x), flat(out))
    return out


# kind: "c2c", "r2c" (the last axis halved) or "c2r"; the exponent's sign;
# inverse: the direction scaled; opposite: the Hermitian twins' norm rule.
TRANSFORMS = {"fft": ("c2c", -1, False, False), "ifft": ("c2c", 1, True, False),
              "rfft": ("r2c", -1, False, False), "irfft": ("c2r", 1, True, False),
              "hfft": ("c2r", -1, True, True), "ihfft": ("r2c", 1, False, True)}


def _run(form: str, x, sizes, axes: tuple, norm):
    """The transform ``form`` of TRANSFORMS over ``axes`` (sizes None or
    one per axis, None keeping the reference's default), in the
    reference's result dtype; None where the reference refuses."""
    kind, sign, inverse, opposite = TRANSFORMS[form]
    real_in = kind == "r2c"
    if x.dtype.kind not in ("iuf" if real_in else "iufc") or x.ndim == 0 \
            or x.dtype == np.float16:
        return None
    norm = spec.norm_mode(norm)
    norm = spec.OPPOSITE[norm] if opposite else norm
    sizes = list(sizes) if sizes is not None else [None] * len(axes)
    for place, axis in enumerate(axes):
        if sizes[place] is None:
            m = x.shape[axis]
            sizes[place] = 2 * (m - 1) if kind == "c2r" and place == len(axes) - 1 else m
    if any(int(n) < 1 for n in sizes):
        return None
    double = x.dtype.type in spec.DOUBLES
    work = _as(x, np.complex128)
    steps = list(zip(axes, map(int, sizes)))
    if kind == "r2c":       # the halved axis first, then the others (NumPy's order)
        axis, n = steps.pop()
        work = _pass(work, axis, n, n // 2 + 1, sign, _scale(norm, inverse, n))
    last = steps.pop() if kind == "c2r" else None
    for axis, n in steps:
        work = _pass(work, axis, n, n, sign, _scale(norm, inverse, n))
    if last is not None:
        axis, n = last
        work = _hermitian_pass(work, axis, n, sign, _scale(norm, inverse, n))
        return _as(work, np.float64 if double else np.float32)
    return _as(work, np.complex128 if double else np.complex64)


def one_d(form: str):
    """The kernel of a 1-D transform (FFT, IFFT, ...): the reference's n and
    dim handling (ops/_ref/fft.py: transform)."""
    def run(input, n=None, dim=-1, norm=None):
        try:
            axis = one_axis(dim, input.ndim)
            n = None if n is None else int(args.scalar(n))
        except (ValueError, TypeError):
            return None
        return _run(form, input, None if n is None else (n,), (axis,), norm)
    return run


def _axes_of(x, s, dim):
    """(sizes, axes) as the reference's transform_n takes s and dim; None
    where it refuses them."""
    s, dim = spec.optional_ints(s), spec.optional_ints(dim)
    if s is not None and dim is not None and len(s) != len(dim):
        return None
    if s is not None and dim is None:
        dim = tuple(range(x.ndim - len(s), x.ndim))
    if dim is None:
        return s, tuple(range(x.ndim))
    try:
        return (s, reduce_axes(dim, x.ndim)) if dim else None
    except ValueError:
        return None


def n_d(form: str):
    """The kernel of a 2-D or N-D transform (FFT2, FFTN, ...): the
    reference's s and dim handling (ops/_ref/fft.py: transform_n)."""
    def run(input, s=None, dim=None, norm=None):
        found = _axes_of(input, s, dim)
        return None if found is None else _run(form, input, *found, norm)
    return run


def two_d(form: str):
    """The kernel of a 2-D transform: the N-D one with dim=(-2, -1)."""
    run = n_d(form)

    def run_2d(input, s=None, dim=(-2, -1), norm=None):
        return run(input, s, dim, norm)
    return run_2d


def fft_with_size(x, signal_ndim, inverse, real, norm="backward", onesided=True,
                  signal_sizes=()):
    """FFTWithSize: the reference's choice of transform over the last
    signal_ndim axes."""
    rank = int(signal_ndim)
    if not 1 <= rank <= min(3, x.ndim):
        return None
    dims = tuple(range(x.ndim - rank, x.ndim))
    if real and inverse:
        sizes = None
        if signal_sizes:
            sizes = tuple(x.shape[d] for d in dims[:-1]) + (int(signal_sizes[-1]),)
        return _run("irfft", x, sizes, dims, norm)
    if real and onesided:
        return _run("rfft", x, None, dims, norm)
    return _run("ifft" if inverse else "fft", x, None, dims, norm)


# -- cosine transforms ---------------------------------------------------------
def _cosine_transform(x, type, lengths, axes, inverse: bool):
    """DCT-II (``inverse``: DCT-III) along each of axes with its length
    (None: the axis's own), as ops/_ref/dct.py's cosine_transform."""
    if args.integer(type) != 2 or x.dtype.kind not in "iufc" or x.ndim == 0 \
            or x.dtype == np.float16:
        return None
    complex_input = x.dtype.kind == "c"
    work = _as(x, np.complex128 if complex_input else np.float64)
    for n, axis in zip(lengths, axes):
        axis = args.integer(axis)
        if not -x.ndim <= axis < x.ndim:
            return None
        axis %= x.ndim
        outer, length, inner = _along(work, axis)
        n = length if n is None else int(n)
        if n < 1:
            return None
        shape = tuple(work.shape)
        out = device.empty(shape[:axis] + (n,) + shape[axis + 1:], work.dtype)
        if out.size:
            device.launch(_cosine, out.size, flat(work), flat(out), length, n, inner,
                          inverse)
        work = out
    if complex_input:
        return _as(work, x.dtype)
    return _as(work, np.float64 if x.dtype == np.float64 else np.float32)


def cosine(inverse: bool):
    """The kernel of DCT (IDCT where ``inverse``)."""
    def run(x, type=2, n=None, axis=-1, norm=None):
        return _cosine_transform(x, type, (n,), (axis,), inverse)
    return run


def cosine_n(inverse: bool):
    """The kernel of DCTN (IDCTN where ``inverse``): the reference's s and
    axes handling (ops/_ref/dct.py: cosine_transform_n)."""
    def run(x, type=2, s=None, axes=None, norm=None):
        s, axes = spec.optional_ints(s), spec.optional_ints(axes)
        rank = x.ndim
        if s is not None and axes is not None and len(s) != len(axes):
            return None
        if axes is None:
            axes = tuple(range(rank - len(s), rank)) if s is not None \
                else tuple(range(rank))
        if rank and len({a % rank for a in axes}) != len(axes):
            return None
        lengths = s if s is not None else (None,) * len(axes)
        return _cosine_transform(x, type, lengths, axes, inverse)
    return run


# -- shifts, frequencies, window -----------------------------------------------
def shift(direction: int):
    """The kernel of FFTShift (direction 1) or IFFTShift (-1): a roll by
    direction * (n // 2) along each axis of dim (None: every axis)."""
    def run(input, dim=None):
        axes = tuple(range(input.ndim)) if dim is None else spec.optional_ints(dim)
        shape = tuple(input.shape)      # (the simulator's shape has no negative index)
        if not axes:
            return None                 # (np.roll refuses an empty tuple of axes)
        try:
            shifts = [direction * (shape[a] // 2) for a in axes]
        except IndexError:
            return None
        return roll(input, shifts, axes)
    return run


def frequencies(one_sided: bool):
    """The kernel of FFTFreq (RFFTFreq where ``one_sided``): the n-point
    transform's bins (negative past the middle) over d n."""
    def run(n, d=1.0, dtype=None):
        n, d = int(n), float(d)
        if n < 1 or d == 0:
            return None
        count = n // 2 + 1 if one_sided else n
        out = device.empty((count,), np.dtype(np.float32 if dtype is None else dtype))
        device.launch(_frequencies, count, out, n, count if one_sided else (n - 1) // 2 + 1,
                      1.0 / (n * d))
        return out
    return run


def hamming_window(length, periodic=True, alpha=0.54, beta=0.46, dtype=np.float32):
    """HammingWindow: alpha - beta cos(2 pi i / N) (N: length, or length - 1
    unless periodic); ones for a length of 1 or less."""
    length, dtype = int(length), window_dtype(dtype)
    if length < 0:
        return None
    if length <= 1:
        return filled((length,), np.ones((), dtype))
    out = device.empty((length,), dtype)
    device.launch(_hamming, length, out, float(alpha), float(beta),
                  float(length if periodic else length - 1))
    return out


FORMS = {"FFT": "fft", "IFFT": "ifft", "RFFT": "rfft", "IRFFT": "irfft", "HFFT": "hfft",
         "IHFFT": "ihfft"}
KERNELS = {**{op: one_d(form) for op, form in FORMS.items()},
           **{f"{op}2": two_d(form) for op, form in FORMS.items()},
           **{f"{op}N": n_d(form) for op, form in FORMS.items()},
           "FFTWithSize": fft_with_size, "DCT": cosine(False), "IDCT": cosine(True),
           "DCTN": cosine_n(False), "IDCTN": cosine_n(True), "FFTShift": shift(1),
           "IFFTShift": shift(-1), "FFTFreq": frequencies(False),
           "RFFTFreq": frequencies(True), "HammingWindow": hamming_window}
registry.declare_kernels("cuda", KERNELS)


def ptx_kernels() -> list[tuple]:
    """(name, Python function, argument types) of this module's kernels
    for tools/check_ptx.py: complex128 work, float32 and float64 results."""
    c128, f64, f32 = numba.complex128[::1], numba.float64[::1], numba.float32[::1]
    n, real = numba.int64, numba.float64
    return [
        ("convert float32 -> complex128", convert.py_func, (f32, c128)),
        ("convert complex128 -> complex64", convert.py_func,
         (c128, numba.complex64[::1])),
        ("dft", _dft.py_func, (c128, c128, n, n, n, n, n, real)),
        ("dft, Hermitian to real", _dft_real.py_func, (c128, f64, n, n, n, n, real)),
        ("cosine, float64", _cosine.py_func, (f64, f64, n, n, n, numba.boolean)),
        ("cosine, complex128", _cosine.py_func, (c128, c128, n, n, n, numba.boolean)),
        ("frequencies, float32", _frequencies.py_func, (f32, n, n, real)),
        ("hamming, float32", _hamming.py_func, (f32, real, real, real)),
    ]
