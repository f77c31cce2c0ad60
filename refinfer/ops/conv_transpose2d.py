"""ConvTranspose2D."""
from refinfer import args
from refinfer.registry import register

from ._kernels import conv
from ._ref.common import FLOATS
from ._ref.conv import torch_conv


@register("ConvTranspose2D", family="nn", dtypes=FLOATS,
          convert={"stride": args.ints, "padding": args.ints,
                   "output_padding": args.ints, "groups": args.integer,
                   "dilation": args.ints},
          kernels={"numba": conv.conv_transpose2d})
def conv_transpose2d(input, weight, bias=None, stride=(1,), padding=(0,),
                     output_padding=(0,), groups=1, dilation=(1,)):
    """PyTorch-style 2-D transposed convolution (mint.nn.ConvTranspose2d).

    y[n, g*Cg + c, i*s + k*d - padding] += input[n, o, i] * weight[o, c, k]
    (+ bias[g*Cg + c]); output size (i - 1) * s - 2 * padding +
    d * (k - 1) + output_padding + 1. Operands: input (N, C_in, H, W) or
    (C_in, H, W); weight (C_in, C_out/groups, kh, kw); bias=None.
    MindSpore 2.7.1 has no CPU kernel for it. dtypes: float16 (float32
    accumulation), float32, float64.
    """
    return torch_conv(input, weight, bias, stride, padding, dilation, groups,
                      True, output_padding)
