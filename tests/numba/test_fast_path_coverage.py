"""Every registered op has a fast path: a Numba kernel covered by a test in
this folder, or a declared reason why its NumPy reference already is the
fast path (refinfer.registry.NO_KERNEL_REASONS)."""
import glob
import importlib
import os

from refinfer.registry import NO_KERNEL_REASONS, list_ops

HERE = os.path.dirname(os.path.abspath(__file__))


def ops_with_kernel_tests() -> set[str]:
    """The union of the ``TESTED`` sets of this folder's test modules."""
    names = set()
    for path in glob.glob(os.path.join(HERE, "test_*.py")):
        module = importlib.import_module(os.path.basename(path)[:-3])
        names |= set(getattr(module, "TESTED", ()))
    return names


def test_every_numba_kernel_is_tested():
    with_kernel = {op.name for op in list_ops() if "numba" in op.kernels}
    assert sorted(with_kernel - ops_with_kernel_tests()) == []


def test_every_op_has_a_fast_path():
    missing = [op.name for op in list_ops() if not op.fast_path]
    assert missing == []


def test_reasons_are_only_given_where_there_is_no_kernel():
    both = [op.name for op in list_ops() if op.no_kernel and "numba" in op.kernels]
    assert both == [] and all(op.no_kernel in NO_KERNEL_REASONS
                              for op in list_ops() if op.no_kernel)
