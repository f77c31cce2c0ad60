"""Input data for command-line runs: files or seeded random data.

Files are ``.npy`` (shape and dtype checked against the model input) or raw
``.bin`` (any other suffix; like Lite's benchmark, the bytes are taken in
the model input's dtype and shape). Without files, inputs are random in the
ranges Lite's ``benchmark`` uses: floats U[0.1, 1.0), int32/int64 and bool
{0, 1}, int8 [-127, 127], uint8 [0, 254].
"""
from __future__ import annotations

import os

import numpy as np

from .runtime import IOSpec

_INT_RANGES = {"int8": (-127, 128), "uint8": (0, 255)}


def load_input(path: str, spec: IOSpec) -> np.ndarray:
    """One input from ``path``, shaped and typed as ``spec``."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"input file {path!r} does not exist")
    if path.endswith(".npy"):
        return np.load(path, allow_pickle=False)
    data = np.fromfile(path, dtype=spec.dtype)
    count = int(np.prod(spec.shape))
    if any(d < 0 for d in spec.shape) or data.size != count:
        raise ValueError(
            f"input file {path!r} holds {os.path.getsize(path)} bytes; input "
            f"{spec.name!r} needs {spec.dtype}{list(spec.shape)} = "
            f"{max(count, 0) * spec.dtype.itemsize} bytes")
    return data.reshape(spec.shape)


def random_input(spec: IOSpec, rng: np.random.Generator) -> np.ndarray:
    if any(d < 0 for d in spec.shape):
        raise ValueError(f"input {spec.name!r} has dynamic shape "
                         f"{list(spec.shape)}: give an input file or its shape "
                         f"(--input-shapes)")
    dtype = spec.dtype
    if dtype.kind == "f":
        return rng.uniform(0.1, 1.0, spec.shape).astype(dtype)
    low, high = _INT_RANGES.get(dtype.name, (0, 2))
    return rng.integers(low, high, spec.shape).astype(dtype)


def make_inputs(specs: list[IOSpec], files: list[str] | None,
                seed: int = 0) -> list[np.ndarray]:
    """Inputs from ``files`` (one per input) or random ones."""
    if files:
        if len(files) != len(specs):
            raise ValueError(f"the model has {len(specs)} input(s), "
                             f"{len(files)} file(s) given")
        return [load_input(f, s) for f, s in zip(files, specs)]
    rng = np.random.default_rng(seed)
    return [random_input(s, rng) for s in specs]
