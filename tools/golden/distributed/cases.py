"""The distributed golden cases: networks, seeded weights and inputs, NumPy references.

Shared by ``worker.py`` (runs inside ``msrun``, imports MindSpore) and ``make_distributed.py``
(the driver, NumPy only): the table below imports no MindSpore; networks are built through
``sliced_nets`` only when a worker asks for them.

A case has N ranks, all fed the same inputs. Each rank's file holds its own slice of the weights
(tensor-parallel cases) or its own weight (one-op cases: local = x * w_rank, then the op), so
every rank computes something different before the communication op.
"""
import ctypes
import dataclasses
import functools
import json
from typing import Callable, Optional

import numpy as np

WORLD = "mccl_world_group"
PAIRS = ((0, 1), (2, 3))       # the two 2-rank groups of the 4-rank group cases


# --------------------------------------------------------------------------
# Automatic-slicing group names: "<n>-<std::hash of 'r0-r1-...'>" (MindSpore's
# DeviceManager::GenerateGroupNameByRanks). libstdc++'s std::hash<std::string> is
# _Hash_bytes(data, len, 0xc70f6907), an exported symbol: call it for the true value.
# --------------------------------------------------------------------------
def std_hash(text):
    lib = ctypes.CDLL("libstdc++.so.6")
    hash_bytes = lib._ZSt11_Hash_bytesPKvmm
    hash_bytes.restype = ctypes.c_size_t
    hash_bytes.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_size_t]
    data = text.encode()
    return hash_bytes(data, len(data), 0xC70F6907)


def hashed_group_name(ranks):
    ranks = sorted(ranks)
    return f"{len(ranks)}-{std_hash('-'.join(str(r) for r in ranks))}"


# --------------------------------------------------------------------------
# Weights and inputs
# --------------------------------------------------------------------------
def uniform_weights(shapes, rng):
    """PyTorch-style U(-1/sqrt(fan_in), 1/sqrt(fan_in)); biases and 1-D params U(-0.1, 0.1),
    layer-norm gammas U(0.8, 1.2)."""
    weights = {}
    for name, shape in shapes.items():
        if name.endswith("_gamma"):
            value = rng.uniform(0.8, 1.2, shape)
        elif len(shape) == 1:
            value = rng.uniform(-0.1, 0.1, shape)
        else:
            bound = 1.0 / np.sqrt(shape[0])
            value = rng.uniform(-bound, bound, shape)
        weights[name] = value.astype(np.float32)
    return weights


def per_rank_weights(ranks, shape):
    """One weight per rank for the one-op cases: w{r}, values in +-[0.5, 1.5] (no zeros, so
    prod and min/max are informative)."""
    def make(rng):
        return {f"w{r}": (rng.uniform(0.5, 1.5, shape) * rng.choice([-1, 1], shape))
                .astype(np.float32) for r in range(ranks)}
    return make


# --------------------------------------------------------------------------
# NumPy references: per-rank goldens where MindSpore has no CPU kernel, cross-checks elsewhere
# --------------------------------------------------------------------------
def local_values(weights, x, ranks):
    return [x * weights[f"w{r}"] for r in range(ranks)]


REDUCE = {"sum": np.add, "max": np.maximum, "min": np.minimum, "prod": np.multiply}


def reduce_all(values, op):
    return functools.reduce(REDUCE[op], values)


def ref_all_reduce_sum(weights, inputs, ranks):
    return [[reduce_all(local_values(weights, inputs[0], ranks), "sum")]] * ranks


def ref_all_gather(weights, inputs, ranks):
    return [[np.concatenate(local_values(weights, inputs[0], ranks), axis=0)]] * ranks


def ref_broadcast(root):
    def reference(weights, inputs, ranks):
        value = local_values(weights, inputs[0], ranks)[root]
        return [[value, value + np.float32(1)]] * ranks
    return reference


def ref_all_reduce_ops(weights, inputs, ranks):
    values = local_values(weights, inputs[0], ranks)
    out = [reduce_all(values, "max"), reduce_all([v + np.float32(1) for v in values], "min"),
           reduce_all([v * np.float32(0.5) for v in values], "prod")]
    return [out] * ranks


def ref_reduce_scatter(weights, inputs, ranks):
    total = reduce_all(local_values(weights, inputs[0], ranks), "sum")
    return [[block] for block in np.split(total, ranks, axis=0)]


def ref_all_to_all(split_dim, concat_dim):
    def reference(weights, inputs, ranks):
        blocks = [np.split(v, ranks, axis=split_dim)
                  for v in local_values(weights, inputs[0], ranks)]
        return [[np.concatenate([blocks[src][dst] for src in range(ranks)], axis=concat_dim)]
                for dst in range(ranks)]
    return reference


def ref_send_receive(weights, inputs, ranks):
    sent = inputs[0] * weights["w0"]
    return [[sent], [sent + inputs[0]]]


def ref_dist_comm_max(weights, inputs, ranks):
    return [[reduce_all(local_values(weights, inputs[0], ranks), "max") * np.float32(2)]] * ranks


