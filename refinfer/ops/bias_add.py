"""BiasAdd."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS, as_result, promote


@register("BiasAdd", family="nn", dtypes=NUMBERS,
          convert={"data_format": args.data_format})
def bias_add(input_x, bias, data_format="NCHW"):
    """Add a 1-D bias along the channel axis: y = x + bias[channel].

    Arguments: input_x (rank >= 2), bias (C,), data_format "NCHW" (code 0;
    also NCDHW/ND: channel axis 1) or "NHWC" (code 1; channel axis last).
    Output dtype is that of input_x (MindSpore requires equal dtypes).
    dtypes: floats and integers.
    """
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


# -- numba backend -------------------------------------------------------------
import numpy as np  # noqa: E402

from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import norm as _norm  # noqa: E402


@register_kernel("BiasAdd", "numba")
def bias_add_numba(input_x, bias, data_format="NCHW"):
    """BiasAdd as one compiled pass over (sample, channel) rows
    (_norm.affine_rows); channel-last, NumPy's broadcast add (one ufunc
    pass along contiguous channels is as fast); integers and mixed dtypes
    through the reference."""
    last = data_format == "NHWC"
    if input_x.ndim < 2 or bias.ndim != 1 or not _norm.fits(
            input_x, input_x.shape[-1 if last else 1], bias):
        return bias_add(input_x, bias, data_format)
    if last or input_x.ndim == 2:
        return np.add(input_x, bias)
    channels = bias.shape[0]
    x2 = _norm.rows_of(input_x, input_x.shape[0] * channels)
    y = _norm.affine_pass(x2, None, None, None, bias, channels, x2.shape[1])
    return y.reshape(input_x.shape)
