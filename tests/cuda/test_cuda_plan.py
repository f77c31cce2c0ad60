"""The device plan (refinfer/cuda/plan.py): placement, copy steps counted
exactly on small graphs with a known mix of device and host ops, declined
kernels, hooks on host copies; golden models with ``target=["gpu"]``
matching their references; the GPU target's fallback and error."""
import os
import sys
import threading

import numpy as np
import pytest

import refinfer as mslite
from refinfer import executor, gpu
from refinfer.cli import main as cli_main
from refinfer.cuda import device, load_kernels, plan as device_plan
from refinfer.format.reader import ValueInfo
from refinfer.format.values import Abstract
from refinfer.graph import Arg, Graph, Model, Node, Ref, RefKind
from refinfer.runtime import LoadedModel
from refinfer.step import Hooks

from golden_cases import golden_case    # tests/, on the path by conftest.py

F32 = np.dtype(np.float32)
X = np.array([[-1.5, 0.0, 0.25, 2.0], [3.0, -0.5, 0.5, -4.0]], F32)
W = np.linspace(-1, 1, 8, dtype=F32)
# Small golden models: control flow, tuples and lists, several outputs.
GOLDEN = ["mlp", "ctrl_if", "ctrl_while", "ctrl_scan", "list_plumbing",
          "seq_plumbing", "multi_output", "mlp_split"]


def _tensor(shape, dtype=F32) -> Abstract:
    return Abstract("tensor", tuple(shape), np.dtype(dtype))


def _node(name: str, op: str, *refs, abstract=None) -> Node:
    args = [Arg(r if isinstance(r, Ref) else Ref(RefKind.CONST, r)) for r in refs]
    return Node(name, f"Default/{name}", mslite.registry.get_op(op), args, None,
                abstract or _tensor((8,)))


def _model(nodes: list[Node], x: np.ndarray = X) -> Model:
    graph = Graph("main", [ValueInfo("x", _tensor(x.shape, x.dtype))], nodes,
                  Ref(RefKind.NODE, nodes[-1].name),
                  ValueInfo("y", nodes[-1].abstract))
    return Model("test.mindir", {"main": graph}, graph, {})


def _ref(name: str) -> Ref:
    return Ref(RefKind.NODE, name)


@pytest.fixture(autouse=True)
def heaviside_on_the_host(monkeypatch):
    """The graphs here need an op without a cuda kernel: Heaviside's
    (refinfer/cuda/integer.py) is taken away for these tests, so the mix
    of device and host ops stays as planned whatever kernels are added."""
    load_kernels()
    monkeypatch.delitem(mslite.registry.get_op("Heaviside").kernels, "cuda")


def mixed_model() -> Model:
    """Exp and Mul, Add on the device; Heaviside (its cuda kernel taken
    away by the fixture above) twice on
    the host, reading one host copy; Reshape and Shape touch no data."""
    x = Ref(RefKind.INPUT, 0)
    return _model([
        _node("e", "Exp", x, abstract=_tensor((2, 4))),
        _node("r", "Reshape", _ref("e"), (8,)),
        _node("s", "Shape", _ref("r"), abstract=Abstract("tuple", elements=(
            Abstract("scalar", dtype=np.dtype(np.int64)),))),
        _node("h", "Heaviside", _ref("r"), np.array(0.5, F32)),
        _node("m", "Mul", _ref("h"), W),
        _node("a", "Add", _ref("m"), _ref("r")),
        _node("h2", "Heaviside", _ref("r"), np.array(1.0, F32)),
        _node("y", "Add", _ref("a"), _ref("h2")),
    ])


def _run(program, *inputs):
    with device_plan.counting() as transfers:
        result = executor.run(program, list(inputs))
    return result, transfers


