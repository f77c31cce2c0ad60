"""Control-flow models at inputs MindSpore did not run, against NumPy
re-implementations of the networks (tools/golden/nets.py) with the weights
read from the model file. The golden cases themselves run in
tests/test_golden.py."""
import numpy as np
import pytest

from refinfer.format.values import MONAD
from refinfer.graph import RefKind
from refinfer.runtime import LoadedModel

from golden_cases import assert_close, golden_case

TOL = dict(rtol=1e-5, atol=1e-6)


def _model(name):
    case = golden_case(name)
    return case, LoadedModel(case.model_path)


def _weights(model):
    """Parameters by their short name (``fc.weight``)."""
    return {name.split(":", 1)[-1]: value
            for name, value in model.file.main.parameters.items()}


def nested_loops(x, n, weight, bias):
    """nets.CtrlNestedLoops."""
    total = np.zeros_like(x)
    for i in range(n):
        for j in range(i):
            if (x * np.float32(j)).sum() > 0:
                total = total + (x @ weight.T + bias) * np.float32(0.1)
            else:
                total = total - x
        x = np.tanh(x + total)
    return x, total


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_nested_loops_with_a_layer_in_a_branch(n):
    case, model = _model("ctrl_nested_loops")
    x = case.inputs()[0]
    w = _weights(model)
    got = model.run([x, np.array(n, np.int32)])
    for out, exp in zip(got, nested_loops(x, n, w["fc.weight"], w["fc.bias"])):
        assert_close(out, exp.astype(np.float32), **TOL)


def test_partial_keeps_the_monad_argument_of_its_graph():
    """Branch graphs that read weights declare a UMonad input; the Partial
    binding their arguments must pass it (only kernels drop monads)."""
    _, model = _model("ctrl_nested_loops")
    partials = [node for g in model.model.graphs.values() for node in g.nodes
                if node.op is not None and node.op.name == "Partial"]
    assert any(arg.ref.kind is RefKind.CONST and arg.ref.key is MONAD
               for node in partials for arg in node.args)


def while_if(x, n):
    """nets.CtrlWhileIf."""
    for _ in range(n):
        x = x * np.float32(0.5) if x.sum() > 4.0 else x + np.float32(1.0)
    return x


@pytest.mark.parametrize("n", [0, 1, 7, 300])
def test_while_with_if_in_the_body(n):
    case, model = _model("ctrl_while_if")
    x = case.inputs()[0]
    (got,) = model.run([x, np.array(n, np.int32)])
    assert_close(got, while_if(x, n), **TOL)


def while_break(x, limit):
    """nets.CtrlWhileBreak."""
    k = 0
    while k < 50:
        x = np.tanh(x) + np.float32(0.25)
        k += 1
        if x.min() > limit:
            break
    return x, np.array(k, np.int32)


@pytest.mark.parametrize("limit", [-2.0, 0.3, 0.9, 5.0])
def test_while_with_break(limit):
    """-2 breaks at once, 5 never breaks (all 50 iterations)."""
    case, model = _model("ctrl_while_break")
    x = case.inputs()[0]
    got = model.run([x, np.array(limit, np.float32)])
    expected = while_break(x, limit)
    assert_close(got[1], expected[1], rtol=0, atol=0)
    assert_close(got[0], expected[0], **TOL)


def early_return(x):
    """nets.CtrlEarlyReturn."""
    if x.max() > 2.0:
        return x * np.float32(2.0)
    y = np.maximum(x, 0)
    if y.sum() < 1.0:
        return y - np.float32(1.0)
    return np.exp(-y)


@pytest.mark.parametrize("value", [3.0, -0.5, 0.5, 2.0])
def test_early_return(value):
    _, model = _model("ctrl_return_first")
    x = np.full((2, 3), value, np.float32)
    (got,) = model.run([x])
    assert_close(got, early_return(x), **TOL)


# -- functional loops (ops.WhileLoop, ops.ForiLoop, ops.Scan; issue 14) ------------
# Graph mode lowers them to loop graphs (Switch, Partial, ListAppend): the
# primitives themselves never reach the file.
def test_functional_loops_are_lowered_to_loop_graphs():
    for name in ("ctrl_whileloop", "ctrl_foriloop", "ctrl_scan"):
        _, model = _model(name)
        ops = {node.op.name for g in model.model.graphs.values() for node in g.nodes
               if node.op is not None}
        assert "Switch" in ops and not ops & {"WhileLoop", "ForiLoop", "Scan"}, name


@pytest.mark.parametrize("seed", [1, 2])
def test_while_loop_op_at_other_inputs(seed):
    """nets.CtrlWhileLoopOp: 4 steps of x = x * x / 2 - x."""
    _, model = _model("ctrl_whileloop")
    x = np.random.default_rng(seed).standard_normal((2, 3)).astype(np.float32)
    expected = x
    for _ in range(4):
        expected = expected * expected * np.float32(0.5) - expected
    assert_close(model.run([x])[0], expected, **TOL)


def test_fori_loop_op_at_another_input():
    """nets.CtrlForiLoopOp: x = x / 2 + i for i in range(5)."""
    _, model = _model("ctrl_foriloop")
    x = np.linspace(-3, 3, 6, dtype=np.float32).reshape(2, 3)
    expected = x
    for i in range(5):
        expected = expected * np.float32(0.5) + np.float32(i)
    assert_close(model.run([x])[0], expected, **TOL)


def test_scan_op_at_other_inputs():
    """nets.CtrlScanOp: carry = carry / 2 + item ** 2 over [w, x / 2, w - 1],
    y = carry - item; returns (carry, ys[0], ys[2])."""
    _, model = _model("ctrl_scan")
    rng = np.random.default_rng(7)
    x, w = (rng.standard_normal((2, 3)).astype(np.float32) for _ in range(2))
    carry, ys = x, []
    for item in (w, x * np.float32(0.5), w - np.float32(1)):
        carry = carry * np.float32(0.5) + item * item
        ys.append(carry - item)
    for got, want in zip(model.run([x, w]), (carry, ys[0], ys[2])):
        assert_close(got, want, **TOL)
