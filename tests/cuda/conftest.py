"""The cuda tier: every cuda kernel against its NumPy reference, in numba's
CUDA simulator unless NUMBA_ENABLE_CUDASIM says otherwise (set it to 0 on a
machine with a GPU to run the same tests on the device). Select the tier
with ``-m cuda``, leave it out with ``-m "not cuda"``.

The simulator is chosen when numba.cuda is first imported: the variable is
set here, before the tests import refinfer.cuda; where numba.cuda was
imported earlier in this process without it (and there is no GPU), the
tier is skipped: run ``pytest tests/cuda`` in a process of its own.
"""
import os
import sys

import pytest

os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")
if "numba" in sys.modules and "numba.cuda" not in sys.modules:
    from numba.core import config
    config.reload_config()      # numba read the environment at its import

from numba import cuda  # noqa: E402  (after the variable)

USABLE = cuda.is_available()


def pytest_collection_modifyitems(items):
    here = os.path.dirname(os.path.abspath(__file__))
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(pytest.mark.cuda)
            # The simulator computes in NumPy scalars, which warn where a
            # GPU silently gives inf or NaN.
            item.add_marker(pytest.mark.filterwarnings("ignore::RuntimeWarning"))
            if not USABLE:
                item.add_marker(pytest.mark.skip(
                    reason="numba.cuda was imported without the simulator and "
                           "no GPU is present: run tests/cuda in its own process"))