def ref_in_place_sum(weights, inputs, ranks):
    return [[reduce_all(local_values(weights, inputs[0], ranks), "sum") * np.float32(2)]] * ranks


def ref_pair_mlp(weights, inputs, ranks):
    """ColumnRowMLP sliced 2 ways inside each pair of ranks (sub-group AllReduce)."""
    x, w1, b1, w2, b2 = (inputs[0], weights["w1"], weights["b1"], weights["w2"], weights["b2"])
    half = w1.shape[1] // 2
    partial = [np.maximum(x @ w1[:, p * half:(p + 1) * half] + b1[p * half:(p + 1) * half], 0)
               @ w2[p * half:(p + 1) * half] for p in range(2)]
    return [[partial[0] + partial[1] + b2]] * ranks


# --------------------------------------------------------------------------
# The case table
# --------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    description: str
    ranks: int
    seed: int
    inputs: tuple                     # input shapes (float32, standard normal)
    make_weights: Callable            # rng -> {name: array}
    sliced: Callable                  # (nets, rank, ranks, weights) -> this rank's nn.Cell
    unsliced: Optional[Callable] = None   # (nets, weights) -> nn.Cell; outputs every rank matches
    # NumPy outputs of every rank, (weights, inputs, ranks) -> [[array, ...] per rank]: the
    # golden where MindSpore has no CPU kernel for the case, a cross-check where it has.
    reference: Optional[Callable] = None
    mindspore_runs: bool = False      # MindSpore runs each rank's file (a real collective)
    config: Optional[dict] = None     # model config entries the ranks need (user groups)
    groups: Optional[dict] = None     # sub-groups to create: {name: ranks}
    big: bool = False


def shapes(**named):
    return lambda rng: uniform_weights(named, rng)


def world_part(nets, rank, ranks):
    return nets.Part(rank, ranks)


def tp_case(name, description, ranks, seed, inputs, weight_shapes, make_net):
    """A tensor-parallel case over the world group: ``make_net(nets, weights, part)``."""
    return Case(name, description, ranks, seed, inputs, shapes(**weight_shapes),
                lambda nets, r, n, w: make_net(nets, w, world_part(nets, r, n)),
                lambda nets, w: make_net(nets, w, None), mindspore_runs=True)


def transformer(name, ranks, seed, batch, seq, dim, heads, ffn, big=False):
    weight_shapes = dict(wq=(dim, dim), wk=(dim, dim), wv=(dim, dim), wo=(dim, dim),
                         bq=(dim,), bk=(dim,), bv=(dim,), bo=(dim,),
                         ln1_gamma=(dim,), ln1_beta=(dim,), ln2_gamma=(dim,), ln2_beta=(dim,),
                         w1=(dim, ffn), b1=(ffn,), w2=(ffn, dim), b2=(dim,))
    case = tp_case(name, f"pre-norm transformer block, x [{batch}, {seq}, {dim}], {heads} heads, "
                   f"GELU MLP {ffn}; sliced {ranks} ways: heads, w1 columns, wo/w2 rows, "
                   "AllReduce after the output projection and after the MLP",
                   ranks, seed, ((batch, seq, dim),), weight_shapes,
                   lambda nets, w, part: nets.TransformerBlock(w, heads, part))
    return dataclasses.replace(case, big=big)


def tp_cases(ranks, suffix, seed):
    return [
        tp_case("matmul_allreduce" + suffix, "row-parallel MatMul (Lite's Matmul0/Matmul1 quick "
                "start): x [4, 8] @ w [8, 6]; each rank slices its block of x's columns "
                "(StridedSlice), multiplies by its rows of w, AllReduce(sum)",
                ranks, seed, ((4, 8),), {"w": (8, 6)},
                lambda nets, w, part: nets.RowParallelMatMul(w, part)),
        tp_case("mlp_col_row" + suffix, "2-layer MLP relu(x @ w1 + b1) @ w2 + b2, x [4, 8], "
                "hidden 16: w1/b1 column-parallel, w2 row-parallel, one AllReduce(sum)",
                ranks, seed + 1, ((4, 8),),
                {"w1": (8, 16), "b1": (16,), "w2": (16, 8), "b2": (8,)},
                lambda nets, w, part: nets.ColumnRowMLP(w, part)),
        tp_case("matmul_col_allgather" + suffix, "column-parallel MatMul x [4, 8] @ w [8, 12]: "
                "local columns, AllGather (axis 0) + Split + Concat(axis 1)",
                ranks, seed + 2, ((4, 8),), {"w": (8, 12)},
                lambda nets, w, part: nets.ColumnParallelGather(w, part)),
        transformer("transformer_block" + suffix, ranks, seed + 3, 2, 8, 32, 4, 64),
    ]


def op_case(name, description, seed, make_net, reference, mindspore_runs=False, ranks=2,
            shape=(4, 6)):
    """One communication op over per-rank values: ``make_net(nets, w, part, rank)``."""
    def sliced(nets, rank, count, weights):
        return make_net(nets, weights[f"w{rank}"], world_part(nets, rank, count), rank)
    return Case(name, description, ranks, seed, (shape,), per_rank_weights(ranks, shape),
                sliced, reference=reference, mindspore_runs=mindspore_runs)


