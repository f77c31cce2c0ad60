"""Convolution."""
from refinfer import args
from refinfer.registry import register

from ._kernels import conv
from ._ref.common import FLOATS
from ._ref.conv import torch_conv


@register("Convolution", family="nn", dtypes=FLOATS,
          convert={"stride": args.ints, "padding": args.ints,
                   "dilation": args.ints, "transposed": args.boolean,
                   "output_padding": args.ints, "groups": args.integer},
          kernels={"numba": conv.convolution})
def convolution(input, weight, bias=None, stride=(1,), padding=(0,),
                dilation=(1,), transposed=False, output_padding=(0,),
                groups=1):
    """Generic PyTorch-style convolution, plain or transposed.

    transposed=False: as Conv2DExt (weight (C_out, C_in/groups, *K)).
    transposed=True: the transposed convolution of PyTorch's
    conv_transpose (weight (C_in, C_out/groups, *K); output size
    (i - 1) * s - 2 * padding + d * (k - 1) + output_padding + 1).
    stride, padding, dilation, output_padding: ints or one per spatial
    axis. MindSpore 2.7.1 has no CPU kernel for it. dtypes: float16
    (float32 accumulation), float32, float64.
    """
    return torch_conv(input, weight, bias, stride, padding, dilation, groups,
                      transposed, output_padding)
