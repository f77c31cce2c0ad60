# The transformer block sliced 2 ways, its ranks run as threads of this process (no MPI),
# checked against the unsliced model: the oracle for a tensor-parallel export.
#
#   python threads.py      (from this folder)
import numpy as np
import refinfer as mslite
from refinfer import distributed

CASE = "../../golden/distributed/transformer_block/"
x = np.load(CASE + "input_0.npy")


def run(path):
    model = mslite.Model()
    model.build_from_file(path, mslite.ModelType.MINDIR)
    return model.predict([x])[0].get_data_to_numpy()


unsliced = run(CASE + "model.mindir")
per_rank = distributed.run_local(2, lambda rank: run(CASE + "model_rank{rank}.mindir"))
for rank, y in enumerate(per_rank):
    print(f"rank {rank}: max |sliced - unsliced| = {np.abs(y - unsliced).max():.2e}")
