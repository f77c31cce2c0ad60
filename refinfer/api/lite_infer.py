"""Lite's ``LiteInfer``: build a model straight from a MindSpore cell.

Lite compiles the cell into a graph in memory. refinfer reads MindIR, so it exports the
cell (``mindspore.export``, format MINDIR) into a temporary folder, reads the file's
bytes, removes the folder and builds from the bytes (``Model.build_from_buffer``; split
weights of big cells go as ``weight_bytes``). MindSpore must be importable; without it
``LiteInfer`` says so and how to run an exported file instead.
"""
from __future__ import annotations

import glob
import importlib
import os
import tempfile

from ._checkparam import check_isinstance
from .context import Context
from .model import Model

CONFIG_PATH_KEY = "configPath"
FAILED = "LiteInfer failed! Error is"
NO_MINDSPORE = ("For 'LiteInfer', import mindspore fail. LiteInfer exports a MindSpore "
                "cell, so it needs MindSpore installed (pip install mindspore). refinfer "
                "runs exported models without it: mindspore.export(net, *inputs, "
                "file_name='net', file_format='MINDIR') where MindSpore is, then "
                "Model().build_from_file('net.mindir', ModelType.MINDIR) here.")


class LiteInfer(Model):
    """``LiteInfer(model_or_net, *net_inputs, context=None, model_group_id=None,
    config=None)``: a ``Model`` built from ``model_or_net`` (a ``mindspore.nn.Cell`` or
    a ``mindspore.train.Model``) for inputs like ``net_inputs``."""

    def __init__(self, model_or_net, *net_inputs, context=None, model_group_id=None,
                 config=None):
        super().__init__()
        ms = _import_mindspore()
        if isinstance(model_or_net, ms.train.Model):
            net = model_or_net.predict_network
        elif isinstance(model_or_net, ms.nn.Cell):
            net = model_or_net
        else:
            raise ValueError(f"For LiteInfer, input model_or_net should be "
                             f"ms.train.Model or ms.nn.Cell, but got "
                             f"{type(model_or_net)}.")
        context = Context() if context is None else context
        check_isinstance("context", context, Context)
        check_isinstance("model_group_id", model_group_id, int, enable_none=True)
        config_path, config_dict = _split_config(config)
        model_bytes, weight_bytes = _export(ms, net, net_inputs)
        self.build_from_buffer(model_bytes, weight_bytes, None, context, config_path,
                               config_dict)

    def predict(self, inputs):
        """Run the model (Lite's ``LiteInfer.predict`` takes no output tensors)."""
        return super().predict(inputs)


def _import_mindspore():
    try:
        return importlib.import_module("mindspore")
    except ImportError as exc:
        raise ImportError(NO_MINDSPORE) from exc


def _split_config(config) -> tuple[str, dict | None]:
    """Lite's ``config``: ``{"configPath": path}`` and/or ``{section: {key: value}}``."""
    if config is None:
        return "", None
    check_isinstance("config", config, dict)
    path, sections = "", {}
    for key, value in config.items():
        check_isinstance("config_key", key, str)
        if key == CONFIG_PATH_KEY:
            check_isinstance("config_value", value, str)
            path = value
        else:
            check_isinstance("config_value", value, dict)
            for inner_key, inner_value in value.items():
                check_isinstance("config_value_key", inner_key, str)
                check_isinstance("config_value_value", inner_value, str)
            sections[key] = value
    return path, sections or None


def _export(ms, net, net_inputs) -> tuple[bytes, bytes | None]:
    """The MindIR bytes of ``net`` (and of its external data file, if split)."""
    with tempfile.TemporaryDirectory(prefix="refinfer-liteinfer-") as folder:
        try:
            ms.export(net, *net_inputs, file_name=os.path.join(folder, "net"),
                      file_format="MINDIR")
        except Exception as exc:    # MindSpore's errors have many types
            raise RuntimeError(f"{FAILED} mindspore.export of {type(net).__name__}: "
                               f"{type(exc).__name__}: {exc}") from exc
        whole = os.path.join(folder, "net.mindir")
        graph = whole if os.path.exists(whole) else os.path.join(folder,
                                                                 "net_graph.mindir")
        data_files = sorted(glob.glob(os.path.join(folder, "*_variables", "data_*")))
        if not os.path.exists(graph) or len(data_files) > 1:
            raise RuntimeError(f"{FAILED} mindspore.export wrote "
                               f"{sorted(os.listdir(folder))}; LiteInfer reads one "
                               "MindIR file and at most one data file")
        with open(graph, "rb") as f:
            model_bytes = f.read()
        weight_bytes = None
        if data_files:
            with open(data_files[0], "rb") as f:
                weight_bytes = f.read()
        return model_bytes, weight_bytes
