"""The fuzz worker process (tools/fuzzer/pool.py, worker.py): cases run in
a row in one process, a case past its time limit is a hang and the next
case runs in a fresh worker, as after a case that leaves the worker's
address space past half its limit."""
import os

import pytest

from fuzzer.pool import Worker

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LENET = os.path.join(ROOT, "golden", "lenet5", "model.mindir")


def _request(model, timeout=60.0, backend="numba"):
    return {"model": model, "backend": backend, "input_seed": 1,
            "dec_key": None, "dec_mode": "AES-GCM", "timeout": timeout}


@pytest.mark.slow
def test_outcomes_of_cases_in_a_row(tmp_path):
    truncated = tmp_path / "model.mindir"
    with open(LENET, "rb") as f:
        truncated.write_bytes(f.read()[:3000])
    worker = Worker()
    try:
        assert worker.run(_request(LENET))["outcome"] == "ok"
        clean = worker.run(_request(str(truncated)))
        assert clean["outcome"] == "clean"
        assert "build_from_file failed!" in clean["error"]
        hang = worker.run(_request(LENET, timeout=0.001, backend="reference"))
        assert hang["outcome"] == "hang"        # in build or, on a busy machine,
        assert hang["signature"] in ("hang:build", "hang:predict")  # in predict
        assert worker.process is None                   # stopped, started anew:
        assert worker.run(_request(LENET))["outcome"] == "ok"
    finally:
        worker.stop()


@pytest.mark.slow
def test_a_worker_past_half_its_address_space_limit_is_restarted():
    worker = Worker()
    try:
        first = worker.run(_request(LENET))
        assert first["outcome"] == "ok" and worker.process is not None
        assert first["address_space"] < worker.memory_limit // 2
        worker.memory_limit = first["address_space"]  # the next case passes half
        assert worker.run(_request(LENET))["outcome"] == "ok"
        assert worker.process is None
    finally:
        worker.stop()
