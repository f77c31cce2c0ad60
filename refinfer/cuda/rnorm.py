"""The ``cuda`` kernels of the norms no other runner has (RmsNorm and
AddRmsNorm of LLMs, InstanceNormV2, LRN) and of the rotary position
embeddings (RotaryPositionEmbedding, ApplyRotaryPosEmb: one kernel): the
norms are row kernels, one thread per normalised row (a grid-stride loop
over rows), LRN and the embeddings one thread per element;
float32 and float64; float16 in float32 as the references compute it, for
RmsNorm, LRN and RotaryPositionEmbedding through refinfer/cuda/half.py, for
ApplyRotaryPosEmb in its kernel (AddRmsNorm and InstanceNormV2 decline
it). Importing this module declares them."""
from __future__ import annotations

import math

import numpy as np

from refinfer import registry

from . import device
from .device import cuda, dmath
from .half import in_float32
from .index import cast

DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


@device.jit
def _rms_rows(x, gamma, epsilon, y, inverse):
    """Per row r of x (rows, width): inverse[r] = 1 / sqrt(mean(x[r] ** 2)
    + epsilon), y[r] = x[r] * inverse[r] * gamma."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    width = x.shape[1]
    for row in range(start, x.shape[0], stride):
        total = x[row, 0] * 0       # x's dtype, as the reference's mean
        for k in range(width):
            total += x[row, k] * x[row, k]
        scale = 1 / dmath.sqrt(total / width + epsilon)
        inverse[row] = scale
        for k in range(width):
            y[row, k] = x[row, k] * scale * gamma[k]


def rms_norm(x, gamma, epsilon=1e-6):
    """RmsNorm's (y, rstd) on the device; None (the CPU kernel then gives
    the result or the reference's error) for float16 or a gamma that is
    not x's trailing shape."""
    lead = x.ndim - gamma.ndim
    if (x.dtype not in DTYPES or lead < 0 or x.shape[lead:] != gamma.shape
            or not gamma.size):
        return None
    rows = math.prod(x.shape[:lead])
    y = device.empty(x.shape, x.dtype)
    inverse = device.empty(x.shape[:lead] + (1,) * gamma.ndim, x.dtype)
    if rows:
        device.launch(_rms_rows, rows, x.reshape(rows, gamma.size),
                      gamma.reshape(-1), x.dtype.type(epsilon),
                      y.reshape(rows, gamma.size), inverse.reshape(-1))
    return y, inverse


def add_rms_norm(x1, x2, gamma, epsilon=1e-6):
    """AddRmsNorm's (y, rstd, x): the sum by Add's cuda kernel (rounded to
    x1's dtype), then :func:`rms_norm`; None where either declines."""
    if x1.shape != x2.shape or x1.dtype != x2.dtype:
        return None
    x = registry.get_op("Add").kernels["cuda"](x1, x2)
    normalised = None if x is None else rms_norm(x, gamma, epsilon)
    return None if normalised is None else (*normalised, x)


@device.device_function
def _along(index, length):
    """``index`` along an axis of ``length``, or 0 where it broadcasts
    (length 1). Not min(): numba.cuda 0.68 fails to compile min(a, b)."""
    return index if length > 1 else 0


