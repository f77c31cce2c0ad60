"""Lite's Model.build_from_buffer: a model (and its split weights) from bytes, e.g.
fetched from a store or decrypted by the application, never written to disk.

    python examples/build_from_buffer.py [model.mindir [weights data_0]]
"""
import os
import sys

import numpy as np

import refinfer as mslite       # as mindspore_lite

HERE = os.path.dirname(os.path.abspath(__file__))
model_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "model",
                                                                "mobilenetv2.mindir")
with open(model_path, "rb") as f:
    model_bytes = f.read()
weight_bytes = None
if len(sys.argv) > 2:           # <name>_variables/data_0 of a model with split weights
    with open(sys.argv[2], "rb") as f:
        weight_bytes = f.read()

model = mslite.Model()
model.build_from_buffer(model_bytes, weight_bytes, mslite.ModelType.MINDIR)
inputs = model.get_inputs()
for tensor in inputs:
    tensor.set_data_from_numpy(np.ones(tensor.shape, np.float32))
for out in model.predict(inputs):
    print(out.name, out.shape, out.get_data_to_numpy().ravel()[:4])
