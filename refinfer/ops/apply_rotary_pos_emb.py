"""ApplyRotaryPosEmb (Ascend)."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, compute_dtype, require_dtype
from ._ref.math import rotated

OP = "ApplyRotaryPosEmb"
PER_TOKEN_FORMATS = {2: False, 3: True}     # cos_format -> interleaved


@register(OP, family="nn", dtypes=FLOATS, no_kernel="oracle",
          convert={"cos_format": args.integer})
def apply_rotary_pos_emb(query, key, cos, sin, position_ids, cos_format=0):
    """Rotary embedding of query and key (Ascend only; a CPU oracle here).

    Returns (query_embed, key_embed)::

        out = x * cos[t] + rotate(x) * sin[t]   for each head of token t

    query (T, Nq * D) or (B, S, Nq * D), key likewise with its own heads;
    cos, sin (T, D): one row per token (T = B * S), with cos_format 2
    (rotate_half: rotate(x) = concat(-x[D/2:], x[:D/2])) or 3 (interleaved
    pairs), the formats of MindSpore's internal kernel header
    (ApplyRotaryPosEmbParam). Formats 0 and 1 take a (max_seq_len, D)
    table whose rows the kernel picks from position_ids in a way MindSpore
    does not document: a clear error here. position_ids is not read for 2
    and 3. Outputs have the inputs' shapes and dtype (float16 computed in
    float32).
    """
    for name, value in (("query", query), ("key", key), ("cos", cos),
                        ("sin", sin)):
        require_dtype(OP, name, value, FLOATS)
    if cos_format not in PER_TOKEN_FORMATS:
        raise ValueError(f"{OP}: cos_format {cos_format} (a per-position table "
                         f"indexed by position_ids) is not supported; refinfer "
                         f"runs cos_format 2 and 3 (one cos/sin row per token)")
    return tuple(_embed(x, name, cos, sin, PER_TOKEN_FORMATS[cos_format])
                 for x, name in ((query, "query"), (key, "key")))


def _embed(x, name, cos, sin, interleaved):
    dim = cos.shape[-1] if cos.ndim == 2 else 0
    tokens = x.size // x.shape[-1] if x.ndim and x.shape[-1] else 0
    if not dim or x.ndim not in (2, 3) or x.shape[-1] % dim or dim % 2 \
            or cos.shape != (tokens, dim) or sin.shape != cos.shape:
        raise ValueError(f"{OP}: {name} {list(x.shape)} must be (T, N * D) or (B, S, "
                         f"N * D) with cos and sin (T, D), D even, got cos "
                         f"{list(cos.shape)} and sin {list(sin.shape)}")
    work = compute_dtype(x.dtype)
    heads = x.reshape(tokens, -1, dim).astype(work, copy=False)
    c, s = (t.astype(work, copy=False)[:, None, :] for t in (cos, sin))
    return (heads * c + rotated(heads, interleaved) * s).reshape(x.shape).astype(x.dtype)
