"""Shared checks for the kernel tests: a Numba kernel equals its NumPy
reference within the op tolerances (tests/ops/tolerances.py).

Every test module in this folder names the ops it covers in ``TESTED``;
test_fast_path_coverage.py checks that together they cover every kernel.
"""
import importlib.util
import os

import numpy as np
import pytest

from refinfer.registry import get_op

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "op_tolerances", os.path.join(HERE, "..", "ops", "tolerances.py"))
op_tolerances = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(op_tolerances)

DEFAULT_TOLERANCE = {"float16": dict(rtol=2e-3, atol=2e-3),
                     "float32": dict(rtol=1e-5, atol=1e-6),
                     "float64": dict(rtol=1e-12, atol=1e-12)}
FLOATS = (np.float32, np.float64)


def assert_same(op: str, got, expected) -> None:
    """Same structure, dtypes and shapes; values within the op tolerance
    (exact for integers and bools)."""
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, type(expected)) and len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_same(op, g, e)
        return
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape, \
        (op, got.dtype, got.shape, expected.dtype, expected.shape)
    if expected.dtype.kind != "f":
        np.testing.assert_array_equal(got, expected)
        return
    tolerance = dict(DEFAULT_TOLERANCE[expected.dtype.name],
                     **op_tolerances.tolerance(op, expected.dtype))
    np.testing.assert_allclose(got.astype(np.float64),
                               expected.astype(np.float64), err_msg=op,
                               equal_nan=True, **tolerance)


def check(op: str, *args) -> None:
    """The Numba kernel's result equals the reference's, or both raise the
    same exception type."""
    definition = get_op(op)
    # Special values (inf - inf, 0 / 0) make NumPy warn inside references:
    # what is checked is the result, not the warning.
    with np.errstate(all="ignore"):
        try:
            expected = definition.reference(*args)
        except Exception as exc:   # noqa: BLE001  the kernel must refuse it too
            with pytest.raises(type(exc)):
                definition.kernel("numba")(*args)
            return
        got = definition.kernel("numba")(*args)
    assert_same(op, got, expected)


rng = np.random.default_rng(20261121)


def normal(shape, dtype=np.float32, scale=1.0, shift=0.0):
    return (rng.standard_normal(shape) * scale + shift).astype(dtype)
