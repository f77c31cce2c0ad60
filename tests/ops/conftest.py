"""Fixtures for the op tests.

``call(name, *inputs, **attrs)`` runs a registered op the way the
interpreter binds a MindIR node: node inputs by position, then PRIMITIVE
attributes by parameter name or alias (unknown attributes such as
``input_names`` ignored), then the defaults; every argument goes through the
op's normaliser. ``close(got, expected, dtype)`` checks dtype, shape and
values with a per-dtype tolerance.
"""
from __future__ import annotations

import inspect

import numpy as np
import pytest

from refinfer.registry import get_op

TOLERANCE = {
    np.dtype(np.float16): dict(rtol=2e-3, atol=2e-3),
    np.dtype(np.float32): dict(rtol=1e-5, atol=1e-6),
    np.dtype(np.float64): dict(rtol=1e-12, atol=1e-12),
}


def call_op(name: str, *inputs, **attrs):
    op = get_op(name)
    args = []
    for i, param in enumerate(op.params):
        if i < len(inputs):
            value = inputs[i]
        else:
            keys = [param.name] + [a for a, p in op.attrs.items()
                                   if p == param.name]
            value = next((attrs[k] for k in keys if k in attrs),
                         param.default)
            if value is inspect.Parameter.empty:
                raise TypeError(f"{name}: missing argument {param.name!r}")
        convert = op.convert.get(param.name)
        args.append(value if convert is None else convert(value))
    return op.reference(*args)


def assert_close(got, expected, dtype=None, **override):
    """``got`` is an ndarray of ``dtype`` (default: expected's dtype) equal
    to ``expected`` (usually float64) within that dtype's tolerance; exact
    for integers and bools."""
    expected = np.asarray(expected)
    dtype = np.dtype(dtype if dtype is not None else expected.dtype)
    assert isinstance(got, np.ndarray), type(got)
    assert got.dtype == dtype, (got.dtype, dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if dtype.kind != "f":
        np.testing.assert_array_equal(got, expected)
        return
    kw = dict(TOLERANCE[dtype], **override)
    np.testing.assert_allclose(got.astype(np.float64), expected, **kw)


@pytest.fixture
def call():
    return call_op


@pytest.fixture
def close():
    return assert_close


@pytest.fixture
def rng():
    return np.random.default_rng(20251121)
