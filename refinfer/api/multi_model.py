"""Lite's ``MultiModelRunner`` / ``ModelExecutor`` (Lite 2.7.1+).

In Lite, ``MultiModelRunner.build_from_file`` reads a converter-made file whose main
graph is a chain of Ascend OM sub-models (``CustomAscend`` nodes) and whose attribute
``subgraph_infer_path`` lists, per executor, the range of sub-models it runs in turn;
each ``ModelExecutor`` feeds one sub-model's outputs to the next by name, and the
sub-models share one workspace.

A MindIR that MindSpore exports holds one model: its graphs are called by the main
graph, none runs alone. So a runner built from it has one ``ModelExecutor``, which runs
the whole model as ``Model.predict`` does. A file of OM sub-models is refused by the
build, naming ``CustomAscend`` among the ops refinfer does not run (OM is Ascend
machine code). Argument checks and messages are Lite's.
"""
from __future__ import annotations

import os

import numpy as np

from ._checkparam import check_isinstance
from .context import Context
from .enums import ModelType
from .model import Model
from .tensor import Tensor, TensorMeta


class MultiModelRunner:
    """Builds the models of one file; ``get_model_executor`` gives their executors."""

    def __init__(self):
        self.model_path_ = ""
        self._executors: list[ModelExecutor] = []

    def build_from_file(self, model_path, model_type, context=None, config_path="",
                        config_dict=None):
        check_isinstance("model_path", model_path, str)
        check_isinstance("model_type", model_type, ModelType)
        context = Context() if context is None else context
        check_isinstance("context", context, Context)
        check_isinstance("config_path", config_path, str)
        if not os.path.exists(model_path):
            raise RuntimeError("build_from_file failed, model_path does not exist!")
        if model_type is not ModelType.MINDIR:
            raise RuntimeError("build_from_file failed, model_type only support MINDIR!")
        model = Model()
        model.build_from_file(model_path, model_type, context, config_path, config_dict)
        self.model_path_ = model_path
        self._executors = [ModelExecutor(model)]

    def get_model_executor(self) -> list[ModelExecutor]:
        """One executor per scheduled path through the file's models (one here)."""
        return list(self._executors)

    get_runner_exec = get_model_executor      # the method's name in Lite's source


class ModelExecutor:
    """Runs one path of a ``MultiModelRunner``'s models; ``executor``: the built
    ``Model`` it runs (None: an empty executor, as Lite's default constructor)."""

    def __init__(self, executor=None):
        check_isinstance("executor", executor, Model, enable_none=True)
        self._model = executor

    def get_inputs(self) -> list[Tensor]:
        return self._model.get_inputs() if self._model else []

    def get_outputs(self) -> list[TensorMeta]:
        return list(self._model.get_outputs()) if self._model else []

    def predict(self, inputs, outputs=None) -> list[Tensor]:
        if not isinstance(inputs, (list, tuple)):
            raise TypeError(f"inputs must be list or tuple, but got {type(inputs)}.")
        for value in inputs:
            if not isinstance(value, (Tensor, np.ndarray)):
                raise TypeError("inputs element must be Tensor, or numpy.")
        if self._model is None:
            raise RuntimeError("predict failed!")
        return self._model.predict(inputs, outputs)