def test_placement_of_the_mixed_model():
    assert device_plan.placement(mslite.registry.get_op("Heaviside")) == "host", \
        "the test needs an op without a cuda kernel: pick another"
    program = gpu.compile_model(mixed_model())
    placed = {s.node.name: s.placement for s in program.plans["main"].steps
              if isinstance(s, device_plan.DeviceStep)}
    assert placed == {"e": "device", "r": "view", "s": "meta", "h": "host",
                      "m": "device", "a": "device", "h2": "host", "y": "device"}


def test_crossings_are_counted_exactly_once_per_value_and_direction():
    """x in; r out once (both Heavisides read the copy); h and h2 in; y
    out: 3 copies to the device, 2 to the host, statically and when run."""
    program = gpu.compile_model(mixed_model())
    found = device_plan.crossings(program)
    assert [(what, step.to) for _, step, what in found] == [
        ("x", "device"), ("r", "host"), ("h", "device"), ("h2", "device"),
        ("y", "host")]
    assert all(step.certain for _, step, _ in found)
    result, transfers = _run(program, X)
    assert transfers.as_dict() == {
        "to_device": 3, "to_device_bytes": 3 * 32, "to_host": 2,
        "to_host_bytes": 2 * 32, "declined": 0, "declined_copies": 0,
        "copies": 5}
    e = np.exp(X).reshape(8)
    expected = np.heaviside(e, np.float32(0.5)) * W + e + np.heaviside(
        e, np.float32(1.0))
    assert type(result) is np.ndarray
    np.testing.assert_allclose(result, expected, rtol=1e-6)
    text = device_plan.describe(program)
    assert "total: 5 host crossing(s), 3 to the device, 2 to the host" in text


def test_a_tuple_from_both_sides_copies_out_only_its_device_tensors():
    """MakeTuple(Exp(x) on the device, Heaviside(x) on the host) as the
    output: one tensor comes to the host, counted when planned."""
    x = Ref(RefKind.INPUT, 0)
    model = _model([
        _node("e", "Exp", x, abstract=_tensor((2, 4))),
        _node("h", "Heaviside", x, np.array(0.5, F32), abstract=_tensor((2, 4))),
        _node("t", "MakeTuple", _ref("e"), _ref("h"), abstract=Abstract(
            "tuple", elements=(_tensor((2, 4)), _tensor((2, 4)))))])
    program = gpu.compile_model(model)
    found = [(what, step.to, step.arrays, step.certain)
             for _, step, what in device_plan.crossings(program)]
    assert found == [("x", "device", 1, True), ("t", "host", 1, True)]
    (e, h), transfers = _run(program, X)
    assert (transfers.to_device, transfers.to_host) == (1, 1)
    np.testing.assert_allclose(e, np.exp(X), rtol=1e-6)
    np.testing.assert_array_equal(h, np.heaviside(X, np.float32(0.5)))


def test_dead_buffers_of_elementwise_chains_are_reused():
    """Exp, Neg, Exp, Neg, Abs on the device: each result dies after the
    next op reads it and goes back to the pool, so a run allocates two
    buffers and reuses them three times; the next run allocates none. A
    value read by a view (r, Reshape) is never given back."""
    x = Ref(RefKind.INPUT, 0)
    ops = ["Exp", "Neg", "Exp", "Neg", "Abs"]
    nodes = [_node(f"n{k}", op, _ref(f"n{k - 1}") if k else x,
                   abstract=_tensor((2, 4))) for k, op in enumerate(ops)]
    program = gpu.compile_model(_model(nodes))
    released = [s.source for s in program.plans["main"].steps
                if isinstance(s, device_plan.ReleaseStep)]
    assert len(released) == 5
    device.POOL.clear()
    expected = np.abs(-np.exp(-np.exp(X)))
    for allocated, reused in ((2, 3), (2, 8)):
        result, _ = _run(program, X)
        np.testing.assert_allclose(result, expected, rtol=1e-6)
        assert (device.POOL.allocated, device.POOL.reused) == (allocated, reused)
    plan = gpu.compile_model(mixed_model()).plans["main"]
    released = {name for name, slot in plan.names.items() if slot in {
        s.source for s in plan.steps if isinstance(s, device_plan.ReleaseStep)}}
    assert released == {"m", "a", "y"}      # e is read by a view, r is one


