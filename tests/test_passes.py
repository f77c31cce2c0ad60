"""Plan-time rewrites of the fast backend (refinfer/passes): what they fuse,
what they must leave alone, and the reference fallback of fused nodes.
Results are compared with the reference backend's (op by op)."""
import math
import warnings
import weakref

import numpy as np
import pytest

from refinfer import executor, registry, threads
from refinfer.format.reader import ValueInfo, read_mindir
from refinfer.format.values import Abstract
from refinfer.graph import Arg, Graph, Model, Node, Ref, RefKind, build_model
from refinfer.ops._kernels import program as _fast
from refinfer.ops._kernels.conv import WinogradFilter, fused_conv2d
from refinfer.ops._kernels.packed import PackedWeight
from refinfer.ops._kernels import blas, packed, separable
from refinfer.ops._kernels.separable import InvertedResidual, inverted_residual
from refinfer.passes import conv as conv_pass, elementwise, gemm as gemm_pass
from refinfer.passes.elementwise import fuse_elementwise
from refinfer.passes.fused import FUSED_BACKEND, GraphEditor, fused_node
from refinfer.plan import compile_model
from refinfer.runtime import LoadedModel
from refinfer.step import Hooks
from refinfer.stored import StoredWeight

from golden_cases import golden_case

F32 = np.dtype(np.float32)


@pytest.fixture(autouse=True, params=[1, 2], ids=["1thread", "2threads"])
def worker_threads(request):
    threads.configure(request.param)
    yield
    threads.configure(1)
rng = np.random.default_rng(7)


class GraphBuilder:
    """A one-graph model built node by node, with recorded abstracts."""

    def __init__(self, shape, dtype=F32):
        self.input = ValueInfo("main:x", Abstract("tensor", tuple(shape), np.dtype(dtype)))
        self.nodes: list[Node] = []

    def add(self, op: str, *args, shape, dtype=F32) -> Ref:
        refs = [a if isinstance(a, Ref) else Ref(RefKind.CONST, a) for a in args]
        name = f"n{len(self.nodes)}_{op}"
        self.nodes.append(Node(name, f"Default/{name}", registry.get_op(op),
                               [Arg(r) for r in refs], None,
                               Abstract("tensor", tuple(shape), np.dtype(dtype))))
        return Ref(RefKind.NODE, name)

    def model(self, output: Ref) -> Model:
        info = ValueInfo("out", self.nodes[-1].abstract)
        graph = Graph("main", [self.input], self.nodes, output, info)
        return Model("synthetic", {"main": graph}, graph, {})


X = Ref(RefKind.INPUT, 0)


def run_both(model: Model, x):
    """(numba plan steps, numba result, reference result)."""
    fast, slow = compile_model(model, "numba"), compile_model(model, "reference")
    steps = fast.plans["main"].steps
    return steps, executor.run(fast, [x]), executor.run(slow, [x])


def test_elementwise_chain_runs_as_one_step():
    g = GraphBuilder((3, 1500))
    a = g.add("Mul", X, 2.0, shape=(3, 1500))
    b = g.add("Add", a, X, shape=(3, 1500))
    c = g.add("ReLU", b, shape=(3, 1500))
    d = g.add("Sub", c, rng.standard_normal(1500).astype(np.float32), shape=(3, 1500))
    e = g.add("Tanh", d, shape=(3, 1500))
    x = rng.standard_normal((3, 1500)).astype(np.float32)
    steps, got, want = run_both(g.model(e), x)
    assert len(steps) == 1 and steps[0].node.op.name == "Mul+Add+ReLU+Sub+Tanh"
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    # Another dtype at run time: the original nodes run, with their semantics.
    got64 = executor.run(compile_model(g.model(e), "numba"), [x.astype(np.float64)])
    want64 = executor.run(compile_model(g.model(e), "reference"), [x.astype(np.float64)])
    assert got64.dtype == np.float64
    np.testing.assert_array_equal(got64, want64)


