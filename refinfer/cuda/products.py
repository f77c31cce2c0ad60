"""The ``cuda`` kernels of the products built on gemm.py's tiled runner
(:func:`refinfer.cuda.gemm.product`), declared in :data:`KERNELS`:

- Baddbmm: the batched product, then beta * input + alpha * product in
  one broadcast pass;
- GroupedMatmul: one product per pair of lists (bias added by the
  product's kernel), or, split_item 3, one product per group of x's rows
  (group_list, E small integers, is read back: the groups' bounds are
  launch sizes);
- Einsum: NumPy's einsum as one product where it is one: the letters of
  an operand summed nowhere else (in no other operand, not in the
  output) summed first (reduce.py's sum; float32 and wider: float16
  would be rounded twice), then one operand's letters permuted (a
  transpose), or two operands' split into batch (both operands and the
  output), contracted (both, not the output) and free ones (one operand
  and the output): each operand transposed to (batch, free, contracted),
  one batched product, its result transposed to the output's order. What
  is not declines with its reason in :func:`einsum_plan` (three or more
  operands, "...", a letter repeated in one operand (a diagonal)): the
  CPU kernel runs it.

Floats (float16: the product accumulates in float32 and is rounded once,
as the references' matmul; what is added to it is added in float32 and
rounded again, as NumPy's float16 arithmetic); Einsum takes integers too
(exact).
"""
from __future__ import annotations

import math

import numpy as np

from refinfer import registry
from refinfer.ops._ref.common import compute_dtype

from . import device
from .device import cuda
from .fill import filled
from .gemm import product
from .index import transpose
from .layout import broadcast_strides, flat, offset
from .reduce import SUM, reduce

FLOATS = tuple(map(np.dtype, (np.float16, np.float32, np.float64)))