def test_weights_go_to_the_device_once_at_build():
    """W, a constant of a device step, is a device array in the plan; the
    host constants of host steps stay host arrays."""
    program = gpu.compile_model(mixed_model())
    steps = {s.node.name: s for s in program.plans["main"].steps
             if isinstance(s, device_plan.DeviceStep)}
    assert device.is_device_array(steps["m"].template[1])
    assert type(steps["h"].template[1]) is np.ndarray
    assert device_plan.device_weights_bytes(program) == W.nbytes


def test_a_declined_kernel_runs_the_cpu_kernel_on_host_copies_and_is_counted():
    """Add on uint64 tensors: the cuda kernel declines (int64 registers
    cannot hold them); its two arguments come to the host, the result goes
    back, all counted."""
    x = np.arange(6, dtype=np.uint64).reshape(2, 3)
    model = _model([_node("y", "Add", Ref(RefKind.INPUT, 0),
                          Ref(RefKind.INPUT, 0), abstract=_tensor((2, 3), np.uint64))],
                   x)
    result, transfers = _run(gpu.compile_model(model), x)
    np.testing.assert_array_equal(result, x * 2)
    assert (transfers.to_device, transfers.to_host, transfers.declined,
            transfers.declined_copies) == (2, 3, 1, 3)


def test_hooks_see_host_copies():
    program = gpu.compile_model(mixed_model(), keep=True)
    seen = []

    def after(node, args, result):
        seen.append((node.name, type(result).__name__,
                     [type(a).__name__ for a in args if not isinstance(a, tuple)]))
    executor.run(program, [X], Hooks(after=after))
    assert [name for name, _, _ in seen] == ["e", "r", "s", "h", "m", "a", "h2", "y"]
    assert all(kind in ("ndarray", "tuple") and set(args) <= {"ndarray"}
               for _, kind, args in seen)


def test_a_failing_device_step_names_its_node_and_shapes():
    model = _model([_node("y", "Add", Ref(RefKind.INPUT, 0), np.ones(3, F32))])
    with pytest.raises(mslite.errors.NodeError) as info:
        executor.run(gpu.compile_model(model), [X])
    message = str(info.value)
    assert "Default/y" in message and "float32[2, 4]" in message
    assert "float32[3]" in message and "Device" not in message


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_models_on_the_gpu_target(name):
    """The Lite API with target ["gpu"] matches MindSpore's outputs; the
    run's host crossings are those explain lists (none conditional here
    except values passed into graph calls)."""
    case = golden_case(name)
    context = mslite.Context()
    context.target = ["gpu"]
    model = mslite.Model()
    model.build_from_file(case.model_path, mslite.ModelType.MINDIR, context)
    assert model._loaded.backend == "cuda"
    outputs = model.predict(case.inputs())
    for got, want in zip(outputs, case.outputs()):
        np.testing.assert_allclose(got.get_data_to_numpy(), want, **case.tolerance)
    transfers = model.host_transfers()
    found = device_plan.crossings(model._loaded.program)
    certain = sum(step.arrays for _, step, _ in found if step.certain)
    planned = transfers["copies"] - transfers["declined_copies"]
    if all(step.certain for _, step, _ in found):   # no graph calls: exact
        assert planned == certain
    else:
        assert planned >= certain


def test_gpu_without_a_gpu_is_a_clear_build_error(monkeypatch):
    monkeypatch.setattr(gpu, "available", lambda: False)
    context = mslite.Context()
    context.target = ["gpu"]
    with pytest.raises(RuntimeError) as info:
        mslite.Model().build_from_file(golden_case("mlp").model_path,
                                       mslite.ModelType.MINDIR, context)
    message = str(info.value)
    assert message.startswith("build_from_file failed! Error is context.target="
                              "['gpu']: no CUDA GPU or driver was found")
    assert "'cpu'" in message


