"""Complex."""
import numpy as np

from refinfer.registry import register

from ._ref.common import require_dtype

COMPLEX_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}


@register("Complex", family="elementwise", dtypes=("float32", "float64"),
          no_kernel="vectorised")
def complex(real, imag):
    """Elementwise complex number real + i imag.

    Arguments: real, imag (both float32, giving complex64, or both float64,
    giving complex128; broadcast together).
    """
    require_dtype("Complex", "real", real, ("float32", "float64"))
    if imag.dtype != real.dtype:
        raise TypeError(f"Complex: real and imag must share a dtype, got "
                        f"{real.dtype} and {imag.dtype}")
    out = np.empty(np.broadcast_shapes(real.shape, imag.shape), COMPLEX_OF[real.dtype])
    out.real, out.imag = real, imag
    return out
