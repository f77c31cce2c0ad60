"""Lite's MultiModelRunner on the CPU: build a file, run each of its executors.

    python examples/multi_model_runner.py [model.mindir]

A MindIR that MindSpore exports is one model, so the runner has one executor
(docs/lite-api.md, "MultiModelRunner").
"""
import os
import sys

import numpy as np

import refinfer as mslite       # as mindspore_lite

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = os.path.join(HERE, "model", "mobilenetv2.mindir")
path = sys.argv[1] if len(sys.argv) > 1 else DEFAULT

runner = mslite.MultiModelRunner()
runner.build_from_file(path, mslite.ModelType.MINDIR)
rng = np.random.default_rng(0)
for k, executor in enumerate(runner.get_model_executor()):
    inputs = executor.get_inputs()
    for tensor in inputs:
        tensor.set_data_from_numpy(rng.random(tensor.shape).astype(np.float32))
    outputs = executor.predict(inputs)
    for out in outputs:
        data = out.get_data_to_numpy()
        print(f"executor {k}: output {out.name!r} {data.shape} argmax {data.argmax()}")