def test_gpu_then_cpu_falls_back_to_the_cpu_without_a_gpu(monkeypatch):
    monkeypatch.setattr(gpu, "available", lambda: False)
    context = mslite.Context()
    context.target = ["gpu", "cpu"]
    model = mslite.Model()
    case = golden_case("mlp")
    model.build_from_file(case.model_path, mslite.ModelType.MINDIR, context)
    assert model._loaded.backend == "numba"
    got = model.predict(case.inputs())[0].get_data_to_numpy()
    np.testing.assert_allclose(got, case.outputs()[0], **case.tolerance)
    assert model.host_transfers() is None


def test_the_loaded_model_selects_its_device_and_checks_the_id():
    case = golden_case("mlp")
    with pytest.raises(ValueError, match=r"device_id=3: this machine has 1 GPU"):
        LoadedModel(case.model_path, "cuda", device_id=3)


# -- the command line ------------------------------------------------------------
def test_explain_and_run_on_the_gpu_target_report_the_same_crossings(capsys):
    path = golden_case("mlp").model_path
    assert cli_main(["explain", path, "--target", "gpu"]) == 0
    listing = capsys.readouterr().out
    assert "  device " in listing and "(ReLU)" in listing
    total = [line for line in listing.splitlines() if line.startswith("total: ")]
    program = LoadedModel(path, "cuda").program
    certain = [s for _, s, _ in device_plan.crossings(program) if s.certain]
    to_device = sum(s.to == "device" for s in certain)
    assert total == [f"total: {len(certain)} host crossing(s), {to_device} to "
                     f"the device, {len(certain) - to_device} to the host; 0 more "
                     f"conditional ones (values passed into graph calls)"]
    assert cli_main(["run", path, "--target", "gpu"]) == 0
    assert (f"host crossings of the last predict: {len(certain)} ({to_device} "
            f"to the device") in capsys.readouterr().out


def test_dump_and_bisect_check_the_gpu_run_node_by_node(tmp_path, capsys):
    """The device plan's values dumped (host copies), then bisected against
    the CPU's reference, in lockstep and from the dump."""
    path = golden_case("mlp").model_path
    out = tmp_path / "dump"
    assert cli_main(["dump", path, "--target", "gpu", "--out", str(out)]) == 0
    assert len(list(out.glob("00000*.npy"))) == 5     # (and the input)
    assert cli_main(["bisect", path, "--backend", "cuda", "--against",
                     "reference"]) == 0
    assert "5 node run(s), 5 tensor(s) compared, 0 failed" in capsys.readouterr().out
    assert cli_main(["bisect", path, "--against", str(out)]) == 0


def test_parallel_runner_workers_share_the_device_plan():
    """Two workers on the GPU target: one loaded model, so one device plan
    and one set of device weights; requests from two client threads give
    the golden outputs."""
    case = golden_case("mlp")
    context = mslite.Context()
    context.target = ["gpu"]
    context.parallel.workers_num = 2
    runner = mslite.ModelParallelRunner()
    runner.build_from_file(case.model_path, context)
    assert runner._model._loaded.backend == "cuda"
    results = []

    def client():
        inputs = runner.get_inputs()
        inputs[0].set_data_from_numpy(case.inputs()[0])
        for _ in range(3):
            results.append(runner.predict(inputs)[0].get_data_to_numpy())
    clients = [threading.Thread(target=client) for _ in range(2)]
    for thread in clients:
        thread.start()
    for thread in clients:
        thread.join()
    assert len(results) == 6
    for got in results:
        np.testing.assert_allclose(got, case.outputs()[0], **case.tolerance)


