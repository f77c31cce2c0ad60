"""Distributed ranks on the GPU target: each rank on the GPU of its local
rank unless the context names one (refinfer/gpu.py, rank_device), from the
launcher's environment (faked here: no mpirun needed) or the ranks run as
threads; communication ops on the device plan, their values crossing to
the host for the communicator. tests/distributed/test_mpi.py runs the same
under ``mpirun -n 2``."""
import os

import numpy as np
import pytest

import refinfer as mslite
from refinfer import distributed, gpu
from refinfer.cuda import plan as device_plan
from refinfer.distributed import launch, run_local
from refinfer.runtime import LoadedModel

from golden_cases import golden_case    # tests/, on the path by conftest.py

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ALLREDUCE = os.path.join(ROOT, "golden", "distributed", "matmul_allreduce")
LAUNCHER_VARS = (launch.RANK_VARS + launch.SIZE_VARS + launch.LOCAL_RANK_VARS
                 + launch.LOCAL_SIZE_VARS)


@pytest.fixture
def launched(monkeypatch):
    """``launched(rank, size, local)``: this process looks like a rank
    Open MPI's mpirun started (local None: a launcher naming no local
    rank)."""
    for name in LAUNCHER_VARS:
        monkeypatch.delenv(name, raising=False)

    def as_rank(rank, size, local=None):
        monkeypatch.setenv("OMPI_COMM_WORLD_RANK", str(rank))
        monkeypatch.setenv("OMPI_COMM_WORLD_SIZE", str(size))
        if local is not None:
            monkeypatch.setenv("OMPI_COMM_WORLD_LOCAL_RANK", str(local))
    return as_rank


@pytest.fixture
def gpus(monkeypatch):
    """``gpus(n)``: the machine has n GPUs; returns the ids selected."""
    selected = []

    def machine(count):
        monkeypatch.setattr(gpu, "count", lambda: count)
        monkeypatch.setattr(gpu, "select", selected.append)
        return selected
    return machine


def test_the_local_rank_comes_from_the_launchers_environment(launched):
    assert distributed.local_rank() is None     # (not launched)
    launched(3, 4, local=1)
    assert distributed.local_rank() == (3, 4, 1)


def test_a_launcher_naming_no_local_rank_means_one_machine(launched):
    launched(1, 2)
    assert distributed.local_rank() == (1, 2, 1)


def test_ranks_as_threads_are_local_ranks_of_this_machine():
    assert run_local(2, lambda rank: distributed.local_rank(), timeout=30) == [
        (0, 2, 0), (1, 2, 1)]


def test_the_device_of_a_rank(gpus):
    gpus(2)
    assert gpu.rank_device(None, None) == 0
    assert gpu.rank_device(None, (3, 4, 1)) == 1
    assert gpu.rank_device(0, (3, 4, 1)) == 0       # the context's wins
    with pytest.raises(ValueError) as info:
        gpu.rank_device(None, (3, 4, 2))
    assert str(info.value) == (
        "rank 3 of 4 is rank 2 on this machine, so it runs on GPU 2 (device_id "
        "= local rank, as context.gpu.device_id is not set), but this machine "
        "has 2 GPU(s): launch at most 2 rank(s) per machine or set "
        "context.gpu.device_id")


def _build(context):
    model = mslite.Model()
    model.build_from_file(golden_case("mlp").model_path, mslite.ModelType.MINDIR,
                          context)
    return model


def _gpu_context(device_id=None):
    context = mslite.Context()
    context.target = ["gpu"]
    if device_id is not None:
        context.gpu.device_id = device_id
    return context


def test_a_launched_rank_builds_on_its_local_ranks_gpu(launched, gpus):
    selected = gpus(2)
    launched(3, 4, local=1)
    assert _build(_gpu_context())._loaded.device_id == 1
    assert _build(_gpu_context(0))._loaded.device_id == 0
    assert selected[0] == 1 and selected[-1] == 0
    assert _gpu_context().gpu.device_id == 0    # (what Lite's reader shows)


def test_a_local_rank_beyond_the_gpus_is_a_build_error(launched, gpus):
    gpus(2)
    launched(5, 6, local=2)
    with pytest.raises(RuntimeError) as info:
        _build(_gpu_context())
    assert str(info.value).startswith(
        "build_from_file failed! Error is rank 5 of 6 is rank 2 on this machine, "
        "so it runs on GPU 2")
    assert "this machine has 2 GPU(s)" in str(info.value)
    cpu = mslite.Context()
    cpu.target = ["cpu"]
    assert _build(cpu)._loaded.backend != "cuda"      # the CPU needs no GPU


def test_communication_on_the_device_plan_crosses_to_the_host():
    """Row-parallel MatMul then AllReduce, 2 ranks as threads on the GPU
    target (device_id 0 for both: the simulator has one GPU): StridedSlice
    and MatMul on the device, the AllReduce on the host, its argument
    copied out for it, counted and listed by explain; both ranks match
    MindSpore's."""
    x = np.load(os.path.join(ALLREDUCE, "input_0.npy"))

    def rank_main(rank):
        model = mslite.Model()
        model.build_from_file(os.path.join(ALLREDUCE, "model_rank{rank}.mindir"),
                              mslite.ModelType.MINDIR, _gpu_context(0))
        got = model.predict([x])[0].get_data_to_numpy()
        return got, model.host_transfers(), model._loaded.program
    results = run_local(2, rank_main, timeout=60)
    for rank, (got, transfers, program) in enumerate(results):
        want = np.load(os.path.join(ALLREDUCE, f"rank{rank}", "output_0.npy"))
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
        assert (transfers["to_device"], transfers["to_host"]) == (1, 1)
        assert device_plan.communication_crossings(program) == (1, 1)
        assert ("communication: 1 of the crossings carry the values of 1 "
                "communication op(s)") in device_plan.describe(program)


def test_without_communication_explain_says_nothing_of_it():
    program = LoadedModel(golden_case("mlp").model_path, "cuda").program
    assert device_plan.communication_crossings(program) == (0, 0)
    assert "communication:" not in device_plan.describe(program)
