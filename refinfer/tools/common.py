"""Loading a model and its inputs for the command-line tools."""
from __future__ import annotations

import hashlib
import os

import numpy as np

from .. import __version__
from ..graph import Ref, RefKind
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
    """Inputs from ``files`` (.npy, ``ARCHIVE.npz:KEY`` or raw .bin, one per
    input) or seeded random ones, checked against the model before anything
    runs."""
    arrays = make_inputs(model.inputs, files, seed)
    model.check_inputs(arrays)
    return arrays


def model_info(model: LoadedModel) -> dict:
    """Manifest fields that identify the model and the tool version."""
    return {"model": os.path.abspath(model.path),
            "model_sha256": file_sha256(model.path),
            "graph_sha256": graph_sha256(model),
            "refinfer_version": __version__, "precision": model.precision}


def graph_sha256(model: LoadedModel) -> str:
    """A digest of the model's graphs without the values of their weights:
    node names, ops and wiring, the dtypes and shapes of constants. A copy
    of the model with other weights (fine-tuned, perturbed) has the same;
    another model has not."""
    digest = hashlib.sha256()
    for graph in model.model.graphs.values():
        digest.update(f"graph {graph.name} {len(graph.inputs)}\n".encode())
        for node in graph.nodes:
            args = " ".join(_source_text(arg.ref) for arg in node.args)
            digest.update(f"{node.name} {node.op_name} {args}\n".encode())
    return digest.hexdigest()


def _source_text(ref: Ref) -> str:
    if ref.kind is not RefKind.CONST:
        return f"{ref.kind}:{ref.key}"
    if isinstance(ref.key, np.ndarray):
        return f"const:{ref.key.dtype}{list(ref.key.shape)}"
    return f"const:{type(ref.key).__name__}"   # never a repr: it may hold an address


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
