"""RotaryPositionEmbedding (Ascend)."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, compute_dtype, require_dtype
from ._ref.math import rotated


@register("RotaryPositionEmbedding", family="nn", dtypes=FLOATS, no_kernel="oracle",
          convert={"mode": args.scalar})
def rotary_position_embedding(x, cos, sin, mode=0):
    """Rotary position embedding (Ascend only in MindSpore; a CPU oracle
    here): out = x * cos + rotate(x) * sin, with cos and sin broadcast to
    x's shape (BNSD, BSND or SBND layouts alike), where along the last axis
    (D, even)

        mode 0, rotate_half (GPT-NeoX): rotate(x) = concat(-x[D/2:], x[:D/2])
        mode 1, interleaved (GPT-J):    rotate(x)[2i] = -x[2i+1],
                                        rotate(x)[2i+1] = x[2i]

    Arguments: x (4-D); cos, sin (x's dtype, broadcastable to x); mode=0.
    Output has x's dtype; float16 is computed in float32.
    """
    for name, value in (("x", x), ("cos", cos), ("sin", sin)):
        require_dtype("RotaryPositionEmbedding", name, value, FLOATS)
    if x.ndim != 4 or x.shape[-1] % 2:
        raise ValueError(f"x must be 4-D with an even last dim, got shape "
                         f"{list(x.shape)}")
    if int(mode) not in (0, 1):
        raise ValueError(f"mode must be 0 (rotate_half) or 1 (interleaved), "
                         f"got {mode}")
    work = compute_dtype(x.dtype)
    xw = x.astype(work, copy=False)
    out = (xw * cos.astype(work, copy=False)
           + rotated(xw, int(mode) == 1) * sin.astype(work, copy=False))
    return out.astype(x.dtype)
