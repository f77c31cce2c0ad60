"""``mslite.ModelParallelRunner``: Lite's concurrent-inference example, a stress test, failing
requests, Lite's checks, the thread budget and fair (FIFO) queueing.

Every output of the runner must equal serial ``Model.predict`` on the same input, bit for bit,
with the same thread count (a fast kernel may split its work by thread count).
"""
from __future__ import annotations

import os
import runpy
import threading
import time
import warnings

import numpy as np
import pytest

import refinfer as mslite
from refinfer.api import parallel
from refinfer.api.parallel import _WorkerPool, plan_workers

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")
LENET = os.path.join(ROOT, "golden", "lenet5", "model.mindir")
MLP = os.path.join(ROOT, "golden", "mlp", "model.mindir")            # x: [2, 4]
DYN_MLP = os.path.join(ROOT, "golden", "dyn_mlp")                    # x: [-1, 4]


def serial_model(model_path, threads) -> mslite.Model:
    context = mslite.Context()
    context.cpu.thread_num = threads
    model = mslite.Model()
    model.build_from_file(model_path, mslite.ModelType.MINDIR, context)
    return model


def serial(model_path, x, threads=1) -> np.ndarray:
    return serial_model(model_path, threads).predict([x])[0].get_data_to_numpy()


def runner(model_path=LENET, workers=3, threads=1) -> mslite.ModelParallelRunner:
    context = mslite.Context()
    context.cpu.thread_num = threads
    context.parallel.workers_num = workers
    result = mslite.ModelParallelRunner()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # more workers than cores here
        result.build_from_file(model_path, context)
    return result


def request(run, x) -> np.ndarray:
    inputs = run.get_inputs()
    inputs[0].set_data_from_numpy(x)
    return run.predict(inputs)[0].get_data_to_numpy()


def test_the_reference_pages_program(monkeypatch, capsys):
    """examples/parallel_runner.py (Lite's page, 5 clients x 2 tasks, 3 workers, MobileNetV2),
    run as it is; a spy keeps every output, which must equal serial Model.predict."""
    outputs, real_predict = [], mslite.ModelParallelRunner.predict

    def spy(self, inputs, outputs_=None):
        result = real_predict(self, inputs, outputs_)
        outputs.append(result[0].get_data_to_numpy())
        return result

    monkeypatch.setattr(mslite.ModelParallelRunner, "predict", spy)
    monkeypatch.chdir(EXAMPLES)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        runpy.run_path("parallel_runner.py", run_name="__main__")
    printed = capsys.readouterr().out
    assert printed.count("| task index:") == 10 and "total run time:" in printed
    expected = serial("model/mobilenetv2.mindir", np.fromfile("model/input.bin", np.float32)
                      .reshape(1, 3, 224, 224))
    assert len(outputs) == 10
    for out in outputs:
        np.testing.assert_array_equal(out, expected)


