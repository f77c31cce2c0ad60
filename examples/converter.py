"""Lite's Converter on the CPU: fix a dynamic batch dim, embed split weights, check the
result runs, and write it (atomically).

    python examples/converter.py MODEL.mindir OUTPUT [name:d0,d1,...]

writes OUTPUT.mindir; e.g. ``python examples/converter.py golden/dyn_mlp/model.mindir
/tmp/mlp_batch2 x:2,4``.
"""
import sys

import refinfer as mslite       # as mindspore_lite

model_file, output_file = sys.argv[1], sys.argv[2]
converter = mslite.Converter()
converter.optimize = "general"
converter.infer = len(sys.argv) > 3         # a run on zeros needs fixed shapes
if len(sys.argv) > 3:
    name, dims = sys.argv[3].split(":")
    converter.input_shape = {name: [int(d) for d in dims.split(",")]}
print(converter)
converter.convert(mslite.FmkType.MINDIR, model_file, output_file)

model = mslite.Model()
model.build_from_file(output_file if output_file.endswith(".mindir")
                      else output_file + ".mindir", mslite.ModelType.MINDIR)
print("inputs:", [(t.name, t.shape) for t in model.get_inputs()])
