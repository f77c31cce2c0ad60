"""The cuda tier: every cuda kernel against its NumPy reference, in numba's
CUDA simulator unless NUMBA_ENABLE_CUDASIM says otherwise (set it to 0 on a
machine with a GPU to run the same tests on the device). Select the tier
with ``-m cuda``, leave it out with ``-m "not cuda"``.

The simulator is chosen when numba.cuda is first imported, from numba's
configuration: set here, before the tests import refinfer.cuda, and set
in numba's configuration rather than in the environment: numba's compiler
reloads its whole configuration from the environment when that changes,
which would reset refinfer's Numba cache folder (refinfer/jit.py) for the
rest of the session. Where numba.cuda was imported earlier in this process
without the simulator (and there is no GPU), the tier is skipped: run
``pytest tests/cuda`` in a process of its own.
"""
import os
import sys

import pytest
from numba.core import config

if "NUMBA_ENABLE_CUDASIM" not in os.environ:
    config.ENABLE_CUDASIM = 1
# The golden cases' loader (tests/golden_cases.py) for the device plan's tests.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))



def _usable() -> bool:
    """Whether numba.cuda runs here; imported only now, after the
    simulator is chosen above."""
    from numba import cuda
    return cuda.is_available()


def pytest_collection_modifyitems(items):
    usable = _usable()
    here = os.path.dirname(os.path.abspath(__file__))
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(pytest.mark.cuda)
            # The simulator computes in NumPy scalars, which warn where a
            # GPU silently gives inf or NaN.
            item.add_marker(pytest.mark.filterwarnings("ignore::RuntimeWarning"))
            if not usable:
                item.add_marker(pytest.mark.skip(
                    reason="numba.cuda was imported without the simulator and "
                           "no GPU is present: run tests/cuda in its own process"))
