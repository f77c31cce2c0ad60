"""Ascend inference ops (issue 14, part 4): MindSpore 2.7.1 exports them on CPU but has
no CPU kernel, so every output here is an independent float64 NumPy computation of the
documented semantics (written without refinfer), rounded to the output dtype; each
case's description says so.
"""
import numpy as np

from op_cases import OpCase, t

FLOAT64_NOTE = " (outputs: independent float64 NumPy reference; Ascend-only op)"


def ref_rms_norm(x, gamma, epsilon):
    """(y, rstd): rstd = 1 / sqrt(mean(x^2) + eps) over gamma's trailing axes."""
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    x64 = x.astype(np.float64)
    rstd = 1.0 / np.sqrt(np.mean(x64 * x64, axis=axes, keepdims=True) + epsilon)
    return [(x64 * rstd * gamma).astype(x.dtype), rstd.astype(np.float32)]


def ref_add_rms_norm(x1, x2, gamma, epsilon):
    """(y, rstd, x1 + x2)."""
    x = (x1.astype(np.float64) + x2).astype(x1.dtype)
    return ref_rms_norm(x, gamma, epsilon) + [x]


CASES = [
    OpCase("rms_norm", "RmsNorm", "P.RmsNorm(1e-5)(x, y)", [t((2, 3, 8)), t((8,))],
           "ops.RmsNorm over the last axis" + FLOAT64_NOTE,
           reference=lambda x, g: ref_rms_norm(x, g, 1e-5)),
    OpCase("rms_norm_2d_gamma", "RmsNorm", "P.RmsNorm()(x, y)", [t((2, 4, 6)), t((4, 6))],
           "ops.RmsNorm over the last two axes, default epsilon" + FLOAT64_NOTE,
           reference=lambda x, g: ref_rms_norm(x, g, 1e-6)),
    OpCase("rms_norm_float16", "RmsNorm", "P.RmsNorm()(x, y)",
           [t((3, 16), "float16"), t((16,), "float16")],
           "ops.RmsNorm in float16 (computed in float32)" + FLOAT64_NOTE,
           reference=lambda x, g: ref_rms_norm(x, g, 1e-6)),
    OpCase("add_rms_norm", "AddRmsNorm", "ops.auto_generate.AddRmsNorm()(x, y, z, 1e-5)",
           [t((2, 3, 8)), t((2, 3, 8)), t((8,))],
           "ops.AddRmsNorm: residual add then RmsNorm; returns (y, rstd, x1 + x2)"
           + FLOAT64_NOTE, reference=lambda a, b, g: ref_add_rms_norm(a, b, g, 1e-5)),
]
