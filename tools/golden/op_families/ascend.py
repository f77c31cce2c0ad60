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


def ref_rotary(x, cos, sin, mode):
    """x * cos + rotate(x) * sin, rotate_half (mode 0) or interleaved (mode 1)."""
    x64 = x.astype(np.float64)
    half = x.shape[-1] // 2
    if mode == 0:
        rotated = np.concatenate((-x64[..., half:], x64[..., :half]), axis=-1)
    else:
        rotated = np.empty_like(x64)
        rotated[..., 0::2] = -x64[..., 1::2]
        rotated[..., 1::2] = x64[..., 0::2]
    return [(x64 * cos + rotated * sin).astype(x.dtype)]


def rotary_case(name, mode, x_shape, table_shape, dtype="float32", layout=""):
    return OpCase(name, "RotaryPositionEmbedding",
                  f"ops.rotary_position_embedding(x, y, z, {mode})",
                  [t(x_shape, dtype, -2, 2), t(table_shape, dtype, -1, 1),
                   t(table_shape, dtype, -1, 1)],
                  f"ops.rotary_position_embedding mode {mode} "
                  f"({'rotate_half' if mode == 0 else 'interleaved'}), {layout}"
                  + FLOAT64_NOTE,
                  reference=lambda x, c, s: ref_rotary(x, c, s, mode))


CASES += [
    rotary_case("rope_half_bnsd", 0, (2, 3, 4, 8), (1, 1, 4, 8), layout="x BNSD, cos 11SD"),
    rotary_case("rope_half_bsnd", 0, (2, 4, 3, 8), (2, 4, 1, 8), layout="x BSND, cos BS1D"),
    rotary_case("rope_interleaved", 1, (1, 2, 4, 6), (1, 1, 4, 6), layout="x BNSD, cos 11SD"),
    rotary_case("rope_half_float16", 0, (1, 2, 4, 8), (1, 1, 4, 8), "float16",
                layout="float16 (computed in float32)"),
]


def ref_moe_gating(x, finished, k):
    """Top-k of softmax(x) per row (largest first, ties by lower expert), experts
    (E where finished), and row_idx[r, j] = j * rows + r."""
    x64 = x.astype(np.float64)
    probs = np.exp(x64 - x64.max(-1, keepdims=True))
    probs /= probs.sum(-1, keepdims=True)
    flat = probs.reshape(-1, x.shape[-1])
    y, idx, rows = [], [], len(flat)
    for r, row in enumerate(flat):
        top = sorted(range(len(row)), key=lambda e: (-row[e], e))[:k]
        y.append(row[top])
        idx.append([x.shape[-1] if finished is not None and finished.reshape(-1)[r] else e
                    for e in top])
    shape = x.shape[:-1] + (k,)
    row_idx = [[j * rows + r for j in range(k)] for r in range(rows)]
    return [np.array(y).reshape(shape).astype(x.dtype),
            np.array(idx, np.int32).reshape(shape),
            np.array(row_idx, np.int32).reshape(shape)]


CASES += [
    OpCase("moe_gating_topk_softmax", "MoeGatingTopKSoftmax",
           "ops.auto_generate.MoeGatingTopKSoftmax()(x, y, 2)",
           [t((5, 6)), lambda rng: rng.random(5) < 0.4],
           "MoeGatingTopKSoftmax, k = 2, some rows finished" + FLOAT64_NOTE,
           reference=lambda x, f: ref_moe_gating(x, f, 2)),
    OpCase("moe_gating_topk_softmax_3d", "MoeGatingTopKSoftmax",
           "ops.auto_generate.MoeGatingTopKSoftmax()(x, None, 3)", [t((2, 3, 8))],
           "MoeGatingTopKSoftmax on 3-D x, k = 3, no finished rows" + FLOAT64_NOTE,
           reference=lambda x: ref_moe_gating(x, None, 3)),
]
