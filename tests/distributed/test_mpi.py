"""Real MPI runs: ``mpirun -n 2`` / ``-n 4`` of tests/distributed/mpi_worker.py.

Each job has a timeout and is killed whole when it runs past it; a failing
job must end by itself within seconds, showing the failing rank's error and
leaving nothing in /dev/shm. Skipped without mpi4py (pip install '.[mpi]').
"""
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import collectives
import dist_cases
from refinfer.distributed import drain, run_mpirun, shm

pytestmark = pytest.mark.slow     # mpirun jobs

pytest.importorskip("mpi4py", reason="MPI tests need mpi4py and an MPI: pip install '.[mpi]'")

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mpi_worker.py")
JOB_TIMEOUT = 120
FAILURE_DEADLINE_S = 10
CASES = dist_cases.committed_cases()


def mpirun(ranks, *args, timeout=JOB_TIMEOUT, env=None):
    return run_mpirun(ranks, [sys.executable, WORKER, *args], timeout=timeout, env=env)


def _explain(job) -> str:
    return f"exit {job.returncode}\nstdout:\n{job.stdout}\nstderr:\n{job.stderr[-4000:]}"


@pytest.fixture(scope="module")
def case_outputs(tmp_path_factory):
    """One job per rank count runs every case of that count; outputs on disk."""
    out = tmp_path_factory.mktemp("mpi_cases")
    for ranks in sorted({c.ranks for c in CASES}):
        names = [c.name for c in CASES if c.ranks == ranks]
        job = mpirun(ranks, "cases", str(out), *names)
        assert job.returncode == 0, _explain(job)
    return out


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in CASES])
def test_every_rank_matches_under_mpirun(case, case_outputs):
    for rank in range(case.ranks):
        with np.load(case_outputs / case.name / f"rank{rank}.npz") as saved:
            outputs = [saved[f"arr_{k}"] for k in range(len(saved.files))]
        assert dist_cases.mismatches(case, rank, outputs) == [], f"rank {rank}"


@pytest.mark.parametrize("ranks", [2, 4])
def test_mpi_collectives_match_numpy(ranks, tmp_path):
    job = mpirun(ranks, "collectives", str(tmp_path))
    assert job.returncode == 0, _explain(job)
    for rank in range(ranks):
        with np.load(tmp_path / f"rank{rank}.npz") as saved:
            collectives.check({name: saved[name] for name in saved.files}, rank, ranks)


def _segments() -> set:
    return set(os.listdir(shm.SHM_DIR)) if os.path.isdir(shm.SHM_DIR) else set()


@pytest.mark.parametrize("mode, error", [
    ("bad-input", "RuntimeError: data size not equal"),
    ("kernel-error", "injected kernel failure on rank 1"),
    ("kill", "Killed"),
])
def test_failing_rank_ends_the_job(mode, error):
    """Rank 1 fails while rank 0 waits in an AllReduce: the job ends within
    10 s, with rank 1's error, and leaves no MPI segment in /dev/shm."""
    before = _segments()
    start = time.monotonic()
    job = mpirun(2, mode, "mlp_col_row", timeout=60)
    elapsed = time.monotonic() - start
    assert job.returncode != 0, _explain(job)
    assert elapsed < FAILURE_DEADLINE_S, _explain(job)
    assert error in job.stderr + job.stdout, _explain(job)
    if mode != "kill":
        assert "refinfer: rank 1 of 2 failed, aborting the MPI job" in job.stderr
    assert not {s for s in _segments() - before if s.startswith(shm.PREFIXES)}


@pytest.mark.parametrize("mode, error", [
    ("exit", "CommAborted: rank 0 waited in AllReduce over world ranks [0, 1]: rank(s) [1] "
             "exited without joining it"),
    ("stuck", "CommAborted: rank 0 waited in AllReduce over world ranks [0, 1] did not "
              "complete in 2 s ([distributed] timeout_s): rank(s) [1] did not answer: stuck "
              "outside any collective"),
    ("elsewhere", "CommAborted: rank 0 waited in AllReduce over world ranks [0, 1] did not "
                  "complete in 2 s ([distributed] timeout_s): rank 1 waits in Receive from "
                  "rank 0 over world ranks [0, 1]"),
])
def test_an_exiting_or_stuck_rank_ends_the_job(mode, error):
    """Rank 1 calls sys.exit(3), or stops answering, or waits for something else, with
    [distributed] timeout_s = 2, while rank 0 waits in an AllReduce: the job ends within
    10 s, naming the rank and what each waits in (issue 17; all used to hang for ever)."""
    start = time.monotonic()
    job = mpirun(2, mode, "mlp_col_row", timeout=60)
    elapsed = time.monotonic() - start
    assert job.returncode != 0, _explain(job)
    assert elapsed < FAILURE_DEADLINE_S, _explain(job)
    assert "refinfer: rank 0 of 2 failed, aborting the MPI job" in job.stderr, _explain(job)
    assert error in job.stderr, _explain(job)
    if mode == "exit":
        assert "rank 1: exiting with status 3" in job.stdout, _explain(job)


