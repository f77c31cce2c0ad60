"""Conv1DExt, Conv2DExt and Conv3DExt."""
from refinfer import args
from refinfer.registry import register

from ._kernels import conv
from ._ref.common import FLOATS
from ._ref.conv import torch_conv


@register("Conv1DExt", "Conv2DExt", "Conv3DExt", family="nn", dtypes=FLOATS,
          convert={"stride": args.ints, "padding": args.ints,
                   "dilation": args.ints, "groups": args.integer},
          kernels={"numba": conv.conv_ext})
def conv_ext(input, weight, bias=None, stride=(1,), padding=(0,),
             dilation=(1,), groups=1):
    """PyTorch-style convolution with bias (mint.nn.Conv1d/2d/3d).

    y[n, o, i...] = bias[o] + sum_{c, k...} xpad[n, g*Cg + c, i*s + k*d]
                    * weight[o, c, k...]

    Operands: input (N, C_in, *S) or unbatched (C_in, *S); weight (C_out,
    C_in/groups, *K), whose rank picks 1-, 2- or 3-D; bias=None (C_out,).
    stride=1, padding=0 (zeros on both sides of each axis), dilation=1:
    ints or one per axis; groups=1. MindSpore 2.7.1 has no CPU kernels for
    these. dtypes: float16 (accumulated in float32), float32, float64.
    """
    return torch_conv(input, weight, bias, stride, padding, dilation, groups)
