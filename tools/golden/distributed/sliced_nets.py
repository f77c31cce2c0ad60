"""Hand-sliced tensor-parallel networks for the distributed golden cases (MindSpore 2.7.1).

MindSpore's automatic slicing does not compile on CPU, so each network is written twice in one
class: unsliced (``part=None``) and as rank ``part.index`` of ``part.count`` slices, calling the
communication primitives where automatic slicing would insert them:

- row-parallel MatMul (inner dimension split): local MatMul, then ``AllReduce(sum)``;
- column-parallel MatMul: local MatMul, then ``AllGather`` (axis 0) + ``Split`` + ``Concat`` to
  rebuild the column layout, or no communication when the next MatMul is row-parallel;
- a replicated input feeding a sliced weight: ``StridedSlice`` with this rank's begin/end.

Weights come in full (NumPy, seeded by the generator); each network keeps its rank's slice as
``Parameter``s. ``construct`` is compiled from source: keep these classes in a real file.
"""
import dataclasses
import math
from typing import Optional

import numpy as np
import mindspore as ms
from mindspore import nn, ops
from mindspore.ops.auto_generate.gen_ops_prim import dist_comm_all_reduce_op
import mindspore.mint.distributed as mint_dist

WORLD = "mccl_world_group"


@dataclasses.dataclass(frozen=True)
class Part:
    """Which slice a rank holds, and the communication group its slices are combined over."""
    index: int                 # position in the group (0 .. count-1)
    count: int                 # number of slices
    group: str = WORLD
    rank_ids: Optional[tuple] = None   # written as the ``group_rank_ids`` attribute when set


def block(length, part):
    """(begin, end) of ``part``'s block of a dimension of ``length``; everything unsliced."""
    if part is None:
        return 0, length
    size = length // part.count
    return part.index * size, (part.index + 1) * size


def cols(array, part):
    begin, end = block(array.shape[-1], part)
    return array[..., begin:end]


def rows(array, part):
    begin, end = block(array.shape[0], part)
    return array[begin:end]


def param(array, name):
    return ms.Parameter(ms.Tensor(np.ascontiguousarray(array, dtype=np.float32)), name=name)


def _group_attrs(prim, part):
    if part.rank_ids is not None:
        prim.add_prim_attr("group_rank_ids", tuple(part.rank_ids))
    return prim


def all_reduce(part, op="sum"):
    return _group_attrs(ops.AllReduce(op, group=part.group), part)


def all_gather(part):
    return _group_attrs(ops.AllGather(group=part.group), part)


class LastAxisSlice(nn.Cell):
    """x[..., begin:end]: the replicated input's block that meets a row-sliced weight."""

    def __init__(self, length, part, rank):
        super().__init__()
        begin, end = block(length, part)
        self.begin = (0,) * (rank - 1) + (begin,)
        self.end = (0,) * (rank - 1) + (end,)
        self.strides = (1,) * rank
        leading = (1 << (rank - 1)) - 1  # whole leading axes
        self.slice = ops.StridedSlice(begin_mask=leading, end_mask=leading)

    def construct(self, x):
        return self.slice(x, self.begin, self.end, self.strides)


class RowParallelMatMul(nn.Cell):
    """y = x @ w (the quick start's Matmul0/Matmul1). Sliced: each rank takes its block of x's
    columns and of w's rows, multiplies, and AllReduce(sum) adds the partial products."""

    def __init__(self, weights, part=None):
        super().__init__()
        w = weights["w"]
        self.sliced = part is not None
        self.w = param(rows(w, part), "w")
        self.matmul = ops.MatMul()
        if self.sliced:
            self.take = LastAxisSlice(w.shape[0], part, 2)
            self.reduce = all_reduce(part)

    def construct(self, x):
        if self.sliced:
            return self.reduce(self.matmul(self.take(x), self.w))
        return self.matmul(x, self.w)


