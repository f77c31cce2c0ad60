"""BiasAdd."""
from refinfer import args
from refinfer.registry import register

from ._kernels import norm
from ._ref.common import NUMBERS, as_result, promote, require_tensors


@register("BiasAdd", family="nn", dtypes=NUMBERS,
          convert={"data_format": args.data_format},
          kernels={"numba": norm.bias_add})
def bias_add(input_x, bias, data_format="NCHW"):
    """Add a 1-D bias along the channel axis: y = x + bias[channel].

    Arguments: input_x (rank >= 2), bias (C,), data_format "NCHW" (code 0;
    also NCDHW/ND: channel axis 1) or "NHWC" (code 1; channel axis last).
    Output dtype is that of input_x (MindSpore requires equal dtypes).
    dtypes: floats and integers.
    """
    require_tensors("BiasAdd", input_x=input_x, bias=bias)
    if input_x.ndim < 2 or bias.ndim != 1:
        raise ValueError(f"BiasAdd: need input rank >= 2 and a 1-D bias, got "
                         f"{input_x.shape} and {bias.shape}")
    axis = input_x.ndim - 1 if data_format == "NHWC" else 1
    if input_x.shape[axis] != bias.shape[0]:
        raise ValueError(f"BiasAdd: bias {bias.shape} does not match channel "
                         f"axis {axis} of {input_x.shape}")
    shape = [1] * input_x.ndim
    shape[axis] = bias.shape[0]
    x, b = promote(input_x, bias.reshape(shape))
    return as_result(x + b, input_x.dtype)