@device.jit
def _rotate(x, cos, sin, interleaved, out):
    """out = x * cos + rotate(x) * sin over 4-D x, cos and sin of x's rank
    with axes of length 1 broadcast, rotate the half rotation (GPT-NeoX)
    or the interleaved one (GPT-J) along the last axis."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    n1, n2, n3 = x.shape[1], x.shape[2], x.shape[3]
    half = n3 // 2
    for i in range(start, x.size, stride):
        a, rest = i // (n1 * n2 * n3), i % (n1 * n2 * n3)
        b, rest = rest // (n2 * n3), rest % (n2 * n3)
        c, d = rest // n3, rest % n3
        if interleaved:
            partner = d + 1 if d % 2 == 0 else d - 1
            negated = d % 2 == 0
        else:
            partner = d + half if d < half else d - half
            negated = d < half
        # (a negation, not a product with -1: an int literal makes it float64)
        rotated = -x[a, b, c, partner] if negated else x[a, b, c, partner]
        cos_value = cos[_along(a, cos.shape[0]), _along(b, cos.shape[1]),
                        _along(c, cos.shape[2]), _along(d, cos.shape[3])]
        sin_value = sin[_along(a, sin.shape[0]), _along(b, sin.shape[1]),
                        _along(c, sin.shape[2]), _along(d, sin.shape[3])]
        out[a, b, c, d] = x[a, b, c, d] * cos_value + rotated * sin_value


def _broadcasts_to(shape, target) -> bool:
    """Whether ``shape`` broadcasts to ``target`` without growing it."""
    # Tuples: the simulator's shapes take no negative index.
    shape, target = tuple(shape), tuple(target)
    return len(shape) <= len(target) and all(
        n in (1, m) for n, m in zip(shape[::-1], target[::-1]))


def _as_4d(array):
    """``array`` (rank <= 4) with leading axes of length 1 added."""
    return array.reshape((1,) * (4 - array.ndim) + array.shape)


def rotary_position_embedding(x, cos, sin, mode=0):
    """RotaryPositionEmbedding on the device; None (the CPU kernel then
    gives the result or the reference's error) for float16 (the kernel
    takes it through half.in_float32), an odd last
    axis, a mode other than 0 and 1, or cos and sin that do not broadcast
    to x or differ from x's dtype."""
    if (x.dtype not in DTYPES or x.ndim != 4 or x.shape[3] % 2
            or int(mode) not in (0, 1)
            or not all(t.dtype == x.dtype and _broadcasts_to(t.shape, x.shape)
                       for t in (cos, sin))):
        return None
    out = device.empty(x.shape, x.dtype)
    if out.size:
        device.launch(_rotate, out.size, x, _as_4d(cos), _as_4d(sin),
                      int(mode) == 1, out)
    return out


