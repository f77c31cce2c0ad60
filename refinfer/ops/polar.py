"""Polar."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS


@register("Polar", family="elementwise", dtypes=FLOATS, no_kernel="native")
def polar(abs, angle):
    """A complex tensor from magnitude and phase, elementwise.

    y = abs * (cos(angle) + i sin(angle)). Arguments: abs, angle (one float
    dtype, broadcast; float32 -> complex64, float64 -> complex128).
    """
    if abs.dtype.kind != "f" or abs.dtype != angle.dtype:
        raise TypeError(f"Polar: abs and angle must be float tensors of one dtype, got "
                        f"{abs.dtype} and {angle.dtype}")
    out = abs * (np.cos(angle) + 1j * np.sin(angle))
    return out.astype(np.complex128 if abs.dtype == np.float64 else np.complex64)