class ColumnRowMLP(nn.Cell):
    """y = relu(x @ w1 + b1) @ w2 + b2. Sliced: w1/b1 by columns (no communication: the hidden
    layer stays sliced), w2 by rows, AllReduce(sum), then the replicated bias b2."""

    def __init__(self, weights, part=None):
        super().__init__()
        self.sliced = part is not None
        self.w1 = param(cols(weights["w1"], part), "w1")
        self.b1 = param(cols(weights["b1"], part), "b1")
        self.w2 = param(rows(weights["w2"], part), "w2")
        self.b2 = param(weights["b2"], "b2")
        self.matmul = ops.MatMul()
        self.bias_add = ops.BiasAdd()
        self.relu = ops.ReLU()
        if self.sliced:
            self.reduce = all_reduce(part)

    def construct(self, x):
        hidden = self.relu(self.bias_add(self.matmul(x, self.w1), self.b1))
        y = self.matmul(hidden, self.w2)
        if self.sliced:
            y = self.reduce(y)
        return self.bias_add(y, self.b2)


class ColumnParallelGather(nn.Cell):
    """y = x @ w. Sliced: each rank computes its block of columns; AllGather stacks the blocks
    on axis 0 (rank order), Split + Concat move them back side by side."""

    def __init__(self, weights, part=None):
        super().__init__()
        self.sliced = part is not None
        self.w = param(cols(weights["w"], part), "w")
        self.matmul = ops.MatMul()
        if self.sliced:
            self.gather = all_gather(part)
            self.split = ops.Split(axis=0, output_num=part.count)
            self.concat = ops.Concat(axis=1)

    def construct(self, x):
        y = self.matmul(x, self.w)
        if self.sliced:
            y = self.concat(self.split(self.gather(y)))
        return y


class LayerNorm(nn.Cell):
    """Layer normalisation over the last axis, written with elementwise ops (replicated)."""

    def __init__(self, gamma, beta, prefix):
        super().__init__()
        self.gamma = param(gamma, prefix + "_gamma")
        self.beta = param(beta, prefix + "_beta")
        self.mean = ops.ReduceMean(keep_dims=True)
        self.sqrt = ops.Sqrt()

    def construct(self, x):
        centred = x - self.mean(x, -1)
        variance = self.mean(centred * centred, -1)
        return centred / self.sqrt(variance + 1e-5) * self.gamma + self.beta


class TransformerBlock(nn.Cell):
    """Pre-norm transformer block on x [batch, seq, dim]:

        x1 = x + Attention(LN1(x)) @ wo + bo;   y = x1 + GELU(LN2(x1) @ w1 + b1) @ w2 + b2

    multi-head attention with ``heads`` heads, GELU in its tanh form. Sliced (Megatron style):
    each rank owns ``heads / n`` heads (column blocks of wq, wk, wv and their biases, row block
    of wo) and a column block of w1/b1 and row block of w2; AllReduce(sum) follows the output
    projection and the second MLP MatMul; layer norms, residuals and bo/b2 are replicated.
    """

    def __init__(self, weights, heads, part=None):
        super().__init__()
        dim = weights["wq"].shape[0]
        self.sliced = part is not None
        self.local_heads = heads // (part.count if part else 1)
        self.head_dim = dim // heads
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.ln1 = LayerNorm(weights["ln1_gamma"], weights["ln1_beta"], "ln1")
        self.ln2 = LayerNorm(weights["ln2_gamma"], weights["ln2_beta"], "ln2")
        for name in ("wq", "wk", "wv", "bq", "bk", "bv", "w1", "b1"):
            setattr(self, name, param(cols(weights[name], part), name))
        self.wo = param(rows(weights["wo"], part), "wo")
        self.w2 = param(rows(weights["w2"], part), "w2")
        self.bo = param(weights["bo"], "bo")
        self.b2 = param(weights["b2"], "b2")
        self.matmul = ops.MatMul()
        self.scores = ops.BatchMatMul(transpose_b=True)
        self.context = ops.BatchMatMul()
        self.softmax = ops.Softmax(-1)
        self.transpose = ops.Transpose()
        self.reshape = ops.Reshape()
        self.tanh = ops.Tanh()
        if self.sliced:
            self.reduce_attention = all_reduce(part)
            self.reduce_mlp = all_reduce(part)

    def heads_first(self, x, batch, seq):
        x = self.reshape(x, (batch, seq, self.local_heads, self.head_dim))
        return self.transpose(x, (0, 2, 1, 3))

    def attention(self, x, batch, seq):
        q = self.heads_first(self.matmul(x, self.wq) + self.bq, batch, seq)
        k = self.heads_first(self.matmul(x, self.wk) + self.bk, batch, seq)
        v = self.heads_first(self.matmul(x, self.wv) + self.bv, batch, seq)
        weights = self.softmax(self.scores(q, k) * self.scale)
        context = self.transpose(self.context(weights, v), (0, 2, 1, 3))
        context = self.reshape(context, (batch * seq, self.local_heads * self.head_dim))
        out = self.matmul(context, self.wo)
        if self.sliced:
            out = self.reduce_attention(out)
        return out + self.bo

    def gelu(self, x):
        return 0.5 * x * (1.0 + self.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))

    def mlp(self, x):
        out = self.matmul(self.gelu(self.matmul(x, self.w1) + self.b1), self.w2)
        if self.sliced:
            out = self.reduce_mlp(out)
        return out + self.b2

    def construct(self, x):
        batch, seq, dim = x.shape
        x = self.reshape(x, (batch * seq, dim))
        x = x + self.attention(self.ln1(x), batch, seq)
        y = x + self.mlp(self.ln2(x))
        return self.reshape(y, (batch, seq, dim))


