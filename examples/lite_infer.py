"""Lite's LiteInfer: build straight from a MindSpore cell (needs MindSpore installed;
without it, LiteInfer raises an ImportError saying how to run an exported file).

    python examples/lite_infer.py
"""
import numpy as np

import refinfer as mslite       # as mindspore_lite

try:
    from mindspore import Tensor, nn
except ImportError as exc:
    raise SystemExit(f"this example needs MindSpore: {exc}") from exc


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(self.dense(x))


x = np.random.default_rng(0).random((2, 4), np.float32)
model = mslite.LiteInfer(Net(), Tensor(x))
print(model.predict([x])[0].get_data_to_numpy())
