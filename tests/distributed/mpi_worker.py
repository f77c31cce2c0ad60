"""One rank of the MPI tests, started by ``mpirun -n N`` (refinfer.distributed.run_mpirun).

    mpi_worker.py cases OUT CASE ...   run each golden case's rank file, save the outputs
                                       to OUT/<case>/rank<r>.npz, print a line per case
    mpi_worker.py bad-input CASE       rank 1 passes an input of the wrong shape
    mpi_worker.py kernel-error CASE    a kernel of rank 1 raises (MatMul, before the AllReduce)
    mpi_worker.py kill CASE            rank 1 is killed (SIGKILL) before predicting
    mpi_worker.py exit CASE            rank 1 calls sys.exit(3) before predicting
    mpi_worker.py early-exit CASE      rank 1 calls sys.exit(3) first thing, before MPI
                                       starts in it
    mpi_worker.py stuck CASE           rank 1 stops answering (sleeps) before predicting;
                                       the ranks' config sets [distributed] timeout_s = 2
    mpi_worker.py elsewhere CASE       rank 1 waits for a message from rank 0 instead of
                                       predicting; the same timeout
    mpi_worker.py collectives OUT      tests/distributed/collectives.py's battery on the MPI
                                       communicator, saved to OUT/rank<r>.npz
    mpi_worker.py info                 print rank, size and the context readers
    mpi_worker.py gpu OUT CASE [ID]    the case's rank file on target gpu (the job's
                                       environment chooses numba's CUDA simulator), on
                                       GPU ID or, without one, on its local rank's; the
                                       outputs saved to OUT/rank<r>.npz, a line per rank
                                       with its GPU and host crossings

Everything else (comparing with the goldens) happens in the pytest process.
"""
import os
import signal
import sys
import time

import numpy as np

# A script: its own folder is first on sys.path, so the test helpers import.
import collectives
import dist_cases
import refinfer as mslite
from refinfer import distributed, registry


def run_cases(out: str, names: list[str]) -> None:
    for name in names:
        case = dist_cases.case(name)
        outputs = dist_cases.run_rank(case, dist_cases.BACKEND_CONFIG)
        rank = distributed.rank_and_size()[0]
        os.makedirs(os.path.join(out, name), exist_ok=True)
        np.savez(os.path.join(out, name, f"rank{rank}.npz"), *outputs)
        print(f"rank {rank}: {name} ran", flush=True)


def failing_rank(mode: str, name: str) -> None:
    """Rank 1 fails in the way ``mode`` says; rank 0 runs normally (and would
    wait forever in the collective if the failure did not end the job)."""
    case = dist_cases.case(name)
    rank = distributed.rank_and_size()[0]
    if rank == 1 and mode == "kernel-error":
        registry.get_op("MatMul").reference = _injected_failure
    config = case.config(dist_cases.BACKEND_CONFIG)
    if mode in ("stuck", "elsewhere"):
        config["distributed"] = {**config.get("distributed", {}), "timeout_s": "2"}
    model = mslite.Model()
    model.build_from_file(case.rank_model, mslite.ModelType.MINDIR, config_dict=config)
    inputs = case.inputs()
    if rank == 1 and mode == "bad-input":
        inputs = [x[:1] for x in inputs]
    if rank == 1 and mode == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    if rank == 1 and mode == "exit":
        print("rank 1: exiting with status 3", flush=True)
        sys.exit(3)
    if rank == 1 and mode == "stuck":
        time.sleep(600)
    if rank == 1 and mode == "elsewhere":
        distributed.current().world.recv((1,), np.float32, source=0)
    print(f"rank {rank}: predicting", flush=True)
    model.predict(inputs)
    print(f"rank {rank}: finished", flush=True)


def run_collectives(out: str) -> None:
    comm = distributed.current().world
    np.savez(os.path.join(out, f"rank{comm.rank}.npz"), **collectives.battery(comm))


def _injected_failure(*args):
    raise ValueError("injected kernel failure on rank 1")


def info() -> None:
    context = mslite.Context()
    rank, size = distributed.rank_and_size()
    # One write per line: print() writes the text and its newline separately, so
    # two ranks' lines could interleave in mpirun's merged stdout.
    sys.stdout.write(f"rank {rank} size {size} gpu {context.gpu.rank_id}/"
                     f"{context.gpu.group_size} cpu {context.cpu.rank_id}/"
                     f"{context.cpu.group_size}\n")
    sys.stdout.flush()


def run_on_gpu(out: str, name: str, device_id: list[str]) -> None:
    case = dist_cases.case(name)
    context = mslite.Context()
    context.target = ["gpu"]
    if device_id:
        context.gpu.device_id = int(device_id[0])
    model = mslite.Model()
    model.build_from_file(case.rank_model, mslite.ModelType.MINDIR, context,
                          config_dict=case.config())
    outputs = [t.get_data_to_numpy() for t in model.predict(case.inputs())]
    rank = distributed.rank_and_size()[0]
    np.savez(os.path.join(out, f"rank{rank}.npz"), *outputs)
    moved = model.host_transfers()
    sys.stdout.write(f"rank {rank}: gpu {model._loaded.device_id}, "
                     f"{moved['to_device']} to the device, {moved['to_host']} to "
                     f"the host\n")
    sys.stdout.flush()


def main() -> None:
    mode = sys.argv[1]
    if mode == "early-exit" and os.environ.get("PMI_RANK") == "1":  # (MPICH's)
        print("rank 1: exiting with status 3 before MPI starts", flush=True)
        sys.exit(3)
    if mode == "cases":
        run_cases(sys.argv[2], sys.argv[3:])
    elif mode == "collectives":
        run_collectives(sys.argv[2])
    elif mode == "info":
        info()
    elif mode == "gpu":
        run_on_gpu(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        failing_rank(mode, sys.argv[2])


if __name__ == "__main__":
    main()