def test_a_rank_exiting_before_mpi_starts_ends_the_job():
    """Rank 1 calls sys.exit(3) before it starts MPI, while rank 0 starts MPI
    (which waits for every rank): the job ends within 10 s, with rank 1's
    output and rank 0 saying why (it used to hang for ever in MPI_Init)."""
    start = time.monotonic()
    job = mpirun(2, "early-exit", "mlp_col_row", timeout=60)
    elapsed = time.monotonic() - start
    assert job.returncode != 0, _explain(job)
    assert elapsed < FAILURE_DEADLINE_S, _explain(job)
    assert "rank 1: exiting with status 3 before MPI starts" in job.stdout, _explain(job)
    assert ("refinfer: rank 0 of 2: 1 of the 2 ranks on this machine exited before MPI "
            "started (see their output)") in job.stderr, _explain(job)


def test_an_aborting_rank_waits_until_mpirun_read_its_output(tmp_path):
    """MPICH drops output still in a rank's pipe when the job aborts: the
    failing rank waits for a late reader, and only ``timeout`` for a reader
    that never reads (an abort never hangs)."""
    read_end, write_end = os.pipe()
    os.write(write_end, b"rank 1 failed\n")
    late_reader = threading.Timer(0.2, os.read, (read_end, 100))
    late_reader.start()
    drain.wait_until_output_is_read([write_end], timeout=60)
    assert drain._unread_bytes(write_end) == 0
    os.write(write_end, b"never read")
    drain.wait_until_output_is_read([write_end], timeout=0.05)
    assert drain._unread_bytes(write_end) == 10
    os.close(read_end)
    os.close(write_end)
    with open(tmp_path / "log", "w") as log:  # a file keeps nothing in flight
        log.write("text")
        log.flush()
        assert drain._unread_bytes(log.fileno()) == 0


def test_size_mismatch_is_a_clear_error():
    """mpirun -n 1 on a two-way sliced model: an error, not half a sum."""
    job = mpirun(1, "cases", "/nonexistent", "matmul_allreduce")
    assert job.returncode != 0
    assert "model_rank1.mindir exists but the job has only 1 rank(s)" in job.stderr, \
        _explain(job)


def test_more_ranks_than_files_is_a_clear_error():
    """Issue 16, friction 6: mpirun -n 3 on a 2-rank model printed a
    traceback naming model_rank{rank}.mindir."""
    case = dist_cases.case("matmul_allreduce")
    job = run_mpirun(3, [sys.executable, "-m", "refinfer.cli", "run", "--distributed",
                         case.rank_model], timeout=JOB_TIMEOUT)
    assert job.returncode != 0
    missing = case.rank_model.replace("{rank}", "2")
    assert (f"refinfer: rank 2 of 3 failed, aborting the MPI job: DistributedError: "
            f"rank 2 of 3 has no model file: {missing} does not exist; the model has "
            "2 rank(s), model_rank0.mindir to model_rank1.mindir: launch one rank per "
            "file (mpirun -n 2)\n") in job.stderr, _explain(job)
    assert "Traceback" not in job.stderr, _explain(job)


def test_context_readers_and_cli_under_mpirun():
    job = mpirun(2, "info")
    assert job.returncode == 0, _explain(job)
    assert sorted(job.stdout.splitlines()) == ["rank 0 size 2 gpu 0/2 cpu 0/2",
                                               "rank 1 size 2 gpu 1/2 cpu 1/2"]
    case = dist_cases.case("matmul_allreduce")
    cli = run_mpirun(2, [sys.executable, "-m", "refinfer.cli", "run", "--distributed",
                         case.rank_model, "--input",
                         os.path.join(case.directory, "input_0.npy")], timeout=JOB_TIMEOUT)
    assert cli.returncode == 0, _explain(cli)
    assert cli.stdout.startswith("rank 0:\ntensor's name is:Default/AllReduce-op0")
    assert cli.stdout.count("tensor's name is:") == 2 and "\nrank 1:\n" in cli.stdout


