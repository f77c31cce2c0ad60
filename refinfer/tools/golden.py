"""``refinfer golden``: run a model once and write everything needed to check
another runtime against it.

The output directory holds ``input_<i>.npy``/``.bin``, ``output_<i>.npy``/
``.bin`` (raw bytes, as Lite's ``benchmark`` reads them), ``outputs.txt``
(Lite's calibration text for ``benchmark --benchmarkDataFile``) and
``manifest.json``. It is written atomically: on any error nothing is left.
"""
from __future__ import annotations

import os

import numpy as np

from ..precision import cast_outputs
from ..runtime import LoadedModel
from .common import model_info, tensor_entry
from .tensorio import (MANIFEST, staged_dir, write_bin, write_calibration,
                       write_json, write_npy)

CALIBRATION = "outputs.txt"
FORMAT = "refinfer-golden"


def make_golden(model: LoadedModel, inputs: list[np.ndarray], out_dir: str,
                replace: bool = False, seed: int | None = None,
                cast: bool = False) -> dict:
    """Run ``model`` on ``inputs`` and write the golden directory
    ``out_dir``; returns its manifest. ``seed`` is recorded when the inputs
    were random; ``cast``: outputs cast to the model's output dtypes (for
    the float64 oracle)."""
    outputs = model.run(inputs)
    if cast:
        outputs = cast_outputs(outputs, [s.dtype for s in model.outputs])
    names = [spec.name for spec in model.outputs]
    with staged_dir(out_dir, replace) as staging:
        manifest = {"format": FORMAT, "version": 1, **model_info(model),
                    "seed": seed, "calibration_file": CALIBRATION}
        manifest["inputs"] = [
            _write_pair(staging, f"input_{k}", spec.name, array)
            for k, (spec, array) in enumerate(zip(model.inputs, inputs))]
        manifest["outputs"] = [
            _write_pair(staging, f"output_{k}", name, array)
            for k, (name, array) in enumerate(zip(names, outputs))]
        write_calibration(os.path.join(staging, CALIBRATION),
                          list(zip(names, outputs)))
        write_json(os.path.join(staging, MANIFEST), manifest)
    return manifest


def _write_pair(folder: str, stem: str, name: str, array) -> dict:
    """``stem``.npy and ``stem``.bin; the manifest entry for them."""
    array = np.asarray(array)
    write_npy(os.path.join(folder, f"{stem}.npy"), array)
    write_bin(os.path.join(folder, f"{stem}.bin"), array)
    return {**tensor_entry(name, array), "file": f"{stem}.npy",
            "raw_file": f"{stem}.bin"}