def receive_or_send(nets, w, part, rank):
    return nets.SendStage(w) if rank == 0 else nets.ReceiveStage((4, 6))


def op_cases():
    return [
        op_case("op_allreduce", "AllReduce(sum) of x * w_rank on the world group", 200,
                lambda nets, w, part, r: nets.AllReduceSum(w, part), ref_all_reduce_sum, True),
        op_case("op_allreduce_ops", "AllReduce op=max of y, min of y + 1, prod of y * 0.5, "
                "y = x * w_rank (NumPy goldens: MindSpore's CPU kernel only sums)", 201,
                lambda nets, w, part, r: nets.AllReduceOps(w, part), ref_all_reduce_ops),
        op_case("op_allgather", "AllGather of x * w_rank [4, 6] -> [8, 6], rank order", 202,
                lambda nets, w, part, r: nets.AllGatherNet(w, part), ref_all_gather, True),
        op_case("op_reducescatter", "ReduceScatter(sum) of x * w_rank [4, 6] -> [2, 6] "
                "(NumPy golden: no CPU kernel)", 203,
                lambda nets, w, part, r: nets.ReduceScatterNet(w, part), ref_reduce_scatter),
        op_case("op_broadcast", "Broadcast from root_rank 1 of the tuple (x * w_rank, "
                "x * w_rank + 1)", 204,
                lambda nets, w, part, r: nets.BroadcastNet(w, part, 1), ref_broadcast(1), True),
        op_case("op_alltoall", "AlltoAll split_dim 0, concat_dim 1, split_count 2: [4, 6] -> "
                "[2, 12] (NumPy golden: no CPU kernel)", 205,
                lambda nets, w, part, r: nets.AlltoAllNet(w, part, 0, 1), ref_all_to_all(0, 1)),
        op_case("op_send_receive", "pipeline: rank 0 Sends x * w0 (Depend keeps the Send), rank 1 "
                "Receives it and adds x (NumPy golden: no CPU kernel)", 206, receive_or_send,
                ref_send_receive),
        op_case("op_dist_comm_allreduce", "DistCommAllReduce(x * w_rank, 'max', world) * 2, its "
                "output used directly (NumPy golden: no CPU kernel)", 207,
                lambda nets, w, part, r: nets.DistCommAllReduceNet(w), ref_dist_comm_max),
        op_case("op_dist_comm_allreduce_inplace", "mint.distributed.all_reduce(y) in place, "
                "then y * 2 (NumPy golden: no CPU kernel)", 208,
                lambda nets, w, part, r: nets.DistCommAllReduceInPlace(w), ref_in_place_sum),
    ]


PAIR_NAMES = {
    "hash": lambda pair: hashed_group_name(pair),
    "rank_ids": lambda pair: f"group_{'ab'[pair[0] // 2]}",
    "config": lambda pair: f"tp_{'ab'[pair[0] // 2]}",
}


def pair_part(nets, rank, kind):
    pair = PAIRS[rank // 2]
    rank_ids = pair if kind == "rank_ids" else None
    return nets.Part(rank % 2, 2, PAIR_NAMES[kind](pair), rank_ids)


def pair_groups(kind):
    """{group name: ranks} of a group case (what create_group and the config need)."""
    return {PAIR_NAMES[kind](pair): list(pair) for pair in PAIRS}


def group_case(kind, seed, how):
    config = None
    if kind == "config":
        config = {"distributed": {"groups": json.dumps(pair_groups(kind))}}
    return Case(f"group_{kind}_4", f"mlp_col_row sliced 2 ways inside ranks {{0, 1}} and "
                f"{{2, 3}} (4 ranks, two tensor-parallel pairs): AllReduce on a sub-group named "
                f"{how}", 4, seed, ((4, 8),),
                shapes(w1=(8, 16), b1=(16,), w2=(16, 8), b2=(8,)),
                lambda nets, r, n, w: nets.ColumnRowMLP(w, pair_part(nets, r, kind)),
                lambda nets, w: nets.ColumnRowMLP(w, None), reference=ref_pair_mlp,
                config=config, groups=pair_groups(kind))


CASES = (tp_cases(2, "", 100) + tp_cases(4, "_4", 110) + op_cases() + [
    group_case("hash", 300, "as automatic slicing does: '2-<std::hash of \"0-1\">'"),
    group_case("rank_ids", 301, "group_a / group_b, with a group_rank_ids attribute"),
    group_case("config", 302, "tp_a / tp_b, resolved from the [distributed] groups config"),
    transformer("transformer_block_big", 2, 400, 1, 256, 512, 8, 2048, big=True),
    transformer("transformer_block_gpt2_16", 2, 401, 1, 16, 768, 12, 3072, big=True),
])
CASES_BY_NAME = {case.name: case for case in CASES}
