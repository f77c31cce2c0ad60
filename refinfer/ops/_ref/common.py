"""Helpers shared by the reference kernels."""
from __future__ import annotations

import numpy as np

from refinfer.dtypes import BFLOAT16
from refinfer.errors import describe_value

FLOATS = ("float16", "float32", "float64")
SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
INTS = SIGNED + UNSIGNED
NUMBERS = FLOATS + INTS
ALL = NUMBERS + ("bool",)


def promote(a, b):
    """Operands of a binary op as arrays of MindSpore's result dtype.

    A Python scalar takes the tensor's dtype (``Muls(x, 2)`` keeps x's dtype),
    except a float scalar with an integer or bool tensor, which gives float32.
    Between tensors, a float tensor wins over an integer or bool one,
    float16 and bfloat16 give float32; otherwise NumPy's promotion applies.
    """
    a_t, b_t = isinstance(a, np.ndarray), isinstance(b, np.ndarray)
    if a_t and b_t:
        dtype = _tensor_result_type(a.dtype, b.dtype)
    elif a_t or b_t:
        tensor, other = (a, b) if a_t else (b, a)
        dtype = _scalar_result_type(tensor.dtype, other)
    else:
        return a, b  # scalar arithmetic stays Python
    return _as_dtype(a, dtype), _as_dtype(b, dtype)


def _as_dtype(value, dtype: np.dtype) -> np.ndarray:
    """``value`` as an array of ``dtype``; an out-of-range Python int wraps
    (MindSpore: ``uint8_tensor > -1`` compares against 255)."""
    if isinstance(value, np.ndarray):
        return value.astype(dtype, copy=False)
    return np.asarray(number(value)).astype(dtype)


def number(value):
    """``value`` if it is a number (Python or NumPy), else a TypeError
    saying what it is (a corrupt graph passes dicts, dtypes, None)."""
    if not isinstance(value, (bool, int, float, complex, np.generic)):
        raise TypeError(f"expected a number or a tensor, got "
                        f"{describe_value(value)}")
    return value


def _tensor_result_type(x: np.dtype, y: np.dtype) -> np.dtype:
    x_float, y_float = is_float(x), is_float(y)
    if x_float != y_float:
        return x if x_float else y
    if {x, y} == {np.dtype(np.float16), BFLOAT16}:
        return np.dtype(np.float32)     # MindSpore's; NumPy knows no common type
    return np.result_type(x, y)


def is_float(dtype: np.dtype) -> bool:
    """Floating or complex, bfloat16 included (ml_dtypes gives it kind V)."""
    return dtype.kind in "fc" or dtype == BFLOAT16


def _scalar_result_type(tensor: np.dtype, scalar) -> np.dtype:
    if isinstance(scalar, (float, np.floating)) and tensor.kind in "biu":
        return np.dtype(np.float32)
    if isinstance(scalar, (int, np.integer)) and tensor.kind == "b" \
            and not isinstance(scalar, bool):
        return np.dtype(np.int64)
    return tensor


def as_result(value, dtype=None) -> np.ndarray:
    """A kernel result as an ndarray (NumPy returns scalars for 0-d math)."""
    out = np.asarray(value)
    return out if dtype is None else out.astype(dtype, copy=False)


def compute_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype to accumulate in: float16 math runs in float32."""
    dtype = np.dtype(dtype)
    return np.dtype(np.float32) if dtype == np.float16 else dtype


def as_float(x: np.ndarray) -> np.ndarray:
    """Integer and bool inputs of float-valued math (Sqrt, Exp) -> float32."""
    require_tensors("", input=x)
    return x if x.dtype.kind in "fc" else x.astype(np.float32)


def float_to_int(x: np.ndarray, dtype) -> np.ndarray:
    """Float -> integer conversion as MindSpore's CPU kernels do it.

    Truncates toward zero. Integer types narrower than 64 bits except uint32
    convert through int32, the others through int64, then wrap: NaN, +-inf
    and out-of-range values become the intermediate's minimum (so -2**31 for
    int32, 0 for int8/uint8/int16), 300.0 -> uint8 gives 44, -1.7 -> 255.
    (A plain C cast, as NumPy's astype, is undefined there.)
    """
    dtype = np.dtype(dtype)
    via = np.dtype(np.int32) if dtype.itemsize < 4 or dtype == np.int32 \
        else np.dtype(np.int64)
    limit = 2.0 ** (8 * via.itemsize - 1)
    t = np.trunc(np.asarray(x, dtype=np.float64))
    bad = ~np.isfinite(t) | (t < -limit) | (t >= limit)
    wide = np.where(bad, 0.0, t).astype(via)
    wide[bad] = np.iinfo(via).min
    return wide.astype(dtype)


def cast(x: np.ndarray, dtype) -> np.ndarray:
    """Convert to ``dtype`` as MindSpore's Cast does (see float_to_int)."""
    dtype = np.dtype(dtype)
    if x.dtype.kind == "f" and dtype.kind in "iu":
        return float_to_int(x, dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        return x.astype(dtype)


def matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``np.matmul`` of two tensors in their promoted dtype; float16
    products accumulate in float32 (and use BLAS)."""
    a, b = promote(a, b)
    work = compute_dtype(a.dtype)
    out = np.matmul(a.astype(work, copy=False), b.astype(work, copy=False))
    return as_result(out, a.dtype)


def optional(normalise):
    """A normaliser that lets None through (an absent optional argument)."""
    def normalise_optional(value):
        return None if value is None else normalise(value)
    return normalise_optional


def require_tensors(op: str, **values) -> None:
    """A clear error where an argument the op needs as a tensor is not one
    (a node that lost an input passes the parameter's default; a mutated
    model may pass a Python scalar or a tuple). A NumPy scalar counts as
    the 0-d tensor it stands for."""
    for name, value in values.items():
        if not isinstance(value, (np.ndarray, np.generic)):
            where = f"{op}: {name}" if op else name
            raise TypeError(f"{where} must be a tensor, got "
                            f"{describe_value(value)}")


def optional_tensors(op: str, **values) -> None:
    """:func:`require_tensors` for arguments that may also be None."""
    require_tensors(op, **{name: value for name, value in values.items()
                           if value is not None})


def require_dtype(op: str, name: str, value, dtypes: tuple[str, ...]) -> None:
    """A clear error where ``value`` is not a tensor of one of ``dtypes``
    (the dtypes the op takes). A device array counts by its dtype (the
    CUDA target shares some ops' checks)."""
    host = isinstance(value, (np.ndarray, np.generic))
    if not host and not hasattr(value, "dtype"):
        require_tensors(op, **{name: value})
    dtype = np.dtype(value.dtype)
    if dtype.name not in dtypes:
        shown = describe_value(value) if host \
            else f"{dtype}{list(value.shape)}"
        raise TypeError(f"{op}: {name} must be {', '.join(dtypes)}, got "
                        f"{shown}")


def square_matrices(op: str, name: str, x) -> None:
    """A clear error unless ``x`` is a stack of square matrices (..., n, n)."""
    require_tensors(op, **{name: x})
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{op}: {name} must be (..., n, n), got shape {x.shape}")


def none_of(op: str, why: str, **values) -> None:
    """A clear error for inputs that refinfer does not model (an Ascend
    kernel's quantisation scales, dropout): each of ``values`` must be None;
    ``why`` says what refinfer runs instead."""
    given = [name for name, value in values.items() if value is not None]
    if given:
        verb = "is" if len(given) == 1 else "are"
        raise ValueError(f"{op}: {', '.join(given)} {verb} not supported by refinfer "
                         f"({why}); pass None")
