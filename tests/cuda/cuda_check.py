"""What the cuda tier's family tests share: run an op's cuda kernel on
device copies of its tensor arguments and compare the result, copied
back, with the op's NumPy reference within the op tolerances of the Numba
kernels (tests/numba/kernel_check.py)."""
import importlib.util
import os

import numpy as np

from refinfer import registry
from refinfer.cuda import device

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "kernel_check", os.path.join(HERE, "..", "numba", "kernel_check.py"))
kernel_check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kernel_check)

FLOATS = (np.float32, np.float64)
rng = np.random.default_rng(1313)


def values(shape, dtype) -> np.ndarray:
    """Random values of ``dtype``: normal for floats, small for integers
    (so that products and sums stay exact)."""
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0 if np.dtype(dtype).kind == "u" else -5, 6,
                            shape).astype(dtype)
    if np.dtype(dtype) == np.bool_:
        return rng.random(shape) < 0.5
    return np.asarray(rng.standard_normal(shape), dtype)


def on_device(value):
    """A tensor argument (or a sequence of them) as device arrays (C-
    contiguous, as the plan hands them over), anything else as it is."""
    if isinstance(value, np.ndarray):
        # (not ascontiguousarray: it makes a 0-d array 1-D)
        return device.cuda.to_device(value if value.flags.c_contiguous
                                     else value.copy(order="C"))
    if isinstance(value, (tuple, list)) and value \
            and all(isinstance(v, np.ndarray) for v in value):
        return type(value)(map(on_device, value))
    return value


def to_host(result):
    """A kernel's result (a device array or a tuple/list of them, None
    where the reference's tuple holds None) on the host."""
    if isinstance(result, (tuple, list)):
        return type(result)(None if r is None else to_host(r) for r in result)
    assert device.is_device_array(result), f"not a device array: {type(result)}"
    return result.copy_to_host()


def run(op: str, *args, **kwargs):
    """The op's cuda kernel on device copies of ``args``: its result on the
    host, or None where it declined."""
    result = registry.get_op(op).kernels["cuda"](
        *map(on_device, args), **{k: on_device(v) for k, v in kwargs.items()})
    return None if result is None else to_host(result)


def check(op: str, *args, tolerance=None, **kwargs) -> None:
    """The cuda kernel's result equals the reference's (dtype, shape and
    values within the op tolerance, or ``tolerance`` where given)."""
    with np.errstate(all="ignore"):
        expected = registry.get_op(op).reference(*args, **kwargs)
    got = run(op, *args, **kwargs)
    assert got is not None, f"{op}: the cuda kernel declined {args!r:.200}"
    if tolerance is None:
        kernel_check.assert_same(op, got, expected)
        return
    np.testing.assert_allclose(got, expected, err_msg=op, equal_nan=True,
                               **tolerance)
    assert np.asarray(got).dtype == np.asarray(expected).dtype
