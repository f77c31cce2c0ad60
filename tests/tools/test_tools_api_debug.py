"""``Model.predict(before=, after=)`` kernel callbacks and
``Model.run_debug``."""
import logging

import numpy as np
import pytest

import refinfer as mslite
from refinfer.executor import Hooks
from refinfer.runtime import LoadedModel

from helpers_tools import golden_file, golden_inputs

LENET = golden_file("lenet5", "model.mindir")


@pytest.fixture(scope="module")
def lenet():
    model = mslite.Model()
    model.build_from_file(LENET, mslite.ModelType.MINDIR)
    return model


def plain_runs():
    """(node, args, output) of every kernel step of a plain run of the
    program the callbacks watch: the fast backend's, op by op (its
    products read their weights as the fused plan stores them, so its
    outputs are the reference's within the op tolerances, not bit for bit)."""
    runs = []
    LoadedModel(LENET, "numba").run(golden_inputs("lenet5"), Hooks(
        after=lambda node, args, output: runs.append((node, args, output))))
    return runs


def test_callbacks_see_every_kernel_with_its_tensors(lenet):
    calls = []

    def before(inputs, outputs, param):
        calls.append(("before", param, inputs, outputs))

    def after(inputs, outputs, param):
        data = [t.get_data_to_numpy().copy() for t in outputs]
        calls.append(("after", param, inputs, data))

    result = lenet.predict(golden_inputs("lenet5"), before=before, after=after)
    runs = plain_runs()
    assert len(calls) == 2 * len(runs) == 34
    for k, (node, args, output) in enumerate(runs):
        (_, p_before, ins, outs), (_, p_after, _, data) = calls[2 * k:2 * k + 2]
        assert p_before == p_after
        assert (p_before.node_name, p_before.node_type, p_before.index) == \
            (node.scope, node.op.name, k)
        arrays = [a for a in args if isinstance(a, np.ndarray)]
        assert [t.shape for t in ins] == [list(a.shape) for a in arrays]
        assert outs == []                   # not computed yet, as in Lite
        assert len(data) == 1 and data[0].tobytes() == output.tobytes()
    assert result[0].get_data_to_numpy().tobytes() == runs[-1][2].tobytes()


def test_conv_inputs_are_data_and_weight(lenet):
    seen = {}

    def before(inputs, outputs, param):
        seen.setdefault(param.node_type, [t.shape for t in inputs])
    lenet.predict(golden_inputs("lenet5"), before=before)
    assert seen["Conv2D"] == [[1, 1, 32, 32], [6, 1, 5, 5]]  # no attributes
    assert seen["BiasAdd"] == [[1, 6, 28, 28], [6]]


def test_false_return_logs_and_goes_on(lenet, caplog):
    expected = plain_runs()[-1][2]
    with caplog.at_level(logging.WARNING, logger="refinfer"):
        result = lenet.predict(golden_inputs("lenet5"),
                               after=lambda i, o, p: p.index != 3)
    failed = [r.getMessage() for r in caplog.records]
    assert failed == ["run kernel after_callback failed, name: "
                      "Default/pool-MaxPool2d/MaxPool-op0"]
    assert result[0].get_data_to_numpy().tobytes() == expected.tobytes()


def test_callback_must_be_callable(lenet):
    with pytest.raises(TypeError, match="before must be callable"):
        lenet.predict(golden_inputs("lenet5"), before="print")


def test_run_debug_keeps_the_selected_nodes(lenet):
    kept = lenet.run_debug(golden_inputs("lenet5"), keep="*relu*")
    relus = [(n, o) for n, _, o in plain_runs() if n.op.name == "ReLU"]
    assert len(relus) == 4 and len(kept) == 8        # by scope and node name
    for node, output in relus:
        assert kept[node.scope].tobytes() == output.tobytes()
        assert kept[node.name] is kept[node.scope]
    exact = lenet.run_debug(golden_inputs("lenet5"),
                            keep=["Default/fc1-Dense/MatMul-op0"])
    matmul = next(n for n, _, _ in plain_runs()
                  if n.scope == "Default/fc1-Dense/MatMul-op0")
    assert list(exact) == [matmul.scope, matmul.name]
    assert exact[matmul.scope].shape == (1, 120)


def test_run_debug_takes_lite_tensors(lenet):
    tensor = mslite.Tensor(golden_inputs("lenet5")[0])
    kept = lenet.run_debug([tensor], keep="BiasAdd")
    assert len([k for k in kept if k.startswith("Default/")]) == 5