def test_stress_8_clients_x_50_requests_equal_serial_predict():
    run = runner(workers=3)
    rng = np.random.default_rng(0)
    inputs = rng.standard_normal((8, 50, 1, 1, 32, 32)).astype(np.float32)
    results = np.zeros((8, 50, 1, 10), np.float32)

    def client(k):
        for j in range(50):
            results[k, j] = request(run, inputs[k, j])

    threads = [threading.Thread(target=client, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    model = serial_model(LENET, run.workers[1])
    for k in range(8):
        for j in range(50):
            expected = model.predict([inputs[k, j]])[0].get_data_to_numpy()
            np.testing.assert_array_equal(results[k, j], expected, err_msg=f"client {k} #{j}")


def test_a_bad_request_fails_alone():
    run = runner(workers=2)
    x = np.random.default_rng(1).standard_normal((1, 1, 32, 32)).astype(np.float32)
    expected = serial(LENET, x)
    good, failures = [], []

    def client(bad):
        for _ in range(10):
            inputs = run.get_inputs()
            if bad:
                inputs = [mslite.Tensor(np.zeros((1, 1, 32, 32), np.int32))]
            try:
                good.append(run.predict(inputs if bad else _filled(inputs, x)))
            except RuntimeError as exc:
                failures.append((bad, str(exc)))

    threads = [threading.Thread(target=client, args=(k == 2,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(failures) == 10 and all(bad for bad, _ in failures)
    assert f"predict failed! Error is input 'x' of {LENET} (index 0) has dtype " \
        "DataType.INT32" in failures[0][1]
    assert len(good) == 30
    for outputs in good:
        np.testing.assert_array_equal(outputs[0].get_data_to_numpy(), expected)
    np.testing.assert_array_equal(request(run, x), expected)     # still serving


def _filled(inputs, x):
    inputs[0].set_data_from_numpy(x)
    return inputs


def test_get_inputs_gives_each_client_its_own_tensors():
    run = runner(workers=1)
    a, b = run.get_inputs(), run.get_inputs()
    a[0].set_data_from_numpy(np.ones((1, 1, 32, 32), np.float32))
    assert b[0].get_data_to_numpy().sum() == 0


# -- Lite's checks ------------------------------------------------------------------------------
def test_before_build():
    run = mslite.ModelParallelRunner()
    assert str(run) == "model_path: ." and run.get_inputs() == []
    with pytest.raises(RuntimeError, match="predict failed!"):
        run.predict(run.get_inputs())


def test_build_errors():
    with pytest.raises(RuntimeError, match="ModelParallelRunner's build from file failed, "
                                           "model_path does not exist!"):
        mslite.ModelParallelRunner().build_from_file("xxx")
    with pytest.raises(TypeError, match="model_path must be str"):
        mslite.ModelParallelRunner().build_from_file(1)
    with pytest.raises(TypeError, match="context must be Context"):
        mslite.ModelParallelRunner().build_from_file(LENET, context="cpu")
    context = mslite.Context()
    context.parallel.workers_num = 10_000
    with pytest.raises(RuntimeError, match="build from file failed! Error is workers_num "
                                           "10000 is invalid"):
        mslite.ModelParallelRunner().build_from_file(LENET, context)


@pytest.mark.parametrize("inputs, outputs, error, message", [
    ("x", None, TypeError, "inputs must be list or tuple, but got <class 'str'>."),
    ([1], None, TypeError, "inputs element must be Tensor, but got <class 'int'> at index 0."),
    (None, (), TypeError, "outputs must be list, bug got <class 'tuple'>."),
    (None, [1], TypeError, "outputs element must be Tensor, bug got <class 'int'> at index 0."),
    ([], None, RuntimeError, "predict failed!"),
])
def test_predict_checks(inputs, outputs, error, message):
    run = runner(workers=1)
    inputs = run.get_inputs() if inputs is None else inputs
    with pytest.raises(error) as info:
        run.predict(inputs, outputs)
    assert message in str(info.value)


def test_runner_with_default_context_and_str():
    run = mslite.ModelParallelRunner()
    run.build_from_file(LENET)
    assert str(run) == f"model_path: {LENET}."
    workers, threads = run.workers
    assert workers * threads <= parallel.usable_cores()
    assert [m.shape for m in run.get_outputs()] == [[1, 10]]


# -- one input check with Model.predict (issue 17) ---------------------------------------------
def test_a_fixed_dim_is_refused_as_model_predict_refuses_it():
    """A (3, 4) request to a (2, 4) model: the runner used to resize its worker and answer
    (3, 3); it now refuses it with Model.predict's message."""
    x = mslite.Tensor(np.ones((3, 4), np.float32))
    with pytest.raises(RuntimeError) as by_model:
        serial_model(MLP, 1).predict([x])
    with pytest.raises(RuntimeError) as by_runner:
        runner(MLP, workers=1).predict([x])
    assert str(by_runner.value) == str(by_model.value) == (
        f"predict failed! Error is input 'x' of {MLP} (index 0) has shape [3, 4], the "
        "model input is [2, 4] (-1: any size; Model.resize changes it)")


def test_a_wrong_dtype_is_refused_as_model_predict_refuses_it():
    x = mslite.Tensor(np.ones((2, 4), np.float64))
    messages = []
    for predict in (serial_model(MLP, 1).predict, runner(MLP, workers=1).predict):
        with pytest.raises(RuntimeError, match=r"input 'x' of .*mlp.* \(index 0\) has dtype") as info:
            predict([x])
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_dynamic_dims_take_any_size_in_both():
    """golden/dyn_mlp ([-1, 4]) at MindSpore's batches 1 and 7, without a resize: the runner
    and Model.predict both run it as given and match MindSpore's outputs."""
    run = runner(os.path.join(DYN_MLP, "model.mindir"), workers=2)
    model = serial_model(os.path.join(DYN_MLP, "model.mindir"), run.workers[1])
    for shape_run in ("shape1", "shape2"):
        x = np.load(os.path.join(DYN_MLP, f"{shape_run}_input_0.npy"))
        expected = np.load(os.path.join(DYN_MLP, f"{shape_run}_output_0.npy"))
        by_runner = run.predict([mslite.Tensor(x)])[0].get_data_to_numpy()
        by_model = model.predict([mslite.Tensor(x)])[0].get_data_to_numpy()
        np.testing.assert_array_equal(by_runner, by_model)
        np.testing.assert_allclose(by_runner, expected, rtol=1e-4, atol=1e-5)
    assert model.get_inputs()[0].shape == [-1, 4]      # a predict does not resize


# -- thread budget -----------------------------------------------------------------------------
@pytest.mark.parametrize("asked, cores, planned, warns", [
    ((0, 0), 2, (2, 1), False),        # Lite: cores/2 threads, cores/threads workers
    ((0, 0), 8, (2, 4), False),
    ((0, 0), 32, (4, 8), False),       # more than 16 cores: 8 threads per worker
    ((3, 0), 8, (3, 2), False),        # default threads shrink to fit the workers
    ((2, 4), 8, (2, 4), False),
    ((2, 8), 8, (2, 4), True),         # asked for 16 threads on 8 cores
    ((3, 1), 2, (3, 1), True),         # the page's 3 workers x 1 thread on 2 cores
])
def test_thread_budget(asked, cores, planned, warns):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert plan_workers(*asked, cores) == planned
    assert bool(caught) == warns
    if warns:
        assert "exceed the %d usable CPU core(s)" % cores in str(caught[0].message)


def test_too_many_workers():
    with pytest.raises(ValueError, match="workers_num 11 is invalid: at most 5 per usable"):
        plan_workers(11, 1, 2)


# -- queueing ----------------------------------------------------------------------------------
def test_requests_are_served_in_arrival_order():
    """One worker, blocked on the first request; the others queue and run in the order they
    came (a client sending again goes to the back)."""
    release, order = threading.Event(), []

    def serve(state, tag):
        if tag == "first":
            release.wait(10)
        order.append(tag)
        return tag

    pool = _WorkerPool([None], 1, serve)
    callers = [threading.Thread(target=pool.submit, args=("first",))]
    callers[0].start()
    for tag in "abcd":
        caller = threading.Thread(target=pool.submit, args=(tag,))
        caller.start()
        callers.append(caller)
        _wait_until(lambda: pool._requests.qsize() == len(callers) - 1)
    release.set()
    for caller in callers:
        caller.join(10)
    assert order == ["first", "a", "b", "c", "d"]
    pool.close()


def test_workers_stop_when_the_runner_goes():
    run = runner(workers=2)
    threads = run._pool.threads
    del run
    for thread in threads:
        thread.join(10)
    assert not any(t.is_alive() for t in threads)


def _wait_until(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.001)