@device.jit
def _scaled_sum(input, dims, input_strides, beta, alpha, out):
    """out = beta * input (broadcast to out's shape dims) + alpha * out, in
    the type of beta and alpha (float32 for float16 arrays)."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    for i in range(start, out.size, stride):
        out[i] = beta * input[offset(i, dims, input_strides)] + alpha * out[i]


def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    """Baddbmm: batch1 (B, n, m) @ batch2 (B, m, p), input broadcast to
    (B, n, p), all of one float dtype."""
    if batch1.ndim != 3 or batch2.ndim != 3 or batch1.shape[0] != batch2.shape[0] \
            or batch1.dtype not in FLOATS or input.dtype != batch1.dtype:
        return None
    out = product(batch1, batch2)
    return None if out is None else _add_scaled(out, input, beta, alpha)


def _add_scaled(out, input, beta, alpha):
    """out = beta * input + alpha * out in the compute dtype, input
    broadcast to out's shape (out itself); None where it does not
    broadcast."""
    shape = tuple(out.shape)
    try:
        if np.broadcast_shapes(tuple(input.shape), shape) != shape:
            return None
    except ValueError:
        return None
    if out.size:
        scalar = compute_dtype(out.dtype).type
        device.launch(_scaled_sum, out.size, flat(input), device.constant(shape),
                      broadcast_strides(tuple(input.shape), shape), scalar(beta),
                      scalar(alpha), flat(out))
    return out


def _affine(a, w, bias, transpose_a=False, transpose_b=False):
    """a @ w + bias (n,) or None; float16's bias added to the product
    rounded to float16, as the reference's (y + b); None where the product
    declines."""
    if bias is None or a.dtype != np.float16:
        return product(a, w, transpose_a, transpose_b, bias)
    y = product(a, w, transpose_a, transpose_b)
    return None if y is None or bias.dtype != y.dtype else _add_scaled(y, bias, 1, 1)


def _listed(value) -> list | None:
    """A tensor or a sequence of them as a list of device arrays; None
    where one is not a device array."""
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    return items if items and all(map(device.is_device_array, items)) else None


def _group_ends(group_list, rows: int) -> list[int] | None:
    """The groups' row ends, read back; None unless non-decreasing and
    within ``rows`` (the reference's rule)."""
    ends = [int(e) for e in device.to_host(group_list).reshape(-1)]
    if not ends or any(a > b for a, b in zip([0, *ends], ends)) or ends[-1] > rows:
        return None
    return ends


def _grouped(x, weight, bias, group_list, transpose_b):
    """split_item 3: y[start_e:end_e] = x[start_e:end_e] @ weight[e] +
    bias[e], rows past the last end zero; None where it does not fit."""
    experts = weight.shape[0]
    if x.ndim != 2 or weight.ndim != 3 or group_list is None \
            or tuple(group_list.shape) != (experts,) \
            or group_list.dtype.kind not in "iu" \
            or bias is not None and (bias.ndim != 2 or bias.shape[0] != experts):
        return None
    ends = _group_ends(group_list, x.shape[0])
    columns = weight.shape[1 if transpose_b else 2]
    if ends is None or x.dtype != weight.dtype:
        return None
    y = filled((x.shape[0], columns), np.zeros((), x.dtype))
    for e, (start, end) in enumerate(zip([0, *ends], ends)):
        if end > start:
            part = _affine(x[start:end], weight[e], None if bias is None else bias[e],
                           transpose_b=transpose_b)
            if part is None:
                return None
            y[start:end].copy_to_device(part)
    return y


def grouped_matmul(x, weight, bias=None, scale=None, offset=None, antiquant_scale=None,
                   antiquant_offset=None, group_list=None, split_item=0, group_type=-1,
                   transpose_a=False, transpose_b=False):
    """GroupedMatmul's tuple of products: split_item 0 one per pair of
    x[i] (2-D to 6-D) and weight[i] (2-D), bias[i] (N,) added; split_item
    3 one per group of x's rows (transpose_a declines there)."""
    xs, ws = _listed(x), _listed(weight)
    biases = [None] * len(ws or ()) if bias is None else _listed(bias)
    if any(v is not None for v in (scale, offset, antiquant_scale, antiquant_offset)) \
            or xs is None or ws is None or biases is None \
            or any(a.dtype not in FLOATS for a in xs):
        return None
    if (split_item, group_type) == (3, 0) and len(xs) == len(ws) == 1 \
            and len(biases) == 1 and not transpose_a:
        y = _grouped(xs[0], ws[0], biases[0], group_list, transpose_b)
        return None if y is None else (y,)
    if (split_item, group_type) != (0, -1) or not len(xs) == len(ws) == len(biases) \
            or any(w.ndim != 2 or b is not None and b.ndim != 1
                   for w, b in zip(ws, biases)):
        return None
    ys = tuple(_affine(a, w, b, transpose_a, transpose_b)
               for a, w, b in zip(xs, ws, biases))
    return None if any(y is None for y in ys) else ys


def einsum_plan(equation: str, ranks: tuple) -> tuple | None:
    """(operand letters, output letters) of an einsum that is sums over
    single axes and then one transpose (one operand) or one batched
    product (two); None for what is not: three or more operands, "..."
    broadcasting, a letter twice in one operand or in the output, a
    letter of the output in no operand, an operand whose rank is not its
    letter count."""
    if not isinstance(equation, str) or "." in equation:
        return None
    spec = equation.replace(" ", "")
    inputs, arrow, output = spec.partition("->")
    operands = inputs.split(",")
    letters = "".join(operands)
    if not arrow:
        output = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    if len(operands) not in (1, 2) or len(operands) != len(ranks) \
            or any(len(set(o)) != len(o) or len(o) != r
                   for o, r in zip(operands, ranks)) \
            or len(set(output)) != len(output) or not set(output) <= set(letters) \
            or not (letters + output).isalpha():
        return None
    return operands, output


def _summed_alone(x, k: int, operands: list, output: str):
    """(x, its letters) of operand k with the axes of the letters in no
    other operand and not in the output summed (reduce.py), or as they
    are; None where the sum declines or would round float16 before the
    rest of the einsum."""
    letters = operands[k]
    others = "".join(o for i, o in enumerate(operands) if i != k) + output
    alone = [a for a, c in enumerate(letters) if c not in others]
    if not alone:
        return x, letters
    total = None if x.dtype == np.float16 else reduce(x, alone, False, SUM)
    return None if total is None else (total, "".join(c for c in letters if c in others))


def _permuted(x, letters: str, order: str):
    """x (axes named by ``letters``) transposed to ``order`` (x itself where
    that is its order); None where the transpose declines."""
    if letters == order:
        return x
    return transpose(x, tuple(letters.index(c) for c in order))


def einsum(inputs, equation):
    """Einsum of one or two operands of one dtype as sums, then a
    transpose or one batched product (see :func:`einsum_plan`); None for
    the rest."""
    given = _listed(inputs)
    plan = None if given is None else einsum_plan(equation, tuple(t.ndim for t in given))
    if plan is None or any(t.dtype != given[0].dtype for t in given):
        return None
    operands, output = plan
    summed = [_summed_alone(t, k, operands, output) for k, t in enumerate(given)]
    if any(s is None for s in summed):
        return None
    tensors, (first, *other) = [t for t, _ in summed], [letters for _, letters in summed]
    if not other:       # (a new array, also where the order is the same)
        y = _permuted(tensors[0], first, output)
        return device.copy(y) if y is given[0] else y
    second = other[0]
    sizes = {}
    for letters, tensor in ((first, tensors[0]), (second, tensors[1])):
        for c, n in zip(letters, tuple(tensor.shape)):
            if sizes.setdefault(c, n) != n:
                return None     # (NumPy broadcasts 1 here: the CPU kernel does)
    batch = "".join(c for c in output if c in first and c in second)
    left = "".join(c for c in output if c in first and c not in second)
    right = "".join(c for c in output if c in second and c not in first)
    summed = "".join(c for c in first if c in second and c not in output)
    a = _permuted(tensors[0], first, batch + left + summed)
    c = _permuted(tensors[1], second, batch + summed + right)
    if a is None or c is None:
        return None
    size = lambda letters: math.prod(sizes[n] for n in letters)     # noqa: E731
    y = product(a.reshape((size(batch), size(left), size(summed))),
                c.reshape((size(batch), size(summed), size(right))))
    if y is None:
        return None
    y = y.reshape(tuple(sizes[n] for n in batch + left + right))
    return _permuted(y, batch + left + right, output)


KERNELS = {"Baddbmm": baddbmm, "GroupedMatmul": grouped_matmul, "Einsum": einsum}
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [(f"scaled sum, {name}", _scaled_sum,
        f"void({name}[::1], int64[::1], int64[::1], float32, float32, {name}[::1])")
       for name in ("float32", "float16")]