# --------------------------------------------------------------------------
# One network per communication op: local = x * w_rank (a per-rank weight), then the op.
# --------------------------------------------------------------------------
class LocalScale(nn.Cell):
    """Base: ``self.local(x)`` = x * this rank's weight, so ranks hold different values."""

    def __init__(self, w):
        super().__init__()
        self.w = param(w, "w")

    def local(self, x):
        return x * self.w


class AllReduceSum(LocalScale):
    def __init__(self, w, part):
        super().__init__(w)
        self.reduce = all_reduce(part)

    def construct(self, x):
        return self.reduce(self.local(x))


class AllReduceOps(LocalScale):
    """AllReduce with op max, min and prod (MindSpore's CPU kernel only sums).

    Each reduces a different value: MindSpore's common-subexpression pass merges AllReduces
    of one input whatever their ``op`` (the exported file would hold three max)."""

    def __init__(self, w, part):
        super().__init__(w)
        self.max = all_reduce(part, "max")
        self.min = all_reduce(part, "min")
        self.prod = all_reduce(part, "prod")

    def construct(self, x):
        y = self.local(x)
        return self.max(y), self.min(y + 1.0), self.prod(y * 0.5)


class AllGatherNet(LocalScale):
    def __init__(self, w, part):
        super().__init__(w)
        self.gather = all_gather(part)

    def construct(self, x):
        return self.gather(self.local(x))


class ReduceScatterNet(LocalScale):
    def __init__(self, w, part):
        super().__init__(w)
        self.scatter = ops.ReduceScatter("sum", group=part.group)

    def construct(self, x):
        return self.scatter(self.local(x))


class BroadcastNet(LocalScale):
    """Broadcast of a tuple (MakeTuple -> Broadcast -> TupleGetItem) from rank ``root``."""

    def __init__(self, w, part, root):
        super().__init__(w)
        self.broadcast = ops.Broadcast(root, group=part.group)

    def construct(self, x):
        y = self.local(x)
        out = self.broadcast((y, y + 1.0))
        return out[0], out[1]


class AlltoAllNet(LocalScale):
    def __init__(self, w, part, split_dim, concat_dim):
        super().__init__(w)
        self.exchange = ops.AlltoAll(part.count, split_dim, concat_dim, group=part.group)

    def construct(self, x):
        return self.exchange(self.local(x))


class SendStage(LocalScale):
    """Pipeline stage 0: sends its value to rank 1 (kept alive by Depend, as MindSpore does)."""

    def __init__(self, w):
        super().__init__(w)
        self.send = ops.Send(sr_tag=0, dest_rank=1)

    def construct(self, x):
        y = self.local(x)
        return ops.depend(y, self.send(y))


class ReceiveStage(nn.Cell):
    """Pipeline stage 1: receives rank 0's value and adds its own input."""

    def __init__(self, shape):
        super().__init__()
        self.receive = ops.Receive(sr_tag=0, src_rank=0, shape=list(shape), dtype=ms.float32)

    def construct(self, x):
        return self.receive() + x


class DistCommAllReduceNet(LocalScale):
    """``DistCommAllReduce(x, "max", group)`` used functionally (its output feeds the next op)."""

    def construct(self, x):
        return dist_comm_all_reduce_op(self.local(x), "max", WORLD) * 2.0


class DistCommAllReduceInPlace(LocalScale):
    """``mint.distributed.all_reduce(y)``: reduces y in place; later reads of y see the sum."""

    def construct(self, x):
        y = self.local(x)
        mint_dist.all_reduce(y)
        return y * 2.0