@pytest.mark.parametrize("width", [1500, _fast.SHORT_CHAIN_ELEMENTS // 2 + 1])
def test_a_short_arithmetic_chain_runs_on_numpy_when_small(monkeypatch, width):
    """Mul, Div, Add (three rows of plain arithmetic) on 2 x 1500 run as
    NumPy's loops, one per row, not the runner; the same chain on more than
    SHORT_CHAIN_ELEMENTS runs in the runner. Both as the reference, a
    division by zero included (quietly inf)."""
    g = GraphBuilder((2, width))
    divisor = rng.standard_normal(width).astype(np.float32)
    divisor[:3] = 0
    a = g.add("Mul", X, 0.125, shape=(2, width))
    b = g.add("Div", a, divisor, shape=(2, width))
    c = g.add("Add", b, X, shape=(2, width))
    x = rng.standard_normal((2, width)).astype(np.float32)
    runs, runner = [], _fast.run

    def counted(*args, **kwargs):
        runs.append(1)
        return runner(*args, **kwargs)
    monkeypatch.setattr(_fast, "run", counted)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        steps, got, want = run_both(g.model(c), x)
    assert [s.node.op.name for s in steps] == ["Mul+Div+Add"]
    assert len(runs) == (0 if 2 * width <= _fast.SHORT_CHAIN_ELEMENTS else 1)
    assert np.isinf(got[:, :3]).all()
    np.testing.assert_array_equal(got, want)


def test_a_group_with_too_many_tensors_entering_fuses_the_groups_behind_it():
    """Five weights enter the chain (MAX_OPERANDS is 4 with x): the whole
    chain cannot be one program, so the chain behind its last node is
    tried, the same way, until it fits (the nodes left after it run
    alone)."""
    assert _fast.MAX_OPERANDS == 4
    g = GraphBuilder((2, 6))
    value = X
    for _ in range(5):
        weight = rng.standard_normal(6).astype(np.float32)
        value = g.add("Tanh", g.add("Add", value, weight, shape=(2, 6)), shape=(2, 6))
    x = rng.standard_normal((2, 6)).astype(np.float32)
    steps, got, want = run_both(g.model(value), x)
    assert [s.node.op.name for s in steps] == [
        "Add+Tanh+Add+Tanh+Add+Tanh", "Add", "Tanh", "Add", "Tanh"]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_a_chain_longer_than_a_group_becomes_several_programs(monkeypatch):
    """At most MAX_GROUP nodes per program, counted from the chain's end."""
    monkeypatch.setattr(elementwise, "MAX_GROUP", 3)
    g = GraphBuilder((2, 3))
    value = X
    for op in ("Neg", "Tanh", "Exp", "Neg", "Tanh", "Exp", "Neg"):
        value = g.add(op, value, shape=(2, 3))
    x = rng.standard_normal((2, 3)).astype(np.float32)
    steps, got, want = run_both(g.model(value), x)
    assert [s.node.op.name for s in steps] == ["Neg", "Tanh+Exp+Neg", "Tanh+Exp+Neg"]
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_values_read_elsewhere_are_not_fused_away():
    g = GraphBuilder((4, 5))
    a = g.add("Mul", X, 2.0, shape=(4, 5))
    b = g.add("Add", a, 1.0, shape=(4, 5))
    out = g.add("MakeTuple", a, b, shape=(4, 5))
    x = rng.standard_normal((4, 5)).astype(np.float32)
    steps, got, want = run_both(g.model(out), x)
    assert [s.node.op.name for s in steps] == ["Mul", "Add", "MakeTuple"]
    for u, v in zip(got, want):
        np.testing.assert_allclose(u, v, rtol=1e-6)


class _CountedNodes(list):
    """A graph's node list counting the walks over it."""
    walks = 0

    def __iter__(self):
        self.walks += 1
        return super().__iter__()


def test_elementwise_fusion_walks_the_graph_once_not_once_per_node():
    g = GraphBuilder((4,))
    value = X
    for _ in range(50):     # x + x: read twice, so no node fuses with the next
        value = g.add("Add", value, value, shape=(4,))
    graph = g.model(value).main
    graph.nodes = _CountedNodes(graph.nodes)
    editor = GraphEditor(graph, set())
    graph.nodes.walks = 0
    fuse_elementwise(editor)
    assert graph.nodes.walks <= 2 and not editor.replaced


def test_matmul_bias_reshape_activation_fuse_into_one_gemm():
    g = GraphBuilder((6, 8))
    w, bias = rng.standard_normal((16, 8)).astype(np.float32), \
        rng.standard_normal(16).astype(np.float32)
    y = g.add("MatMul", X, w, False, True, shape=(6, 16))
    y = g.add("BiasAdd", y, bias, "NCHW", shape=(6, 16))
    y = g.add("Reshape", y, (2, 3, 16), shape=(2, 3, 16))
    y = g.add("GeLU", y, shape=(2, 3, 16))
    x = rng.standard_normal((6, 8)).astype(np.float32)
    steps, got, want = run_both(g.model(y), x)
    assert [s.node.op.name for s in steps] == ["MatMul+BiasAdd+Reshape+GeLU"]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_weights_only_products_read_are_found():
    """With how the products read them: MatMul's transpose_b and Dense read
    W (N, K) transposed; a weight also read another way (here added to a
    product, or read both ways) is not one of them."""
    g = GraphBuilder((16, 8))
    moved, plain, shared, dense, both = (
        rng.standard_normal((8, 8)).astype(np.float32) for _ in range(5))
    y = g.add("MatMul", X, moved, False, True, shape=(16, 8))
    y = g.add("MatMul", y, plain, False, False, shape=(16, 8))
    y = g.add("MatMul", y, shared, False, True, shape=(16, 8))
    y = g.add("Add", y, shared, shape=(16, 8))
    y = g.add("Reshape", y, (4, 4, 8), shape=(4, 4, 8))
    y = g.add("Dense", y, dense, shape=(4, 4, 8))
    y = g.add("Reshape", y, (2, 64), shape=(2, 64))
    y = g.add("MatMul", y, plain, False, False, shape=(2, 8))
    y = g.add("MatMul", y, both, False, True, shape=(2, 8))
    y = g.add("MatMul", y, both, False, False, shape=(-1, 8))
    assert gemm_pass.weights_products_read(g.model(y)) == {
        id(moved): (True, 16), id(plain): (False, 2), id(dense): (True, 16)}


@pytest.fixture(params=["packed", "transposed"])
def layout(request, monkeypatch):
    """Weights stored packed for our own product (where it serves float32:
    AMD, Intel with AVX2 only), or transposed for BLAS (elsewhere)."""
    if request.param == "transposed":
        monkeypatch.setattr(packed, "serves", lambda dtype: False)
    else:
        monkeypatch.setattr(packed, "serves", lambda dtype: dtype == F32)
    return request.param


@pytest.mark.parametrize("model", ["bert_tiny", "gpt2_tiny"])
def test_fused_transformers_keep_their_weights_as_their_products_read_them(
        model, layout):
    """On the fast backend, weights that only products read are stored in
    the layout they read: packed once for our own product (held by the
    fused plan's products themselves) where they have a tile's rows, or
    (K, N) contiguous for BLAS; the
    originals are freed as they are stored (no weight held twice); the
    weights' API gives W's values and shape; the reference backend keeps
    the file's layout. Outputs as MindSpore's."""
    case = golden_case(model)
    file = read_mindir(case.model_path)
    built = build_model(file)
    read = gemm_pass.weights_products_read(built)
    originals = {name.split(":", 1)[-1]: (weakref.ref(w), w.copy(), read[id(w)])
                 for g in file.graphs for name, w in g.parameters.items()
                 if id(w) in read}
    del built
    gemm_pass.store_weights(file, read)
    assert originals and all(ref() is None for ref, *_ in originals.values())
    fast, slow = (LoadedModel(case.model_path, b) for b in ("numba", "reference"))
    stored, plain = fast.parameters(unpack=False), slow.parameters(unpack=False)
    assert sum(rows >= packed.TILE_ROWS for *_, (_, rows) in originals.values()) >= 4
    for name, (_, values, (transposed, rows)) in originals.items():
        packs = layout == "packed" and rows >= packed.TILE_ROWS
        assert isinstance(stored[name], StoredWeight) is packs, name
        if not packs:   # (a pooler's two rows: BLAS's)
            layout_of = stored[name].T if transposed else stored[name]
            assert layout_of.flags.c_contiguous, name
        assert plain[name].flags.c_contiguous, name
        np.testing.assert_array_equal(fast.parameters()[name], values)
    if layout == "packed":
        in_plan = {id(value) for _, value in fast.program.constants()
                   if isinstance(value, packed.PackedRight)}
        assert in_plan == {id(value.layout) for value in stored.values()
                           if isinstance(value, StoredWeight)}
    np.testing.assert_allclose(fast.run(case.inputs())[0], case.outputs()[0],
                               **case.tolerance)


def test_replaced_weights_are_stored_as_their_products_read_them(layout):
    """update_weights' new arrays go the same way as the file's."""
    case = golden_case("bert_tiny")
    fast = LoadedModel(case.model_path, "numba")
    new = {name: 2 * w for name, w in fast.parameters().items()}
    fast.replace_parameters(new)
    slow = LoadedModel(case.model_path, "reference")
    slow.replace_parameters(new)
    stored, weights = fast.parameters(unpack=False), fast.parameters()
    packs = sum(isinstance(value, StoredWeight) for value in stored.values())
    assert packs >= 4 if layout == "packed" else packs == 0
    assert all(np.array_equal(weights[n], new[n]) for n in new)
    np.testing.assert_allclose(fast.run(case.inputs())[0],
                               slow.run(case.inputs())[0], **case.tolerance)


def test_products_of_fewer_rows_than_a_tile_keep_their_weights_for_blas(layout):
    """A CNN's classifier, or the golden MLP's two rows: reading the weight
    is the work, which BLAS's GEMV does once (the tile would compute all
    its rows): the weights are stored transposed, as BLAS reads them."""
    case = golden_case("mlp")
    fast = LoadedModel(case.model_path, "numba")
    stored = fast.parameters(unpack=False)
    products = [n for n, w in stored.items() if w.ndim == 2]
    assert products and all(stored[n].T.flags.c_contiguous for n in products)
    np.testing.assert_allclose(fast.run(case.inputs())[0], case.outputs()[0],
                               **case.tolerance)


def test_debugging_hooks_see_stored_weights_unpacked_but_hold_no_copy(layout):
    """The plan without fusions that hooks run reads a stored weight plain:
    each run unpacks it for its node (the hooks see an array), and the plan
    keeps only the stored weight between runs. Outputs as the fused plan's."""
    case = golden_case("bert_tiny")
    fast = LoadedModel(case.model_path, "numba")
    kinds = set()
    got = fast.run(case.inputs(), hooks=Hooks(
        before=lambda node, args: kinds.update(map(type, args))))
    assert np.ndarray in kinds and StoredWeight not in kinds
    unfused = fast._program(False, fused=False)
    held = [value for _, value in unfused.constants()
            if isinstance(value, StoredWeight)]
    assert len(held) >= 4 if layout == "packed" else not held
    for a, b in zip(got, fast.run(case.inputs())):
        np.testing.assert_allclose(a, b, **case.tolerance)


def test_a_product_of_a_stored_weight_falls_back_on_the_weight_unpacked():
    """A fused product whose input does not fit its kernel (float64 here)
    runs its nodes' reference kernels on the weight's values."""
    weight = rng.standard_normal((16, 8)).astype(np.float32)
    stored = StoredWeight(packed.PackedRight(weight.T), True)
    g = GraphBuilder((6, 8), np.float64)
    y = g.add("MatMul", X, stored, False, True, shape=(6, 16))
    plan = compile_model(g.model(y), "numba")
    step, = plan.plans["main"].steps
    assert any(isinstance(c, packed.PackedRight) for c in step.template)
    x = rng.standard_normal((6, 8))
    want = x @ weight.T.astype(np.float64)
    np.testing.assert_allclose(executor.run(plan, [x]), want, rtol=1e-6)


@pytest.mark.parametrize("flags", [(False, False), (False, True), (True, False)])
def test_a_product_reads_its_transposed_operands_as_views(flags):
    """Transposes that keep the last axis among the last two, read only by
    a BatchMatMul, fuse into it (it reads the permuted views), with either
    operand transposed by the product too; one that moves the last axis
    away, or whose value is read twice, stays."""
    g = GraphBuilder((2, 5, 3, 4))
    dims = {False: ((0, 2, 1, 3), (0, 2, 3, 1)), True: ((0, 2, 1, 3),) * 2}
    left_dims, right_dims = dims[flags[1]] if not flags[0] else ((0, 2, 3, 1),) * 2
    left, right = (g.add("Transpose", X, d, shape=tuple(
        (2, 5, 3, 4)[k] for k in d)) for d in (left_dims, right_dims))
    y = g.add("BatchMatMul", left, right, *flags, shape=(2, 3, 5, 5))
    kept = g.add("Transpose", X, (3, 1, 2, 0), shape=(4, 5, 3, 2))
    z = g.add("BatchMatMul", kept, kept, False, True, shape=(4, 5, 3, 3))
    twice = g.add("Transpose", X, (0, 2, 1, 3), shape=(2, 3, 5, 4))
    w = g.add("BatchMatMul", twice, twice, False, True, shape=(2, 3, 5, 5))
    out = g.add("MakeTuple", y, z, w, shape=())
    x = rng.standard_normal((2, 5, 3, 4)).astype(np.float32)
    steps, got, want = run_both(g.model(out), x)
    names = [s.node.op.name for s in steps]
    assert names.count("Transpose+Transpose+BatchMatMul") == 1, names
    assert names.count("BatchMatMul") == 2 and names.count("Transpose") == 2
    for a_, b_ in zip(got, want):
        np.testing.assert_allclose(a_, b_, rtol=1e-5, atol=1e-5)


def test_a_transposed_product_declines_operands_its_dims_do_not_fit():
    """(The fused node then runs its nodes' reference kernels, whose
    errors name the Transpose.)"""
    from refinfer.ops._kernels.gemm import transposed_batch_mat_mul
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    assert transposed_batch_mat_mul(x, x, (0, 2, 1, 3), None, False, False) is None
    assert transposed_batch_mat_mul((1, 2), x, None, None, False, False) is None
    got = transposed_batch_mat_mul(x, x, (0, 2, 1), None, False, False)
    np.testing.assert_allclose(got, x.transpose(0, 2, 1) @ x, rtol=1e-6)


ATTENTION = ("Transpose+Transpose+Transpose+BatchMatMul+Muls+Add+Softmax+"
             "BatchMatMul+Transpose")


@pytest.mark.parametrize("model", ["bert_tiny", "gpt2_tiny"])
def test_attention_runs_as_one_step_a_layer(model):
    """Each layer's attention (its heads split by Reshape and Transpose
    (0, 2, 1, 3), the scores' product, scale, mask (BERT's computed from
    its input mask, GPT-2's causal one), Softmax, the context's product
    and the Transpose joining the heads) is one step. Outputs as
    MindSpore's."""
    case = golden_case(model)
    fast = LoadedModel(case.model_path, "numba")
    names = [s.node.op.name for s in fast.program.plans[fast.program.main].steps]
    assert names.count(ATTENTION) == 2
    assert not any("BatchMatMul" in n or "Softmax" in n for n in names
                   if n != ATTENTION)
    np.testing.assert_allclose(fast.run(case.inputs())[0], case.outputs()[0],
                               **case.tolerance)


def _attention(g, mask=None, scale_first=False, read_probabilities=False):
    """Attention over the input's heads (2, 5, 3, 4) in ``g``: the scores
    scaled by Mul (the constant first where ``scale_first``) and masked by
    Add(mask, .) where a mask is given; the output, or (output,
    probabilities) where ``read_probabilities``."""
    heads = tuple((2, 5, 3, 4)[d] for d in HEADS)
    q, k, v = (g.add("Transpose", X, HEADS, shape=heads) for _ in range(3))
    s = g.add("BatchMatMul", q, k, False, True, shape=(2, 3, 5, 5))
    half = np.float32(0.5)
    s = g.add("Mul", *((half, s) if scale_first else (s, half)),
              shape=(2, 3, 5, 5))
    if mask is not None:
        s = g.add("Add", mask, s, shape=(2, 3, 5, 5))
    p = g.add("Softmax", s, (-1,), shape=(2, 3, 5, 5))
    c = g.add("BatchMatMul", p, v, False, False, shape=heads)
    out = g.add("Transpose", c, HEADS, shape=(2, 5, 3, 4))
    return g.add("MakeTuple", out, p, shape=()) if read_probabilities else out


HEADS = (0, 2, 1, 3)


@pytest.mark.parametrize("mask", ["none", "constant", "computed"])
def test_an_attention_with_its_mask_is_one_step(mask):
    """A constant scale either side of Mul, the mask (a constant, or a
    value computed from the input) either side of the Add."""
    g = GraphBuilder((2, 5, 3, 4))
    given = None
    if mask == "constant":
        given = Ref(RefKind.CONST, np.triu(np.full((5, 5), -1e4, F32), 1))
    elif mask == "computed":    # a padding mask: one row per batch item
        given = g.add("ReduceSum", X, (2, 3), True, shape=(2, 5, 1, 1))
        given = g.add("Transpose", given, (0, 2, 3, 1), shape=(2, 1, 1, 5))
    out = _attention(g, given, scale_first=mask == "constant")
    x = rng.standard_normal((2, 5, 3, 4)).astype(np.float32)
    steps, got, want = run_both(g.model(out), x)
    names = [s.node.op.name for s in steps]
    fused = "+".join(["Transpose"] * 3 + ["BatchMatMul", "Mul"] + (
        [] if mask == "none" else ["Add"]) + ["Softmax", "BatchMatMul",
                                              "Transpose"])
    assert names[-1] == fused and len(names) == 1 + 2 * (mask == "computed")
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_an_attention_whose_probabilities_are_read_stays_apart():
    """(Its products still read their Transposes' views.)"""
    g = GraphBuilder((2, 5, 3, 4))
    out = _attention(g, read_probabilities=True)
    x = rng.standard_normal((2, 5, 3, 4)).astype(np.float32)
    steps, got, want = run_both(g.model(out), x)
    names = [s.node.op.name for s in steps]
    assert "Softmax" in names and "Transpose+Transpose+BatchMatMul" in names
    for a_, b_ in zip(got, want):
        np.testing.assert_allclose(a_, b_, rtol=1e-5, atol=1e-6)


def test_an_attention_the_kernel_declines_runs_its_nodes():
    """float64 heads against the float32 mask: the fused step's kernel
    declines, its nodes' reference kernels compute it."""
    g = GraphBuilder((2, 5, 3, 4), np.float64)
    out = _attention(g, Ref(RefKind.CONST, np.zeros((5, 5), np.float32)))
    x = rng.standard_normal((2, 5, 3, 4))
    steps, got, want = run_both(g.model(out), x)
    assert len(steps) == 1 and got.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_mobilenet_folds_batchnorm_and_runs_its_blocks_as_one_step():
    """35 fused ReLU6 convolutions, 10 with a residual Add; the 16
    inverted residual blocks with an expansion become one step each, and
    so does the first block (no expansion) with the network's stem, the
    convolution before it."""
    case = golden_case("mobilenetv2")
    fast = LoadedModel(case.model_path, "numba")
    names = [s.node.op.name for s in fast.program.plans[fast.program.main].steps]
    assert not any(n in ("BatchNorm", "ReLU6", "TupleGetItem") for n in names)
    blocks = [n for n in names if n.count("Conv2D") == 3]
    assert len(blocks) == 17 and sum(n.endswith("+Add") for n in blocks) == 10
    assert names.count("Conv2D+BatchNorm+TupleGetItem+ReLU6") == 35 - 2 * 17
    assert names.count("Conv2D+BatchNorm+TupleGetItem+Add") == 0
    got = fast.run(case.inputs())[0]
    np.testing.assert_allclose(got, case.outputs()[0], **case.tolerance)


def test_hooks_see_every_node_of_the_unfused_plan():
    case = golden_case("mobilenetv2")
    fast = LoadedModel(case.model_path, "numba")
    seen = []
    out = fast.run(case.inputs(), executor.Hooks(
        after=lambda node, args, result: seen.append(node.op.name)))[0]
    assert seen.count("BatchNorm") == 52 and seen.count("ReLU6") == 35
    np.testing.assert_allclose(out, case.outputs()[0], **case.tolerance)


ACTIVATIONS = {
    _fast.ACT_NONE: lambda v: v,
    _fast.ACT_RELU: lambda v: np.maximum(v, 0),
    _fast.ACT_RELU6: lambda v: np.clip(v, 0, 6),
    _fast.ACT_HSWISH: lambda v: v * np.clip(v + 3, 0, 6) / 6,
    _fast.ACT_SIGMOID: lambda v: 1 / (1 + np.exp(-v)),
    _fast.ACT_TANH: np.tanh,
    _fast.ACT_GELU: lambda v: 0.5 * v * (1 + np.tanh(np.sqrt(2 / np.pi)
                                                     * (v + 0.044715 * v ** 3))),
    _fast.ACT_FAST_GELU: lambda v: v / (1 + np.exp(-1.702 * np.abs(v)))
    * np.exp(0.851 * (v - np.abs(v))),
    _fast.ACT_SILU: lambda v: v / (1 + np.exp(-v)),
    _fast.ACT_HSIGMOID: lambda v: np.clip(v + 3, 0, 6) / 6,
    _fast.ACT_MISH: lambda v: v * np.tanh(np.logaddexp(0, v)),
    _fast.ACT_GELU_ERF: lambda v: 0.5 * v * (1 + np.vectorize(math.erf)(
        v / np.sqrt(2))),
    _fast.ACT_SOFTPLUS: lambda v: np.logaddexp(0, v),
}


@pytest.mark.parametrize("act", sorted(ACTIVATIONS))
@pytest.mark.parametrize("geometry", [(16, 16, 3, 1, 1, 30), (16, 24, 1, 1, 1, 20),
                                      (16, 16, 3, 2, 16, 15), (32, 32, 3, 1, 32, 40),
                                      (40, 40, 3, 1, 40, 7),
                                      (6, 12, 3, 1, 2, 12)], ids=str)
def test_fused_convolution_equals_its_parts(act, geometry):
    """act(conv(x, W) + b + residual) for dense, 1x1, depthwise (both
    layouts) and grouped convolutions."""
    c_in, c_out, k, stride, group, size = geometry
    x = rng.standard_normal((2, c_in, size, size)).astype(np.float32)
    w = rng.standard_normal((c_out, c_in // group, k, k)).astype(np.float32) * 0.3
    b = rng.standard_normal(c_out).astype(np.float32)
    conv = registry.get_op("Conv2D").reference
    pad = (k // 2,) * 4
    base = conv(x, w, None, None, 1, "PAD", pad, (stride, stride), (1, 1), group)
    residual = rng.standard_normal(base.shape).astype(np.float32)
    for with_residual in (False, True):
        want = ACTIVATIONS[act](base + b.reshape(1, -1, 1, 1)
                                + (residual if with_residual else 0))
        got = fused_conv2d(x, residual if with_residual else None, w, b, act, "PAD",
                           pad, (stride, stride), (1, 1), group)
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("act", [_fast.ACT_NONE, _fast.ACT_RELU, _fast.ACT_RELU6,
                                 _fast.ACT_SILU])
@pytest.mark.parametrize("geometry", [(16, 32, 15, 13, "PAD", (1, 1, 1, 1)),
                                      (8, 8, 9, 9, "SAME", (0, 0, 0, 0)),
                                      (12, 4, 10, 7, "PAD", (0, 2, 2, 0)),
                                      (4, 6, 6, 6, "VALID", (0, 0, 0, 0)),
                                      (8, 20, 17, 16, "PAD", (1, 1, 1, 1)),
                                      (8, 24, 8, 8, "SAME", (0, 0, 0, 0))],
                         ids=str)
@pytest.mark.parametrize("way", ["lanes", "packed", "blas"])
def test_winograd_convolution_equals_the_direct_one(monkeypatch, act, geometry,
                                                    way):
    """Every way of Winograd's products: u_k packed with the output
    channels as lanes (the plan knows the plane: in slivers of
    IMAGE_COLUMNS below LANES_MIN_PIXELS tiles, of a vector from there;
    im2col's where a plane of fewer tiles than a tile's rows comes),
    packed for our own product, and plain for the BLAS."""
    monkeypatch.setattr(packed, "enabled", lambda: way != "blas")
    c_in, c_out, h, w, pad_mode, pad = geometry
    x = rng.standard_normal((2, c_in, h, w)).astype(np.float32)
    weight = rng.standard_normal((c_out, c_in, 3, 3)).astype(np.float32) * 0.3
    b = rng.standard_normal(c_out).astype(np.float32)
    args = (b, act, pad_mode, pad, (1, 1), (1, 1), 1)
    direct = fused_conv2d(x, None, weight, *args)
    tiles = math.prod(WinogradFilter.tile_grid(*direct.shape[2:]))
    residual = rng.standard_normal(direct.shape).astype(np.float32)
    for res in (None, residual):
        want = fused_conv2d(x, res, weight, *args)
        winograd = WinogradFilter(weight, tiles if way == "lanes" else None)
        assert winograd.packed == (way != "blas")
        assert winograd.columns == (packed.channels_columns(np.float32, tiles)
                                    if way == "lanes" else 0)
        got = fused_conv2d(x, res, winograd, *args)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=2e-5)


@pytest.mark.skipif(packed.TILE_NAME != "avx512", reason="AVX-512 tiles only")
@pytest.mark.parametrize("tiles, columns", [
    (6, 0), (7, packed.IMAGE_COLUMNS), (15, packed.IMAGE_COLUMNS),
    (16, packed.VECTOR), (17, packed.IMAGE_COLUMNS), (28, packed.IMAGE_COLUMNS),
    (29, packed.VECTOR), (48, packed.VECTOR), (49, packed.IMAGE_COLUMNS),
    (63, packed.IMAGE_COLUMNS), (64, packed.VECTOR)])
def test_winograd_takes_the_channels_as_lanes_on_a_known_plane(tiles, columns):
    """The sliver width follows the plane's tiles as a convolution's
    would its pixels: the 16 x 16 tile from 64, and below where it
    computes no more columns in vain than the 7 x 48 one (16, 29-32,
    43-48); a plane of fewer tiles than a 7 x 48 tile's rows
    leaves u_k packed for the product with the tiles as lanes. A plane
    smaller than the plan's, of fewer tiles than the tile's rows, takes
    that many columns (the last ones never read)."""
    weight = rng.standard_normal((8, 8, 3, 3)).astype(np.float32)
    winograd = WinogradFilter(weight, tiles)
    assert winograd.columns == columns
    assert winograd.shape == weight.shape and winograd.dtype == weight.dtype
    x = rng.standard_normal((1, 8, 4, 4)).astype(np.float32)   # 4 tiles
    assert winograd.pitch(4) == (packed.fewest_pixels(columns) if columns
                                 else 4)
    args = (None, _fast.ACT_RELU, "PAD", (1, 1, 1, 1), (1, 1), (1, 1), 1)
    np.testing.assert_allclose(fused_conv2d(x, None, winograd, *args),
                               fused_conv2d(x, None, weight, *args),
                               rtol=1e-5, atol=2e-5)


@pytest.mark.parametrize("enabled, tile", [(True, "avx2"), (True, "avx512"),
                                           (False, "avx512")])
def test_convolutions_keep_their_weights_packed_for_our_own_products(
        monkeypatch, enabled, tile):
    """Where refinfer's own product is enabled (AVX2 CPUs), the
    convolutions that add a residual keep their weight packed for it:
    resnet18_narrow's 3x3 ones on 8x8, 4x4 and 2x2 (a partial tile), not
    those on 16x16 (Winograd's); nowhere where it is not enabled. With the
    AVX-512 tile, every one-group convolution with an output plane of
    IMAGE_ROWS pixels or more that is not Winograd's takes the channels as
    lanes instead, in slivers of a vector (4x4: 16 pixels, a tile of
    them; 8x8, the stem's 32x32); the 2x2 planes are too small."""
    monkeypatch.setattr(packed, "enabled", lambda: enabled)
    monkeypatch.setattr(packed, "TILE_NAME", tile)
    case = golden_case("resnet18_narrow")
    fast = LoadedModel(case.model_path, "numba")
    weights = [(next((a for a in step.template if isinstance(
                a, (PackedWeight, packed.PackedChannels))), None),
                step.node.op.name.endswith("+Add+ReLU"),
                step.node.abstract.shape[2:])
               for step in fast.program.plans[fast.program.main].steps
               if step.node.op.family == "fused"
               and step.node.op.name.startswith("Conv2D")]
    kinds = [(type(weight).__name__ if weight is not None else None, residual,
              plane, getattr(weight, "columns", None))
             for weight, residual, plane in weights]
    with_residual = sorted(plane for _, residual, plane, _ in kinds if residual)
    assert with_residual == [(2, 2)] * 2 + [(4, 4)] * 2 + [(8, 8)] * 2 + [(16, 16)] * 2
    left = sorted(plane for kind, _, plane, _ in kinds if kind == "PackedWeight")
    lanes = sorted(set((plane, columns) for kind, _, plane, columns in kinds
                       if kind == "PackedChannels"))
    channels = enabled and tile == "avx512"
    assert left == ([] if not enabled else [(2, 2)] * 2 if channels
                    else [(2, 2)] * 2 + [(4, 4)] * 2 + [(8, 8)] * 2)
    assert lanes == ([((4, 4), packed.VECTOR), ((8, 8), packed.VECTOR),
                      ((32, 32), packed.VECTOR)] if channels else [])
    np.testing.assert_allclose(fast.run(case.inputs())[0], case.outputs()[0],
                               **case.tolerance)


COLUMNS = packed.TILE_COLUMNS    # 16 on AVX2, 32 on AVX-512


LANES = packed.TILE_NAME == "avx512"   # u_k packed with the channels as lanes


@pytest.mark.parametrize("tiles, channels, packs, pays", [
    (36, 64, False, True), (35, 512, False, False), (COLUMNS, 512, True, True),
    (COLUMNS, 255, True, False), (COLUMNS - 1, 512, True, LANES),
    (packed.IMAGE_ROWS, 512, True, LANES),
    (packed.IMAGE_ROWS - 1, 512, True, False), (packed.IMAGE_ROWS, 255, True,
                                                False),
    (COLUMNS, 512, False, False), (None, 8, False, True)])
def test_winograd_pays_from_fewer_tiles_where_its_filter_packs(
        monkeypatch, tiles, channels, packs, pays):
    """Measured break-evens (passes/conv.py): 36 tiles with the BLAS's
    products, a register tile's columns with packed ones on a deep enough
    weight, a 7 x 48 tile's rows where u_k takes the channels as lanes."""
    monkeypatch.setattr(packed, "enabled", lambda: True)
    assert conv_pass.winograd_pays(tiles, channels, packs) == pays


def test_resnet_uses_winograd_for_its_3x3_stride_1_convolutions_of_large_planes():
    """Winograd on output planes of WINOGRAD_MIN_TILES 2x2 tiles or more
    (resnet18_narrow's four 16x16 ones), im2col + GEMM on the smaller."""
    case = golden_case("resnet18_narrow")
    fast = LoadedModel(case.model_path, "numba")
    planes = {"winograd": [], "gemm": []}
    for step in fast.program.plans[fast.program.main].steps:
        weight = next((a for a in step.template if isinstance(
            a, (np.ndarray, WinogradFilter, PackedWeight,
                packed.PackedChannels))), None)
        if step.node.op.family == "fused" and weight is not None \
                and getattr(weight, "weight", weight).shape[2:] == (3, 3):
            kind = "winograd" if isinstance(weight, WinogradFilter) else "gemm"
            planes[kind].append(step.node.abstract.shape[2:])
    assert planes["winograd"] == [(16, 16)] * 4
    assert sorted(set(planes["gemm"])) == [(2, 2), (4, 4), (8, 8)]
    np.testing.assert_allclose(fast.run(case.inputs())[0], case.outputs()[0],
                               **case.tolerance)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("geometry", [
    # (C, C_e, C_p, H, W, stride, pad_mode, pads, residual)
    (4, 24, 4, 9, 7, 1, "PAD", (1, 1, 1, 1), True),
    (3, 16, 5, 10, 9, 2, "PAD", (1, 1, 1, 1), False),
    (8, 40, 8, 6, 6, 1, "SAME", (0, 0, 0, 0), True),
    (6, 12, 9, 7, 8, 2, "SAME", (0, 0, 0, 0), False),
    (5, 10, 3, 5, 6, 1, "VALID", (0, 0, 0, 0), False),
    (4, 8, 4, 3, 3, 2, "PAD", (0, 2, 1, 0), False),
    # more expanded channels than two of the channel split's steps
    (6, 2 * packed.IMAGE_COLUMNS + 8, 5, 6, 5, 1, "PAD", (1, 1, 1, 1), True)],
    ids=str)
@pytest.mark.parametrize("acts", [
    (_fast.ACT_RELU6, _fast.ACT_HSWISH, _fast.ACT_NONE),
    (_fast.ACT_RELU, _fast.ACT_HSIGMOID, _fast.ACT_HSWISH)], ids=str)
@pytest.mark.parametrize("split", ["bands", "bands in rows", "channels"])
@pytest.mark.parametrize("expansion", [
    # (kernel, pad_mode, pads, stride, dilation)
    ((1, 1), "PAD", (0,) * 4, 1, 1),
    ((3, 3), "PAD", (1, 1, 1, 1), 2, 1),
    ((2, 3), "SAME", (0,) * 4, 1, 2)], ids=str)
def test_inverted_residual_equals_its_three_convolutions(geometry, dtype, acts,
                                                        split, expansion,
                                                        monkeypatch):
    """One step, channel-last inside: the same numbers as the expansion
    (1x1, or a stem's kernel), 3x3 depthwise and 1x1 convolutions in NCHW,
    on images with borders all round, strides 1 and 2, every pad mode, a
    residual or not; with two threads each image is split in pieces of
    output rows the threads claim (whole bands, or a row each) or in
    ranges of expanded channels (partial projections summed: uneven
    ranges where the channels are more than two steps), however small."""
    monkeypatch.setattr(separable, "min_items", lambda *args: 1)
    monkeypatch.setattr(separable, "CHANNEL_SPLIT_PIXELS",
                        1 << 30 if split == "channels" else 0)
    monkeypatch.setattr(separable, "PIECE_BYTES",
                        1 if split == "bands in rows" else 1 << 30)
    c, ce, cp, h, w, stride, pad_mode, pads, with_residual = geometry
    kernel, e_mode, e_pads, e_stride, e_dilation = expansion
    x = rng.standard_normal((2, c, h * e_stride, w * e_stride)).astype(dtype)
    weights = [rng.standard_normal(shape).astype(dtype) * 0.3 for shape in
               ((ce, c) + kernel, (ce, 1, 3, 3), (cp, ce, 1, 1))]
    biases = [rng.standard_normal(n).astype(dtype) for n in (ce, ce, cp)]
    layers = [(e_mode, e_pads, (e_stride,) * 2, (e_dilation,) * 2, 1),
              (pad_mode, pads, (stride, stride), (1, 1), ce),
              ("VALID", (0,) * 4, (1, 1), (1, 1), 1)]
    want = x
    for k, (weight, bias, act, (mode, pad, step, dilation, group)) in \
            enumerate(zip(weights, biases, acts, layers)):
        last = k == 2
        residual = rng.standard_normal(fused_conv2d(
            want, None, weight, bias, act, mode, pad, step, dilation, group
        ).shape).astype(dtype) if last and with_residual else None
        want = fused_conv2d(want, residual, weight, bias, act, mode, pad,
                            step, dilation, group)
    block = InvertedResidual(*weights, biases, acts,
                             (pad_mode, pads, (stride, stride)),
                             layers[0][:4])
    got = inverted_residual(x, residual, block)
    assert got.dtype == dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


def _conv(g, x, weight, shape, pad_mode="VALID", pad=(0,) * 4, stride=1,
          group=1):
    return g.add("Conv2D", x, weight, weight.shape[0], weight.shape[2:], 1,
                 pad_mode, pad, (stride, stride), (1, 1), group, "NCHW", None,
                 shape=shape)


@pytest.mark.parametrize("size, act, fused", [(56, "ReLU6", True),
                                             (57, "ReLU6", False),
                                             (28, "Sigmoid", False)])
def test_an_inverted_residual_block_runs_as_one_step(size, act, fused):
    """1x1 + ReLU6, 3x3 depthwise + ReLU6, 1x1 + residual Add: one step
    (up to 56x56 stride-1 depthwise planes, where channel-last is the
    faster, and light activations only), equal to the reference; another
    dtype at run time runs the original nodes."""
    shape = (1, 8, size, size)
    g = GraphBuilder(shape)
    weights = [rng.standard_normal(s).astype(np.float32) * 0.3
               for s in ((24, 8, 1, 1), (24, 1, 3, 3), (8, 24, 1, 1))]
    e = g.add(act, _conv(g, X, weights[0], (1, 24, size, size)),
              shape=(1, 24, size, size))
    d = g.add("ReLU6", _conv(g, e, weights[1], (1, 24, size, size), "PAD",
                             (1,) * 4, group=24), shape=(1, 24, size, size))
    y = g.add("Add", _conv(g, d, weights[2], shape), X, shape=shape)
    x = rng.standard_normal(shape).astype(np.float32)
    steps, got, want = run_both(g.model(y), x)
    assert (len(steps) == 1) is (fused and blas.native_gemm())
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    got64 = executor.run(compile_model(g.model(y), "numba"), [x.astype(np.float64)])
    want64 = executor.run(compile_model(g.model(y), "reference"),
                          [x.astype(np.float64)])
    assert got64.dtype == np.float64
    np.testing.assert_allclose(got64, want64, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("channels, fused", [(3, True), (4, False)])
def test_a_stem_and_the_block_after_it_run_as_one_step(channels, fused):
    """A stride-2 3x3 convolution of few channels (at most STEM_DEPTH
    values per output: 3 x 9, not 4 x 9), a 3x3 depthwise convolution and
    a 1x1 projection: one step even on a large stride-1 depthwise plane,
    equal to the reference."""
    shape, size = (1, channels, 128, 128), 64
    g = GraphBuilder(shape)
    weights = [rng.standard_normal(s).astype(np.float32) * 0.3 for s in
               ((16, channels, 3, 3), (16, 1, 3, 3), (8, 16, 1, 1))]
    plane = (1, 16, size, size)
    e = g.add("ReLU6", _conv(g, X, weights[0], plane, "PAD", (1,) * 4, 2),
              shape=plane)
    d = g.add("ReLU6", _conv(g, e, weights[1], plane, "PAD", (1,) * 4,
                             group=16), shape=plane)
    y = _conv(g, d, weights[2], (1, 8, size, size))
    x = rng.standard_normal(shape).astype(np.float32)
    steps, got, want = run_both(g.model(y), x)
    assert (len(steps) == 1) is (fused and blas.native_gemm())
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_inverted_residual_declines_what_it_does_not_fit():
    weights = [np.ones(shape, np.float32) for shape in
               ((8, 4, 1, 1), (8, 1, 3, 3), (4, 8, 1, 1))]
    block = InvertedResidual(*weights, (None,) * 3, (_fast.ACT_NONE,) * 3,
                             ("SAME", (0,) * 4, (1, 1)))
    x = np.ones((1, 4, 5, 5), np.float32)
    assert inverted_residual(x.astype(np.float64), None, block) is None
    assert inverted_residual(x[:, :3], None, block) is None
    assert inverted_residual(x, np.ones((1, 4, 4, 4), np.float32), block) is None
    np.testing.assert_array_equal(inverted_residual(x, x, block)[0, :, 2, 2],
                                  [4 * 9 * 8 + 1.0] * 4)
    with pytest.raises(ValueError, match=r"depthwise stride is 1 or 2, not \(3, 3\)"):
        InvertedResidual(*weights, (None,) * 3, (_fast.ACT_NONE,) * 3,
                         ("SAME", (0,) * 4, (3, 3)))


def test_fused_convolution_declines_what_it_does_not_fit():
    x = rng.standard_normal((1, 4, 6, 6)).astype(np.float32)
    w = rng.standard_normal((4, 4, 3, 3)).astype(np.float32)
    args = (w, None, _fast.ACT_NONE, "VALID", (0, 0, 0, 0), (1, 1), (1, 1), 1)
    assert fused_conv2d(x.astype(np.float64), None, *args) is None
    assert fused_conv2d(x, np.zeros((1, 4, 5, 5), np.float32), *args) is None


def _residual_block(reader: str):
    """x -> a = ReLU(conv(x)), b = ReLU(conv(a)), c = ReLU(conv(b) + a),
    then ``reader``: "none" (c is the output), "later" (Add(c, a): a is
    read after c's convolution), "image" (c's convolution reads a as
    its image too: conv(a) + a), "input" (the residual is x)."""
    shape = (1, 16, 9, 9)
    g = GraphBuilder(shape)
    w = [rng.standard_normal((16, 16, 1, 1)).astype(np.float32) * 0.3
         for _ in range(3)]
    a = g.add("ReLU", _conv(g, X, w[0], shape), shape=shape)
    b = g.add("ReLU", _conv(g, a, w[1], shape), shape=shape)
    image, residual = {"image": (a, a), "input": (b, X)}.get(reader, (b, a))
    c = g.add("ReLU", g.add("Add", _conv(g, image, w[2], shape), residual,
                            shape=shape), shape=shape)
    out = g.add("Add", c, a, shape=shape) if reader == "later" else c
    return g.model(out), rng.standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("reader, onto", [("none", True), ("later", False),
                                          ("image", False), ("input", False)])
def test_a_convolution_writes_over_its_residual_where_none_else_reads_it(
        monkeypatch, reader, onto):
    """Only where the residual is another fused convolution's result that
    no later node reads (and not this convolution's image too); the
    results as the reference's either way."""
    monkeypatch.setattr(packed, "enabled", lambda: True)
    model, x = _residual_block(reader)
    steps, got, want = run_both(model, x)
    residual_steps = [s for s in steps if s.node.op.name.endswith("Add+ReLU")]
    assert [s.template[-1] is True for s in residual_steps] == [onto]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("weight_kind", ["packed", "channels", "plain"])
def test_a_convolution_told_to_write_over_its_residual_does_where_it_can(
        weight_kind):
    """With a packed weight (for either product) the result is the
    residual array itself (a read-only one is left alone), over several
    depth blocks too; a plain weight's product writes an array of its
    own."""
    x = rng.standard_normal((1, packed.DEPTH_BLOCK + 40, 5, 7)).astype(F32)
    w = rng.standard_normal((20, x.shape[1], 1, 1)).astype(F32) * 0.1
    bias = rng.standard_normal(20).astype(F32)
    weight = {"packed": PackedWeight, "channels": packed.PackedChannels}.get(
        weight_kind, np.asarray)(w)
    args = (bias, _fast.ACT_RELU, "VALID", (0,) * 4, (1, 1), (1, 1), 1)
    residual = rng.standard_normal((1, 20, 5, 7)).astype(F32)
    want = fused_conv2d(x, residual.copy(), w, *args)
    kept = residual.copy()
    got = fused_conv2d(x, residual, weight, *args, True)
    assert (got is residual) is (weight_kind != "plain")
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    if weight_kind == "plain":
        np.testing.assert_array_equal(residual, kept)
    kept.flags.writeable = False
    assert fused_conv2d(x, kept, weight, *args, True) is not kept


def test_fused_kernel_falls_back_to_the_original_nodes():
    g = GraphBuilder((4,))
    a = g.add("Mul", X, 3.0, shape=(4,))
    b = g.add("Add", a, 1.0, shape=(4,))
    fused = fused_node(g.nodes, lambda x: None, [X])
    kernel = fused.op.kernel(FUSED_BACKEND)
    assert fused.op.reference._steps is None    # made at the first fallback
    x = np.arange(4, dtype=np.int32)
    np.testing.assert_array_equal(kernel(x), x * 3 + 1)
    assert len(fused.op.reference._steps) == 2
    assert b.key == g.nodes[-1].name