def _embed_heads(x, cos, sin, interleaved: bool):
    """ApplyRotaryPosEmb's rotation of x (T, N * D) or (B, S, N * D) with
    cos and sin (T, D) of x's dtype, by :func:`_rotate` over x as (1, T,
    N, D); None where the shapes or dtypes do not fit."""
    dim = cos.shape[1] if cos.ndim == 2 else 0
    tokens = x.size // x.shape[x.ndim - 1] if x.ndim and x.shape[x.ndim - 1] else 0
    if x.dtype not in DTYPES or x.ndim not in (2, 3) or not dim or dim % 2 \
            or x.shape[x.ndim - 1] % dim or tuple(cos.shape) != (tokens, dim) \
            or tuple(sin.shape) != (tokens, dim) \
            or not cos.dtype == sin.dtype == x.dtype:
        return None
    out = device.empty(x.shape, x.dtype)
    if out.size:
        heads = (1, tokens, x.size // tokens // dim, dim)
        device.launch(_rotate, out.size, x.reshape(heads),
                      *(t.reshape(1, tokens, 1, dim) for t in (cos, sin)), interleaved,
                      out.reshape(heads))
    return out


def apply_rotary_pos_emb(query, key, cos, sin, position_ids, cos_format=0):
    """ApplyRotaryPosEmb's (query_embed, key_embed): cos_format 2 (rotate
    half) and 3 (interleaved) on the device, float16 cast to float32 and
    the results back (Cast's kernel), as the reference computes them; None
    for the other formats (the reference's error) or shapes that do not
    fit."""
    tensors = (query, key, cos, sin)
    half = all(t.dtype == np.float16 for t in tensors)
    if cos_format not in (2, 3):
        return None
    query, key, cos, sin = (cast(t, np.float32) for t in tensors) if half else tensors
    embedded = tuple(_embed_heads(x, cos, sin, cos_format == 3) for x in (query, key))
    if any(e is None for e in embedded):
        return None
    return tuple(cast(e, np.float16) for e in embedded) if half else embedded


@device.jit
def _instance_rows(x, gamma, beta, mean, variance, training, epsilon, y,
                   mean_out, variance_out):
    """Per row r of x (rows, width): m, v = the row's mean and biased
    variance (training) or mean[r], variance[r]; y[r] = (x[r] - m) /
    sqrt(v + epsilon) * gamma[r] + beta[r]; m and v written out."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    width = x.shape[1]
    for row in range(start, x.shape[0], stride):
        centre, spread = x[row, 0] * 0 + mean[row], x[row, 0] * 0 + variance[row]
        if training:
            total = x[row, 0] * 0
            for k in range(width):
                total += x[row, k]
            centre = total / width
            total = x[row, 0] * 0
            for k in range(width):
                total += (x[row, k] - centre) * (x[row, k] - centre)
            spread = total / width
        scale = 1 / dmath.sqrt(spread + epsilon)
        for k in range(width):
            y[row, k] = (x[row, k] - centre) * scale * gamma[row] + beta[row]
        mean_out[row], variance_out[row] = centre, spread


def instance_norm_v2(x, gamma, beta, mean, variance, is_training=True,
                     momentum=0.1, epsilon=1e-5):
    """InstanceNormV2's (y, mean, variance) on the device; None (the CPU
    kernel then runs) for float16, no spatial elements, or parameters
    that are not one per (sample, channel)."""
    if x.dtype not in DTYPES or x.ndim < 2:
        return None
    rows = x.shape[0] * x.shape[1]
    width = math.prod(x.shape[2:])
    parameters = (gamma, beta, mean, variance)
    if not width or not rows or any(p.size != rows or p.ndim != x.ndim
                                    for p in parameters):
        return None
    y = device.empty(x.shape, x.dtype)
    mean_out = device.empty(mean.shape, mean.dtype)
    variance_out = device.empty(variance.shape, variance.dtype)
    device.launch(_instance_rows, rows, x.reshape(rows, width),
                  *(p.reshape(rows) for p in parameters), bool(is_training),
                  x.dtype.type(epsilon), y.reshape(rows, width),
                  mean_out.reshape(rows), variance_out.reshape(rows))
    return y, mean_out, variance_out


@device.jit
def _local_response(x, radius, bias, alpha, beta, y):
    """y[n, c, h, w] = x[n, c, h, w] / (bias + alpha * the sum of x ** 2
    over channels c - radius .. c + radius) ** beta."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    channels, height, width = x.shape[1], x.shape[2], x.shape[3]
    for i in range(start, x.size, stride):
        n, c = i // (channels * height * width), (i // (height * width)) % channels
        h, w = (i // width) % height, i % width
        total = x[n, c, h, w] * 0
        low, high = c - radius, c + radius + 1
        for k in range(low if low > 0 else 0, high if high < channels else channels):
            total += x[n, k, h, w] * x[n, k, h, w]
        y[n, c, h, w] = x[n, c, h, w] / (bias + alpha * total) ** beta


def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,
        norm_region="ACROSS_CHANNELS"):
    """LRN on the device; None (the CPU kernel then gives the result or
    the reference's error) for float16, an input that is not 4-D or
    another norm_region."""
    if (x.dtype not in DTYPES or x.ndim != 4
            or str(norm_region).upper() != "ACROSS_CHANNELS"):
        return None
    y = device.empty(x.shape, x.dtype)
    if y.size:
        scalar = x.dtype.type
        device.launch(_local_response, y.size, x, int(depth_radius), scalar(bias),
                      scalar(alpha), scalar(beta), y)
    return y


KERNELS = {"RmsNorm": in_float32(rms_norm, rounded=(0,)),   # (rstd: float32)
           "AddRmsNorm": add_rms_norm,
           "RotaryPositionEmbedding": in_float32(rotary_position_embedding),
           "ApplyRotaryPosEmb": apply_rotary_pos_emb,
           "InstanceNormV2": instance_norm_v2, "LRN": in_float32(lrn)}
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [("rms rows, float32", _rms_rows,
        "void(float32[:, ::1], float32[::1], float32, float32[:, ::1], float32[::1])"),
       ("rotary embedding, float32", _rotate,
        "void(float32[:, :, :, ::1], float32[:, :, :, ::1], float32[:, :, :, ::1],"
        " boolean, float32[:, :, :, ::1])"),
       ("instance norm rows, float32", _instance_rows,
        "void(float32[:, ::1], float32[::1], float32[::1], float32[::1], float32[::1],"
        " boolean, float32, float32[:, ::1], float32[::1], float32[::1])"),
       ("local response norm, float64", _local_response,
        "void(float64[:, :, :, ::1], int64, float64, float64, float64,"
        " float64[:, :, :, ::1])")]
