"""Every kernel test runs once single-threaded and once split across 3
workers (uneven pieces, more threads than this machine has cores). Kernel
test modules name the ops they cover in ``TESTED``; the others (registry
metadata) run once."""
import pytest

from refinfer import threads


def pytest_generate_tests(metafunc):
    if hasattr(metafunc.module, "TESTED"):
        metafunc.parametrize("worker_threads", [1, 3], indirect=True,
                             ids=["1thread", "3threads"])


@pytest.fixture(autouse=True)
def worker_threads(request):
    threads.configure(getattr(request, "param", 1))
    yield
    threads.configure(1)
