"""GroupedMatmul (Ascend)."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, matmul, none_of

OP = "GroupedMatmul"


@register(OP, family="nn", dtypes=FLOATS, no_kernel="oracle",
          sequences=("x", "weight"),
          convert={"split_item": args.integer, "group_type": args.integer,
                   "transpose_a": args.boolean, "transpose_b": args.boolean})
def grouped_matmul(x, weight, bias=None, scale=None, offset=None, antiquant_scale=None,
                   antiquant_offset=None, group_list=None, split_item=0, group_type=-1,
                   transpose_a=False, transpose_b=False):
    """Several matrix products in one op (Ascend only; a CPU oracle here).

    Returns a tuple of tensors. The two modes MindSpore documents:

        split_item 0, group_type -1: y_i = x_i @ weight_i + bias_i for each
            pair of the lists x (2-D to 6-D) and weight (2-D)
        split_item 3, group_type 0: one x (M, K) whose rows are cut into
            groups at the cumulative ends group_list (E,), and one weight
            (E, K, N): y[start_e:end_e] = x[start_e:end_e] @ weight[e]
            + bias[e]; y is (M, N), rows past the last end zero

    transpose_a / transpose_b swap the last two axes of x / weight first.
    bias: None or a list like weight ((N,) or (E, N)). Output dtype: x's
    (float16 products accumulate in float32). The quantisation inputs
    (scale, offset, antiquant_scale, antiquant_offset) must be None.
    """
    none_of(OP, "float matrix products without quantisation", scale=scale,
            offset=offset, antiquant_scale=antiquant_scale,
            antiquant_offset=antiquant_offset)
    xs, ws = (_tensors(v, name) for v, name in ((x, "x"), (weight, "weight")))
    biases = _tensors(bias, "bias") if bias is not None else [None] * len(ws)
    xs = [a.swapaxes(-1, -2) if transpose_a else a for a in xs]
    ws = [w.swapaxes(-1, -2) if transpose_b else w for w in ws]
    if (split_item, group_type) == (0, -1):
        if not len(xs) == len(ws) == len(biases):
            raise ValueError(f"{OP}: x, weight and bias must be lists of one length, "
                             f"got {len(xs)}, {len(ws)} and {len(biases)}")
        return tuple(_affine(a, w, b) for a, w, b in zip(xs, ws, biases))
    if (split_item, group_type) == (3, 0):
        return (_grouped(xs, ws, biases, group_list),)
    raise ValueError(f"{OP}: (split_item, group_type) must be (0, -1) or (3, 0), "
                     f"got ({split_item}, {group_type})")


def _tensors(value, name):
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    if not items or any(not isinstance(t, np.ndarray) for t in items):
        raise TypeError(f"{OP}: {name} must be a non-empty list of tensors")
    return items


def _affine(a, w, b):
    if a.ndim == 0 or w.ndim != 2 or a.shape[-1] != w.shape[0]:
        raise ValueError(f"{OP}: x {list(a.shape)} and weight {list(w.shape)} do not "
                         f"multiply (x's last dim must be weight's first, weight 2-D)")
    y = matmul(a, w)
    return y if b is None else (y + b).astype(y.dtype)


def _grouped(xs, ws, biases, group_list):
    if len(xs) != 1 or len(ws) != 1 or xs[0].ndim != 2 or ws[0].ndim != 3 \
            or group_list is None or group_list.shape != (ws[0].shape[0],):
        raise ValueError(f"{OP}: split_item 3 takes one x (M, K), one weight "
                         f"(E, K, N) and group_list (E,), got x "
                         f"{[list(a.shape) for a in xs]}, weight "
                         f"{[list(w.shape) for w in ws]}, group_list "
                         f"{None if group_list is None else list(group_list.shape)}")
    a, w, b = xs[0], ws[0], biases[0]
    ends = [int(e) for e in group_list]
    if any(e0 > e1 for e0, e1 in zip([0, *ends], ends)) or ends[-1] > len(a):
        raise ValueError(f"{OP}: group_list must be non-decreasing ends within "
                         f"x's {len(a)} rows, got {ends[:8]}")
    y = np.zeros((len(a), w.shape[-1]), matmul(a[:0], w[0]).dtype)
    for e, (start, end) in enumerate(zip([0, *ends], ends)):
        y[start:end] = _affine(a[start:end], w[e], None if b is None else b[e])
    return y