# -- one stream ------------------------------------------------------------------
def test_a_run_queues_everything_on_the_plans_stream_and_waits_once(monkeypatch):
    """Exp, Neg, Abs on the device, run as LoadedModel runs a plan: every
    launch, copy and allocation is on the plan's stream for this thread,
    the host waits for it once (before the output is copied out), and dead
    buffers go to that stream's pool, not the process-wide one."""
    x = Ref(RefKind.INPUT, 0)
    nodes = [_node(f"n{k}", op, _ref(f"n{k - 1}") if k else x,
                   abstract=_tensor((2, 4))) for k, op in enumerate(["Exp", "Neg", "Abs"])]
    program = gpu.compile_model(_model(nodes))
    lane = program.lanes.mine()
    streams, callers = [], set()
    current_stream = device.stream

    def spy():
        callers.add(sys._getframe(1).f_code.co_name)
        streams.append(current_stream())
        return streams[-1]
    monkeypatch.setattr(device, "stream", spy)
    device.POOL.clear()
    with device_plan.running(program) as transfers:
        result = executor.run(program, [X])
    np.testing.assert_allclose(result, np.abs(-np.exp(X)), rtol=1e-6)
    # at least: 1 copy in, 2 new buffers, 3 launches, 1 copy out (the
    # programs' metadata copies come on top)
    assert len(streams) >= 7 and all(s is lane.stream for s in streams)
    assert {"to_device", "take", "launch", "copy_out"} <= callers
    assert lane.synchronizations == 1
    assert (lane.pool.allocated, lane.pool.reused) == (2, 1)
    assert (device.POOL.allocated, device.POOL.reused) == (0, 0)
    assert (transfers.to_device, transfers.to_host) == (1, 1)
    assert device.lane() is device.DEFAULT_LANE     # (outside a run)


def test_each_thread_running_a_plan_has_its_own_stream():
    """ModelParallelRunner's workers are threads sharing a plan: each runs
    it on a stream of its own; one thread keeps its stream from run to
    run. The loaded model's run waits for the GPU once, for the output."""
    case = golden_case("mlp")
    loaded = LoadedModel(case.model_path, "cuda")
    lanes = []

    def worker():
        loaded.run(case.inputs())
        lanes.append(loaded.program.lanes.mine())
    workers = [threading.Thread(target=worker) for _ in range(2)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    assert len(lanes) == 2 and lanes[0] is not lanes[1]
    assert lanes[0].stream is not lanes[1].stream
    assert [lane.synchronizations for lane in lanes] == [1, 1]
    loaded.run(case.inputs())
    loaded.run(case.inputs())
    mine = loaded.program.lanes.mine()
    assert mine not in lanes and mine.synchronizations == 2


# -- weight sharing between processes ------------------------------------------------
def test_weight_sharing_on_the_gpu_target_shares_the_host_weights():
    """Master and worker (one process here) on the GPU target: the worker
    builds on the master's segment (tests/test_weight_sharing.py checks its
    pages) and its device plan copies those weights to the device once, as
    the master's does: a device copy per process (CUDA IPC would share one:
    docs/weight-sharing.md)."""
    case = golden_case("mlp")

    def build(section):
        model = mslite.Model()
        context = mslite.Context()
        context.target = ["gpu"]
        model.build_from_file(case.model_path, mslite.ModelType.MINDIR, context,
                              config_dict={"cpu_context": section})
        return model
    own = build({"shareable_weight_pid_list": str(os.getpid())})
    other = build({"shareable_weight_mem_handle":
                   own.get_model_info("shareable_weight_mem_handle")})
    weights = other._loaded.parameters()
    assert own._shared is not None and weights
    for model in (own, other):
        assert model._loaded.backend == "cuda"
        assert device_plan.device_weights_bytes(model._loaded.program) == sum(
            w.nbytes for w in weights.values())
        got = model.predict(case.inputs())[0].get_data_to_numpy()
        np.testing.assert_allclose(got, case.outputs()[0], **case.tolerance)
