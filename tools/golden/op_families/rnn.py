"""Recurrent networks as MindSpore 2.7.1 exports them on CPU.

nn.LSTM becomes one fused single-layer, single-direction ``LSTM`` primitive per layer
and direction (weights flattened with Reshape + Concat, the reverse direction run on
ReverseV2'd sequences); with ``seq_length`` it is unrolled instead (Select masks).
nn.GRU is always unrolled (MatMul / Split / Sigmoid / Tanh per step, make_list + Stack).
"""
import numpy as np
from mindspore import nn

from op_cases import OpCase, fixed, t

HIDDEN = 4


class LSTMClassifier(nn.Cell):
    """2-layer bidirectional LSTM over (batch, time, features), Dense on the last step."""

    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(4, HIDDEN, num_layers=2, bidirectional=True, batch_first=True)
        self.head = nn.Dense(2 * HIDDEN, 3)

    def construct(self, x):
        y, (h, c) = self.rnn(x)
        return self.head(y[:, -1]), h, c


class LSTMWithState(nn.Cell):
    """Single-layer LSTM without bias, time-major, with a given initial state."""

    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(4, HIDDEN, has_bias=False)

    def construct(self, x, h, c):
        y, (h, c) = self.rnn(x, (h, c))
        return y, h, c


class LSTMSeqLength(nn.Cell):
    """LSTM with per-sample lengths: exported unrolled, steps past a length masked."""

    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(4, HIDDEN, batch_first=True)

    def construct(self, x, lengths):
        y, (h, _) = self.rnn(x, seq_length=lengths)
        return y, h


class GRUClassifier(nn.Cell):
    """Bidirectional GRU over (batch, time, features), Dense on the last step."""

    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(4, HIDDEN, bidirectional=True, batch_first=True)
        self.head = nn.Dense(2 * HIDDEN, 3)

    def construct(self, x):
        y, h = self.rnn(x)
        return self.head(y[:, -1]), h


class RNNTanh(nn.Cell):
    """Elman RNN (tanh), single layer."""

    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(4, HIDDEN, batch_first=True)

    def construct(self, x):
        y, h = self.rnn(x)
        return y, h


CASES = [
    OpCase("lstm_classifier", ("LSTM", "ReverseV2"), None, [t((2, 3, 4))],
           cell=LSTMClassifier),
    OpCase("lstm_with_state", "LSTM", None,
           [t((3, 2, 4)), t((1, 2, HIDDEN), low=-1, high=1), t((1, 2, HIDDEN), low=-1, high=1)],
           cell=LSTMWithState),
    OpCase("lstm_seq_length", ("Select", "Stack"), None,
           [t((2, 3, 4)), fixed(np.array([3, 2]), "int32")], cell=LSTMSeqLength),
    OpCase("gru_classifier", ("Stack", "Split", "Sigmoid"), None, [t((2, 3, 4))],
           cell=GRUClassifier),
    OpCase("rnn_tanh", "Tanh", None, [t((2, 3, 4))], cell=RNNTanh),
]
