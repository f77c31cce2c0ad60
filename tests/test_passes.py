"""Plan-time rewrites of the fast backend (refinfer/passes): what they fuse,
what they must leave alone, and the reference fallback of fused nodes.
Results are compared with the reference backend's (op by op)."""
import numpy as np
import pytest

from refinfer import executor, registry, threads
from refinfer.format.reader import ValueInfo
from refinfer.format.values import Abstract
from refinfer.graph import Arg, Graph, Model, Node, Ref, RefKind
from refinfer.ops._kernels import program as _fast
from refinfer.ops._kernels.conv import WinogradFilter, fused_conv2d
from refinfer.passes import elementwise
from refinfer.passes.elementwise import fuse_elementwise
from refinfer.passes.fused import FUSED_BACKEND, GraphEditor, fused_node
from refinfer.plan import compile_model
from refinfer.runtime import LoadedModel

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


def test_mobilenet_folds_batchnorm_and_fuses_activations():
    case = golden_case("mobilenetv2")
    fast = LoadedModel(case.model_path, "numba")
    names = [s.node.op.name for s in fast.program.plans[fast.program.main].steps]
    assert not any(n in ("BatchNorm", "ReLU6", "TupleGetItem") for n in names)
    assert names.count("Conv2D+BatchNorm+TupleGetItem+ReLU6") == 35
    assert names.count("Conv2D+BatchNorm+TupleGetItem+Add") == 10
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


@pytest.mark.parametrize("act", range(8))
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
}


@pytest.mark.parametrize("act", [_fast.ACT_NONE, _fast.ACT_RELU, _fast.ACT_RELU6])
@pytest.mark.parametrize("geometry", [(16, 32, 15, 13, "PAD", (1, 1, 1, 1)),
                                      (8, 8, 9, 9, "SAME", (0, 0, 0, 0)),
                                      (12, 4, 10, 7, "PAD", (0, 2, 2, 0)),
                                      (4, 6, 6, 6, "VALID", (0, 0, 0, 0))], ids=str)
def test_winograd_convolution_equals_the_direct_one(act, geometry):
    c_in, c_out, h, w, pad_mode, pad = geometry
    x = rng.standard_normal((2, c_in, h, w)).astype(np.float32)
    weight = rng.standard_normal((c_out, c_in, 3, 3)).astype(np.float32) * 0.3
    b = rng.standard_normal(c_out).astype(np.float32)
    args = (b, act, pad_mode, pad, (1, 1), (1, 1), 1)
    direct = fused_conv2d(x, None, weight, *args)
    residual = rng.standard_normal(direct.shape).astype(np.float32)
    for res in (None, residual):
        want = fused_conv2d(x, res, weight, *args)
        got = fused_conv2d(x, res, WinogradFilter(weight), *args)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=2e-5)


def test_resnet_uses_winograd_for_its_3x3_stride_1_convolutions():
    case = golden_case("resnet18_narrow")
    fast = LoadedModel(case.model_path, "numba")
    weights = [a for s in fast.program.plans[fast.program.main].steps
               if s.node.op.family == "fused" for a in s.template]
    assert sum(isinstance(w, WinogradFilter) for w in weights) == 13
    np.testing.assert_allclose(fast.run(case.inputs())[0], case.outputs()[0],
                               **case.tolerance)


def test_fused_convolution_declines_what_it_does_not_fit():
    x = rng.standard_normal((1, 4, 6, 6)).astype(np.float32)
    w = rng.standard_normal((4, 4, 3, 3)).astype(np.float32)
    args = (w, None, _fast.ACT_NONE, "VALID", (0, 0, 0, 0), (1, 1), (1, 1), 1)
    assert fused_conv2d(x.astype(np.float64), None, *args) is None
    assert fused_conv2d(x, np.zeros((1, 4, 5, 5), np.float32), *args) is None


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
