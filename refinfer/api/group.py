"""Lite's ``ModelGroup``: models that share weights or workspace memory.

- ``SHARE_WEIGHT`` (``add_model`` of ``Model`` objects, before each builds): the models
  of the group hold one copy of what their weights and derived constants have in common,
  in this process (``sharing.WeightPool``: found by content, so one file built twice
  shares everything). Lite does this on Ascend (GE) only.
- ``SHARE_WORKSPACE`` (``add_model`` of paths, then ``cal_max_size_of_workspace``): on
  Ascend, models never run at once use one activation arena sized for the largest. The
  refinfer executor keeps no arena: each activation is allocated when produced and freed
  at its last use, and the process keeps freed memory for the next predict
  (refinfer/process.py), so models run one at a time draw their activations from the same
  freed heap. The calls check their arguments as Lite does and compute nothing more
  (docs/weight-sharing.md §4, with a measurement).
"""
from __future__ import annotations

import os

from .. import sharing
from ._checkparam import check_isinstance
from .context import Context
from .enums import ModelGroupFlag, ModelType
from .model import Model

WEIGHT_FLAGS = (ModelGroupFlag.SHARE_WEIGHT, ModelGroupFlag.SHARE_WEIGHT_WORKSPACE)
ADD_FAILED = "ModelGroup's add model failed."


class ModelGroup:
    """Models sharing weights (``Model`` objects) or workspace (model paths)."""

    def __init__(self, flags=ModelGroupFlag.SHARE_WORKSPACE):
        if not isinstance(flags, ModelGroupFlag):
            raise RuntimeError("Parameter flags should be ModelGroupFlag.SHARE_WORKSPACE "
                               "or ModelGroupFlag.SHARE_WEIGHT or "
                               "ModelGroupFlag.kShareWeightAndWorkspace")
        self.flags = flags
        self.model_paths: list[str] = []
        self._pool = sharing.WeightPool()

    def add_model(self, models):
        """``models``: a list or tuple of paths (workspace sharing) or of ``Model``
        objects not built yet (weight sharing)."""
        if not isinstance(models, (list, tuple)):
            raise TypeError(f"models must be list/tuple, but got {type(models)}")
        if not models:
            raise RuntimeError("models cannot be empty")
        kind = str if isinstance(models[0], str) else Model
        for i, element in enumerate(models):
            if not isinstance(element, kind):
                raise TypeError(f"models element must be all str or Model, but got "
                                f"{type(element)} at index {i}.")
        if kind is str:
            self._add_paths(models)
        else:
            self._add_models(models)

    def _add_paths(self, paths) -> None:
        missing = [p for p in paths if not os.path.isfile(p)]
        if missing:
            raise RuntimeError(f"{ADD_FAILED} Error is no model file {missing[0]!r}")
        self.model_paths.extend(paths)

    def _add_models(self, models) -> None:
        if self.flags not in WEIGHT_FLAGS:
            raise RuntimeError(f"{ADD_FAILED} Error is Model objects share weights: make "
                               "the group with ModelGroupFlag.SHARE_WEIGHT (or "
                               "SHARE_WEIGHT_WORKSPACE)")
        for i, model in enumerate(models):
            problem = ("is built already: add models before build_from_file"
                       if model._loaded is not None else
                       "is in another ModelGroup already"
                       if model._weight_pool not in (None, self._pool) else None)
            if problem:
                raise RuntimeError(f"{ADD_FAILED} Error is the model at index {i} "
                                   f"{problem}")
        for model in models:
            model._weight_pool = self._pool

    def cal_max_size_of_workspace(self, model_type, context):
        """Lite's checks; nothing to size here (see the module docstring)."""
        check_isinstance("context", context, Context)
        check_isinstance("model_type", model_type, ModelType)
        if self.flags == ModelGroupFlag.SHARE_WEIGHT or not self.model_paths:
            raise RuntimeError("ModelGroup's cal max size of workspace failed. Error is "
                               "add model paths to a group made with "
                               "ModelGroupFlag.SHARE_WORKSPACE first")
