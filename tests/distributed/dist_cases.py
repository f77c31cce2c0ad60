"""The distributed golden cases (golden/distributed, tools/golden/distributed), for the
tests, the MPI worker and the benchmark."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN_DIRS = [os.path.join(ROOT, "golden", "distributed"),
               os.path.join(ROOT, "golden_big", "distributed")]
BACKEND_CONFIG = {"refinfer": {"backend": "reference"}}


@dataclass
class DistCase:
    name: str
    directory: str
    meta: dict

    @property
    def ranks(self) -> int:
        return self.meta["ranks"]

    @property
    def rank_model(self) -> str:
        """The per-rank file pattern, with ``{rank}``."""
        return os.path.join(self.directory, self.meta["rank_model"])

    @property
    def unsliced_model(self) -> str | None:
        name = self.meta.get("unsliced_model")
        return os.path.join(self.directory, name) if name else None

    @property
    def tolerance(self) -> dict:
        return self.meta["tolerance"]

    def config(self, backend: dict | None = None) -> dict:
        """The model config the ranks need (user groups), plus ``backend``."""
        return {**(backend or {}), **self.meta.get("config", {})}

    def inputs(self) -> list[np.ndarray]:
        return [np.load(self._file(i["file"])) for i in self.meta["inputs"]]

    def rank_outputs(self, rank: int) -> list[np.ndarray]:
        """MindSpore's (or the NumPy reference's) outputs of ``rank``'s file."""
        return [np.load(self._file(f)) for f in self.meta["rank_outputs"][rank]]

    def unsliced_outputs(self) -> list[np.ndarray] | None:
        """The unsliced network's outputs: what every rank must produce."""
        if "outputs" not in self.meta:
            return None
        return [np.load(self._file(o["file"])) for o in self.meta["outputs"]]

    def _file(self, name: str) -> str:
        return os.path.join(self.directory, name)


def all_cases() -> list[DistCase]:
    cases = []
    for root in GOLDEN_DIRS:
        if not os.path.isdir(root):
            continue
        for name in sorted(os.listdir(root)):
            meta_path = os.path.join(root, name, "meta.json")
            if os.path.exists(meta_path):
                with open(meta_path) as f:
                    cases.append(DistCase(name, os.path.join(root, name), json.load(f)))
    return cases


def committed_cases() -> list[DistCase]:
    return [c for c in all_cases() if c.directory.startswith(GOLDEN_DIRS[0])]


def case(name: str) -> DistCase:
    return next(c for c in all_cases() if c.name == name)


def run_rank(dist_case: DistCase, backend: dict | None = None) -> list[np.ndarray]:
    """This rank's outputs: its sliced file, built through the Lite API with
    the ``{rank}`` path, on the case's inputs."""
    import refinfer as mslite
    model = mslite.Model()
    model.build_from_file(dist_case.rank_model, mslite.ModelType.MINDIR,
                          config_dict=dist_case.config(backend))
    return [t.get_data_to_numpy() for t in model.predict(dist_case.inputs())]


def mismatches(dist_case: DistCase, rank: int, outputs: list[np.ndarray]) -> list[str]:
    """Where ``rank``'s outputs differ from its golden and from the unsliced
    outputs (empty when all match within the case's tolerance)."""
    problems = []
    expected = {"rank golden": dist_case.rank_outputs(rank),
                "unsliced": dist_case.unsliced_outputs()}
    for what, arrays in expected.items():
        if arrays is None:
            continue
        if len(arrays) != len(outputs):
            problems.append(f"{what}: {len(outputs)} outputs, expected {len(arrays)}")
            continue
        for k, (got, want) in enumerate(zip(outputs, arrays)):
            if got.shape != want.shape or got.dtype != want.dtype or not np.allclose(
                    got, want, **dist_case.tolerance):
                problems.append(f"{what} output {k}: max |diff| "
                                f"{_max_diff(got, want)} ({got.dtype}{list(got.shape)})")
    return problems


def _max_diff(got, want) -> str:
    if got.shape != want.shape:
        return f"shape {list(got.shape)} != {list(want.shape)}"
    return f"{np.max(np.abs(got.astype(np.float64) - want)):.3g}"
