"""Loading a model and its inputs for the command-line tools."""
from __future__ import annotations

import hashlib
import os

import numpy as np

from .. import __version__
from ..inputs import make_inputs
from ..runtime import LoadedModel


def load_model(path: str, precision: str = "float32",
               backend: str = "reference") -> LoadedModel:
    """The compiled model at ``path`` (a clear error if there is none);
    ``precision="float64"``: the float64 oracle (refinfer/precision.py)."""
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path}: no such model file")
    return LoadedModel(path, backend=backend, precision=precision)


def model_inputs(model: LoadedModel, files: list[str] | None,
                 seed: int = 0) -> list[np.ndarray]:
    """Inputs from ``files`` (.npy or raw .bin, one per input) or seeded
    random ones, checked against the model before anything runs."""
    arrays = make_inputs(model.inputs, files, seed)
    model.check_inputs(arrays)
    return arrays


def model_info(model: LoadedModel) -> dict:
    """Manifest fields that identify the model and the tool version."""
    return {"model": os.path.abspath(model.path),
            "model_sha256": file_sha256(model.path),
            "refinfer_version": __version__, "precision": model.precision}


def file_sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def tensor_entry(name: str, array: np.ndarray) -> dict:
    """Manifest entry fields common to every written tensor."""
    array = np.asarray(array)
    return {"name": name, "shape": list(array.shape),
            "dtype": array.dtype.name}
