"""Input data for command-line runs: files or seeded random data.

Files are ``.npy`` or one array of an ``.npz`` archive, ``ARCHIVE.npz:KEY``
(shape and dtype checked against the model input: an array of the right byte
size but another shape or dtype is an error naming the file, never
reinterpreted) or raw ``.bin`` (any other suffix; like
Lite's benchmark, the bytes are taken in the model input's dtype and
shape). Without files, inputs are random in the ranges Lite's ``benchmark``
uses: floats U[0.1, 1.0), int32/int64 and bool {0, 1}, int8 [-127, 127],
uint8 [0, 254].
"""
from __future__ import annotations

import os

import numpy as np

from .runtime import IOSpec, shape_fits
from .tools.tensorio import read_array, safe_stem, split_member

_INT_RANGES = {"int8": (-127, 128), "uint8": (0, 255)}


def load_input(path: str, spec: IOSpec) -> np.ndarray:
    """One input from ``path``, shaped and typed as ``spec``."""
    archive, key = split_member(path)
    if not os.path.isfile(archive):
        raise FileNotFoundError(f"input file {archive!r} does not exist")
    if key is not None or path.endswith((".npy", ".npz")):
        return _checked_array(path, spec)
    data = np.fromfile(path, dtype=spec.dtype)
    count = int(np.prod(spec.shape))
    if any(d < 0 for d in spec.shape) or data.size != count:
        raise ValueError(
            f"input file {path!r} holds {os.path.getsize(path)} bytes; input "
            f"{spec.name!r} needs {spec.dtype}{list(spec.shape)} = "
            f"{max(count, 0) * spec.dtype.itemsize} bytes")
    return data.reshape(spec.shape)


def _checked_array(path: str, spec: IOSpec) -> np.ndarray:
    """The array of ``path`` (a .npy file or ``ARCHIVE.npz:KEY``) if it has
    ``spec``'s dtype and shape (a dynamic dim, -1, takes any size)."""
    array = read_array(path)
    needs = f"input {spec.name!r} needs {spec.dtype}{list(spec.shape)}"
    holds = f"input file {path!r} holds {array.dtype}{list(array.shape)}"
    if spec.dtype is not None and array.dtype != spec.dtype:
        archive, key = split_member(path)
        load = f"np.load({path!r})" if key is None else \
            f"np.load({archive!r})[{key!r}]"
        saved = path if key is None else f"{safe_stem(spec.name)}.npy"
        raise ValueError(
            f"{holds}; {needs}: cast it, e.g. np.save({saved!r}, "
            f"{load}.astype(np.{spec.dtype.name}))")
    if not shape_fits(array.shape, spec.shape):
        hint = " (-1: any size)" if any(d < 0 for d in spec.shape) else ""
        if array.size == np.prod(spec.shape):
            hint += ": the same number of elements; transpose or reshape it"
        raise ValueError(f"{holds}; {needs}{hint}")
    return array


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
