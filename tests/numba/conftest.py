"""Every kernel test runs once single-threaded and once split across 3
workers (uneven pieces, more threads than this machine has cores)."""
import pytest

from refinfer import threads


@pytest.fixture(autouse=True, params=[1, 3], ids=["1thread", "3threads"])
def worker_threads(request):
    """Every case once single-threaded and once split across 3 workers
    (uneven pieces, more threads than this machine has cores)."""
    threads.configure(request.param)
    yield
    threads.configure(1)
