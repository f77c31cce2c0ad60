"""Two models of one file in one process, with and without a weight-sharing ModelGroup.

    python examples/model_group/share_weights.py [model.mindir]

Each case runs in a fresh process and prints the resident memory (RSS) each build added
(the first also loads the compiled kernels); in the group the second model adds no copy
of the weights.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "..", "model", "mobilenetv2.mindir")


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def build_two(path: str, grouped: bool) -> None:
    import numpy as np
    import refinfer as mslite     # as mindspore_lite

    context = mslite.Context()
    context.cpu.thread_num = 1
    models = [mslite.Model(), mslite.Model()]
    if grouped:
        group = mslite.ModelGroup(mslite.ModelGroupFlag.SHARE_WEIGHT)
        group.add_model(models)          # before the builds
    added = []
    for model in models:
        before = rss_mb()
        model.build_from_file(path, mslite.ModelType.MINDIR, context)
        added.append(rss_mb() - before)
    weights = sum(a.nbytes for a in models[0]._loaded.parameters().values()) / 2**20
    inputs = models[0].get_inputs()
    x = np.random.default_rng(0).random(inputs[0].shape, np.float32)
    same = np.array_equal(models[0].predict([x])[0].get_data_to_numpy(),
                          models[1].predict([x])[0].get_data_to_numpy())
    print(f"{'with' if grouped else 'without'} ModelGroup(SHARE_WEIGHT): weights "
          f"{weights:.1f} MB; RSS added by the first build {added[0]:.1f} MB, by the "
          f"second {added[1]:.1f} MB; same outputs: {same}", flush=True)

if __name__ == "__main__":
    if len(sys.argv) > 2:                       # one case, in a fresh process
        build_two(sys.argv[1], sys.argv[2] == "grouped")
    else:
        model = sys.argv[1] if len(sys.argv) > 1 else MODEL
        for case in ("alone", "grouped"):
            subprocess.run([sys.executable, __file__, model, case], check=True)
