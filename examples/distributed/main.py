# MindSpore Lite's distributed inference sample (GPU flavour: ranks launched by mpirun), with
# the import changed and the target set to the CPU. From this folder:
#
#   mpirun -n 2 python main.py \
#       --model_path='../../golden/distributed/matmul_allreduce/model_rank{rank}.mindir'
#
# Every rank loads its own sliced file ({rank} becomes its rank), feeds the same inputs (ones,
# as in Lite's sample) and prints its outputs; both ranks print the unsliced model's result.
import argparse

import numpy as np
import refinfer as mslite

parser = argparse.ArgumentParser()
parser.add_argument("--model_path", required=True, help="a rank's file; {rank} = its rank")
parser.add_argument("--config_file", default="", help="model config (user groups)")
args = parser.parse_args()

# init context: the rank and the group size come from MPI
context = mslite.Context()
context.target = ["cpu"]
print(f"rank {context.cpu.rank_id} of {context.cpu.group_size}")

# create Model and build Model
model = mslite.Model()
model.build_from_file(args.model_path, mslite.ModelType.MINDIR, context, args.config_file)

# set model input as ones
inputs = model.get_inputs()
for input_i in inputs:
    input_i.set_data_from_numpy(np.ones(input_i.shape, dtype=np.float32))

# execute inference
outputs = model.predict(inputs)

# get output and print
for output in outputs:
    name = output.name.rstrip()
    data_size = output.data_size
    element_num = output.element_num
    print("tensor's name is:%s data size is:%s tensor elements num is:%s" %
          (name, data_size, element_num))
    data = output.get_data_to_numpy()
    data = data.flatten()
    print("output data is:", end=" ")
    for i in range(10):
        print(data[i], end=" ")
    print("")