def test_mpi_of_another_launcher_is_detected():
    """Open MPI's mpirun announcing 2 ranks to an mpi4py built for MPICH: MPI
    sees a job of 1. Refused, instead of two one-rank jobs summing halves."""
    env = dict(os.environ, OMPI_COMM_WORLD_SIZE="2", OMPI_COMM_WORLD_RANK="0")
    probe = "import refinfer as mslite; print(mslite.Context().cpu.rank_id)"
    job = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                         text=True, timeout=JOB_TIMEOUT)
    assert job.returncode != 0
    assert "mpirun started 2 ranks but MPI sees 1" in job.stderr


def test_the_sliced_speed_benchmark_runs_and_checks_outputs():
    """tools/bench_distributed.py (speed is only reported, never asserted):
    one short round on the committed 2-way transformer block."""
    tool = os.path.join(os.path.dirname(os.path.dirname(WORKER)), os.pardir, "tools",
                        "bench_distributed.py")
    job = subprocess.run([sys.executable, tool, "--case", "transformer_block",
                          "--rounds", "1", "--steps", "2"],
                         capture_output=True, text=True, timeout=JOB_TIMEOUT)
    assert job.returncode == 0, _explain(job)
    assert "outputs match the golden" in job.stdout, job.stdout
    assert "speed-up: median" in job.stdout, job.stdout


def test_the_example_run_sh_tags_every_line_with_its_rank():
    """examples/distributed/run.sh printed the two ranks' lines interleaved
    into garbled ones (the sample prints a line in pieces; unbuffered output
    shows it): every line now carries its rank and stays whole."""
    root = dist_cases.ROOT
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=root,
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    job = subprocess.run(["bash", os.path.join(root, "examples", "distributed", "run.sh")],
                         capture_output=True, text=True, timeout=JOB_TIMEOUT, env=env)
    assert job.returncode == 0, _explain(job)
    lines = job.stdout.splitlines()
    for rank in (0, 1):
        own = [line[len(f"[rank {rank}] "):] for line in lines
               if line.startswith(f"[rank {rank}] ")]
        assert own[0] == f"rank {rank} of 2", job.stdout
        assert own[1] == "tensor's name is:Default/AllReduce-op0 data size is:96 " \
                         "tensor elements num is:24", job.stdout
        values = own[2].split()
        assert values[:3] == ["output", "data", "is:"] and len(values) == 13, job.stdout
        assert float(values[3]) == pytest.approx(0.77097636, abs=1e-6)
        assert len(own) == 3, job.stdout
    assert len(lines) == 6, job.stdout


def test_ranks_on_the_gpu_target(tmp_path):
    """mpirun -n 2 on numba's CUDA simulator (one GPU): with device_id 0
    both ranks run the sliced model's device plan (the AllReduce's argument
    crossing to the host for MPI) and match; left to their local rank,
    rank 1 asks for GPU 1 and the job ends with its clear build error."""
    simulator = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}
    case = dist_cases.case("matmul_allreduce")
    job = mpirun(2, "gpu", str(tmp_path), case.name, "0", env=simulator)
    assert job.returncode == 0, _explain(job)
    for rank in range(2):
        with np.load(tmp_path / f"rank{rank}.npz") as saved:
            outputs = [saved[f"arr_{k}"] for k in range(len(saved.files))]
        assert dist_cases.mismatches(case, rank, outputs) == [], f"rank {rank}"
        assert (f"rank {rank}: gpu 0, 1 to the device, 1 to the host"
                in job.stdout), _explain(job)
    job = mpirun(2, "gpu", str(tmp_path), case.name, env=simulator, timeout=60)
    assert job.returncode != 0, _explain(job)
    assert ("rank 1 of 2 is rank 1 on this machine, so it runs on GPU 1 "
            "(device_id = local rank, as context.gpu.device_id is not set), but "
            "this machine has 1 GPU(s)") in job.stderr, _explain(job)
