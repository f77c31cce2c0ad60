"""The communication kernels called directly, ranks as threads: the cases
the golden files cannot reach yet (Send/Receive, in-group roots) and the
argument checks."""
import numpy as np
import pytest

from refinfer.distributed import RankError, run_local
from refinfer.registry import get_op

TIMEOUT = 20


def kernel(name):
    return get_op(name).reference


def value(rank, shape=(4, 2)):
    return (np.arange(np.prod(shape), dtype=np.float32).reshape(shape) + 10 * rank)


def test_send_and_receive_between_pipeline_stages():
    def rank_main(rank):
        if rank == 0:
            return kernel("Send")(value(0), 3, 1)
        return kernel("Receive")(3, 0, (4, 2), np.dtype(np.float32))

    sent, received = run_local(2, rank_main, timeout=TIMEOUT)
    np.testing.assert_array_equal(sent, value(0))
    np.testing.assert_array_equal(received, value(0))


def test_broadcast_root_is_a_world_rank():
    """Group (3, 1) of a 4-rank job, root_rank 1 = group rank 1."""
    def rank_main(rank):
        if rank not in (1, 3):
            return None
        return kernel("Broadcast")((value(rank), value(rank, (2,))), 1, "g", (3, 1))

    results = run_local(4, rank_main, timeout=TIMEOUT)
    for rank in (1, 3):
        np.testing.assert_array_equal(results[rank][0], value(1))
        np.testing.assert_array_equal(results[rank][1], value(1, (2,)))


def test_broadcast_root_outside_the_group():
    with pytest.raises(RankError, match=r"root_rank 5 is not in the group \(world ranks "
                       r"\[0, 1\]\)"):
        run_local(2, lambda rank: kernel("Broadcast")((value(rank),), 5), timeout=TIMEOUT)


@pytest.mark.parametrize("split_dim, concat_dim", [(0, 1), (1, 0), (-1, -2)])
def test_all_to_all_moves_the_sliced_axis(split_dim, concat_dim):
    x = [value(r, (4, 6)) for r in range(2)]
    results = run_local(2, lambda rank: kernel("AlltoAll")(x[rank], 2, split_dim, concat_dim),
                        timeout=TIMEOUT)
    for rank, got in enumerate(results):
        want = np.concatenate([np.split(x[src], 2, axis=split_dim)[rank] for src in range(2)],
                              axis=concat_dim)
        np.testing.assert_array_equal(got, want)


def test_all_to_all_split_count_must_be_the_group_size():
    with pytest.raises(RankError, match="split_count 4 differs from the group size 2"):
        run_local(2, lambda rank: kernel("AlltoAll")(value(rank), 4, 0, 1), timeout=TIMEOUT)


def test_rank_size_is_checked_at_run_time():
    with pytest.raises(RankError, match="AllGather was sliced for 4 ranks, its group has 2"):
        run_local(2, lambda rank: kernel("AllGather")(value(rank), "hccl_world_group", 4),
                  timeout=TIMEOUT)


def test_all_gather_of_a_scalar_is_refused():
    with pytest.raises(RankError, match="AllGather needs a tensor of rank 1 or more"):
        run_local(2, lambda rank: kernel("AllGather")(np.float32(rank) * np.ones(())),
                  timeout=TIMEOUT)


def test_dist_comm_all_reduce_leaves_its_input_alone():
    inputs = [value(r) for r in range(2)]
    results = run_local(2, lambda rank: kernel("DistCommAllReduce")(inputs[rank], "prod"),
                        timeout=TIMEOUT)
    for rank in range(2):
        np.testing.assert_array_equal(results[rank], inputs[0] * inputs[1])
        np.testing.assert_array_equal(inputs[rank], value(rank))


def test_reduce_op_spellings():
    convert = get_op("AllReduce").convert["op"]
    assert [convert(op) for op in ("sum", "MAX", "Min", "prod")] == ["sum", "max", "min", "prod"]
    with pytest.raises(ValueError, match="unknown reduce op 'mean'"):
        convert("mean")


def test_kernels_outside_a_distributed_run():
    with pytest.raises(RuntimeError, match="communicates between ranks"):
        kernel("AllReduce")(value(0))
