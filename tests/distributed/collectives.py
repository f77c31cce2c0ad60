"""One battery of communicator calls and its NumPy expectation, shared by the
in-process test and the MPI worker (the same calls must give the same
results on both implementations)."""
from __future__ import annotations

import numpy as np

DTYPES = ("float32", "float64", "int32", "float16", "bool")
SHAPE = (4, 3)


def rank_value(rank: int, dtype: str, shape=SHAPE) -> np.ndarray:
    """Distinct, exactly representable values per rank."""
    values = np.arange(np.prod(shape)).reshape(shape) % 5 + rank * 3 - 4
    return (values % 2 == 0) if dtype == "bool" else values.astype(dtype)


def battery(comm) -> dict[str, np.ndarray]:
    """Every collective on ``comm``, results by name."""
    out = {}
    for dtype in DTYPES:
        x = rank_value(comm.rank, dtype)
        for op in ("sum", "max", "min", "prod") if dtype != "bool" else ("max", "min"):
            out[f"all_reduce/{op}/{dtype}"] = comm.all_reduce(x, op)
        out[f"all_gather/{dtype}"] = comm.all_gather(x)
        out[f"broadcast/{dtype}"] = comm.broadcast(x, comm.size - 1)
        blocks = np.split(rank_value(comm.rank, dtype, (4 * comm.size, 3)), comm.size)
        out[f"all_to_all/{dtype}"] = np.stack(comm.all_to_all(blocks))
    x = rank_value(comm.rank, "float32", (2 * comm.size, 3))
    out["reduce_scatter/sum"] = comm.reduce_scatter(x, "sum")
    out["reduce_scatter/max/float16"] = comm.reduce_scatter(x.astype(np.float16), "max")
    out["strided_view"] = comm.all_reduce(rank_value(comm.rank, "float32", (4, 6))[:, ::2])
    pair = comm.group([r for r in range(comm.size) if r % 2 == comm.rank % 2][::-1])
    out["group/all_gather"] = pair.all_gather(rank_value(comm.rank, "int32"))
    _ring(comm, out)
    comm.barrier()
    return out


def _ring(comm, out: dict) -> None:
    """Send to the next rank, receive from the previous (evens send first)."""
    after, before = (comm.rank + 1) % comm.size, (comm.rank - 1) % comm.size
    x = rank_value(comm.rank, "float64")
    if comm.rank % 2 == 0:
        comm.send(x, after, tag=7)
        out["recv"] = comm.recv(SHAPE, np.float64, before, tag=7)
    else:
        out["recv"] = comm.recv(SHAPE, np.float64, before, tag=7)
        comm.send(x, after, tag=7)


def expected(rank: int, size: int) -> dict[str, np.ndarray]:
    """What :func:`battery` must return on ``rank`` of ``size``."""
    reducers = {"sum": np.sum, "max": np.max, "min": np.min, "prod": np.prod}
    out = {}
    for dtype in DTYPES:
        values = np.stack([rank_value(r, dtype) for r in range(size)])
        for op, reduce in reducers.items():
            if dtype != "bool" or op in ("max", "min"):
                out[f"all_reduce/{op}/{dtype}"] = reduce(values, axis=0).astype(values.dtype)
        out[f"all_gather/{dtype}"] = np.concatenate(list(values))
        out[f"broadcast/{dtype}"] = values[size - 1]
        out[f"all_to_all/{dtype}"] = np.stack(
            [np.split(rank_value(src, dtype, (4 * size, 3)), size)[rank] for src in range(size)])
    full = np.stack([rank_value(r, "float32", (2 * size, 3)) for r in range(size)])
    out["reduce_scatter/sum"] = np.split(full.sum(axis=0), size)[rank]
    out["reduce_scatter/max/float16"] = np.split(full.astype(np.float16).max(axis=0), size)[rank]
    out["strided_view"] = sum(rank_value(r, "float32", (4, 6))[:, ::2] for r in range(size))
    members = [r for r in range(size) if r % 2 == rank % 2][::-1]
    out["group/all_gather"] = np.concatenate([rank_value(r, "int32") for r in members])
    out["recv"] = rank_value((rank - 1) % size, "float64")
    return out


def check(results: dict, rank: int, size: int) -> None:
    want = expected(rank, size)
    assert sorted(results) == sorted(want)
    for name, value in want.items():
        got = results[name]
        assert got.dtype == value.dtype and got.shape == value.shape, \
            f"rank {rank} {name}: {got.dtype}{got.shape} != {value.dtype}{value.shape}"
        np.testing.assert_array_equal(got, value, err_msg=f"rank {rank} {name}")
