"""Helpers shared by the discrete Fourier transforms (FFT, RFFT, HFFT and
their inverse and 2-D / N-D forms): MindSpore's norm codes, its result
dtypes, and the Hermitian transforms NumPy has only in 1-D.

norm (None, a name or MindIR's code): 'backward' (0, the default) leaves
the forward transform unscaled and divides the inverse by n, 'forward' (1)
the other way round, 'ortho' (2) divides both by sqrt(n). n (1-D) or s
(per axis of dim) crops or zero-pads the input to that length first; None
keeps it (for the real inverses: 2 (m - 1) along the halved axis).

Every transform runs in NumPy's pocketfft and is cast to the
dtype MindSpore 2.7.1 returns: complex64 (float32 for the real-valued
outputs of IRFFT and HFFT) unless the input is float64 or complex128.
"""
from __future__ import annotations

import numpy as np

from refinfer import args

from .reduce import reduce_axes
from .search import one_axis

# The FFTNormMode codes of MindIR (PRIMITIVE_FUNCTION inputs); None is backward.
NORMS = ("backward", "forward", "ortho")
# The Hermitian transforms scale as the opposite direction of their real twin.
OPPOSITE = {"backward": "forward", "forward": "backward", "ortho": "ortho"}
DOUBLES = (np.float64, np.complex128)


def norm_mode(value) -> str:
    """norm: None, a code 0..2 or a name (any case) -> 'backward', 'forward'
    or 'ortho'."""
    if value is None:
        return "backward"
    if isinstance(value, str) and value.lower() in NORMS:
        return value.lower()
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) \
            and 0 <= int(value) < len(NORMS):
        return NORMS[int(value)]
    raise ValueError(f"unknown FFT norm {value!r} (expected None, one of "
                     f"{list(NORMS)} or their codes 0..2)")


def optional_ints(value):
    """n, s or dim: None stays None, an int or a sequence -> tuple of ints."""
    return None if value is None else args.ints(value)


def _double(x: np.ndarray) -> bool:
    return x.dtype.type in DOUBLES


def complex_result(x: np.ndarray, out) -> np.ndarray:
    """A complex transform's result: complex128 for double inputs, else
    complex64."""
    return np.asarray(out, np.complex128 if _double(x) else np.complex64)


def real_result(x: np.ndarray, out) -> np.ndarray:
    """A real-valued transform's result (IRFFT, HFFT): float64 for double
    inputs, else float32."""
    return np.asarray(out, np.float64 if _double(x) else np.float32)


def _check_input(name: str, x, real_in: bool) -> np.ndarray:
    x = np.asarray(x)
    if x.dtype.kind not in ("iuf" if real_in else "iufc") or x.ndim == 0:
        kind = "real" if real_in else "numeric"
        raise ValueError(f"{name}: input must be a {kind} tensor of rank >= 1, got "
                         f"{x.dtype} of shape {x.shape}")
    # integers and float16 are transformed as float32 (pocketfft has no half)
    return x.astype(np.float32) if x.dtype.kind in "iu" or x.dtype == np.float16 else x


def transform(name, fn, x, n, dim, norm, real_in=False, real_out=False):
    """A 1-D transform ``fn`` (np.fft.fft, ...) of length n along dim;
    real_in: x must be real (RFFT, IHFFT); real_out: the result is real."""
    x = _check_input(name, x, real_in)
    n = None if n is None else int(args.scalar(n))
    out = fn(x, n, one_axis(dim, x.ndim), norm_mode(norm))
    return real_result(x, out) if real_out else complex_result(x, out)


def transform_n(name, fn, x, s, dim, norm, real_in=False, real_out=False):
    """An N-D transform ``fn`` (np.fft.fftn, ...) over dim (None: the last
    len(s) axes, or every axis) with sizes s (None: the input's)."""
    x = _check_input(name, x, real_in)
    s, dim = optional_ints(s), optional_ints(dim)
    if s is not None and dim is not None and len(s) != len(dim):
        raise ValueError(f"{name}: s {s} and dim {dim} must have the same length")
    if s is not None and dim is None:   # NumPy 2 wants the axes spelled out
        dim = tuple(range(x.ndim - len(s), x.ndim))
    if dim is not None:
        dim = _axes(name, dim, x.ndim)
    out = fn(x, s, dim, norm_mode(norm))
    return real_result(x, out) if real_out else complex_result(x, out)


def _axes(name: str, dim: tuple, ndim: int) -> tuple[int, ...]:
    """dim's axes wrapped into [0, ndim): at least one, none twice."""
    if not dim:
        raise ValueError(f"{name}: dim (or s) must name at least one axis, got "
                         f"{dim} for an input of rank {ndim}")
    try:
        return reduce_axes(dim, ndim)
    except ValueError as exc:
        raise ValueError(f"{name}: dim {dim}: {exc}") from None


def hermitian_fftn(x, s, axes, norm):
    """The Hermitian N-D transform: irfftn of conj(x) scaled as a forward
    transform (np.fft.hfft's rule, over several axes)."""
    return np.fft.irfftn(np.conj(x), s, axes, OPPOSITE[norm])


def hermitian_ifftn(x, s, axes, norm):
    """The inverse Hermitian N-D transform: conj(rfftn(x)) scaled as an
    inverse transform."""
    return np.conj(np.fft.rfftn(x, s, axes, OPPOSITE[norm]))


# The convert= tables of the 1-D and the 2-D / N-D transforms.
NORM = {"norm": norm_mode}
AXES = {"norm": norm_mode, "s": optional_ints, "dim": optional_ints}
