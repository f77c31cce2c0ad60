"""The in-process communicator: collectives against NumPy, and failures that
end every rank's wait instead of hanging."""
import threading
import time

import numpy as np
import pytest

from refinfer.distributed import (CommAborted, DistributedError, LocalWorld,
                                  RankError, current, run_local)

import collectives

TIMEOUT = 20


def rank_comm():
    """The world communicator run_local made current for this rank."""
    return current().world


@pytest.mark.parametrize("size", [2, 3, 4])
def test_collectives_match_numpy(size):
    results = run_local(size, lambda rank: collectives.battery(rank_comm()),
                        timeout=TIMEOUT)
    for rank, result in enumerate(results):
        collectives.check(result, rank, size)


def test_failing_rank_ends_the_others_wait():
    def rank_main(rank):
        comm = rank_comm()
        if rank == 1:
            raise ValueError("rank 1 broke")
        return comm.all_reduce(np.ones(3))

    start = time.monotonic()
    with pytest.raises(RankError, match="rank 1 failed: ValueError: rank 1 broke") as info:
        run_local(3, rank_main, timeout=60)
    assert time.monotonic() - start < 5
    assert info.value.rank == 1
    assert isinstance(info.value.__cause__, ValueError)


def test_rank_that_finished_is_named():
    def rank_main(rank):
        if rank == 0:
            return None                    # never joins the collective
        return rank_comm().all_gather(np.ones(2))

    with pytest.raises(RankError, match=r"rank\(s\) \[0\] finished without"):
        run_local(2, rank_main, timeout=60)


def test_receive_from_a_finished_rank_fails():
    def rank_main(rank):
        if rank == 1:
            return rank_comm().recv((2,), np.float32, 0)
        return None

    with pytest.raises(RankError, match="rank 1 failed: CommAborted"):
        run_local(2, rank_main, timeout=60)


def test_receive_checks_shape_and_dtype():
    def rank_main(rank):
        comm = rank_comm()
        if rank == 0:
            comm.send(np.zeros(3, np.float32), 1)
            return None
        return comm.recv((4,), np.float32, 0)

    with pytest.raises(RankError, match=r"Receive expects float32\[4\], rank 0 sent "
                       r"float32\[3\]"):
        run_local(2, rank_main, timeout=60)


def test_timeout_names_the_missing_rank():
    world = LocalWorld(2, timeout=0.2)
    with pytest.raises(CommAborted, match=r"timed out after 0.2 s waiting for rank\(s\) \[1\]"):
        world.communicator(0).barrier()


def test_abort_wakes_a_waiting_rank():
    world = LocalWorld(2)
    errors = []

    def wait():
        try:
            world.communicator(0).barrier()
        except CommAborted as exc:
            errors.append(str(exc))

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.1)
    world.communicator(1).fail(RuntimeError("disk on fire"))
    waiter.join(5)
    assert errors == ["the job was aborted: rank 1 failed: RuntimeError: disk on fire"]


def test_results_are_private_copies():
    """A rank changing its result in place does not change another rank's."""
    def rank_main(rank):
        out = rank_comm().broadcast(np.arange(3.0), 0)
        rank_comm().barrier()
        out += rank
        rank_comm().barrier()
        return out

    first, second = run_local(2, rank_main, timeout=TIMEOUT)
    np.testing.assert_array_equal(first, [0, 1, 2])
    np.testing.assert_array_equal(second, [1, 2, 3])


def test_group_must_be_ranks_of_the_world():
    def rank_main(rank):
        rank_comm().group([rank, 5])

    with pytest.raises(RankError, match=r"group \[0, 5\] is not a set of ranks") as info:
        run_local(2, rank_main, timeout=TIMEOUT)
    assert isinstance(info.value.__cause__, DistributedError)


def test_reduce_scatter_needs_divisible_rows():
    def rank_main(rank):
        rank_comm().reduce_scatter(np.ones((3, 2)))

    with pytest.raises(RankError, match="does not split into 2 equal blocks"):
        run_local(2, rank_main, timeout=TIMEOUT)
