"""DataFormatDimMap."""
import numpy as np

from refinfer.registry import register

from ._ref.common import INTS, require_dtype


@register("DataFormatDimMap", family="nn", dtypes=INTS, no_kernel="vectorised")
def data_format_dim_map(input_x, src_format="NHWC", dst_format="NCHW"):
    """Dimension indices mapped between two data formats (MindSpore's way).

    y = src_format.index(dst_format[input_x mod 4]): NHWC -> NCHW maps 0,
    1, 2, 3 to 0, 3, 1, 2. This is MindSpore 2.7.1's CPU result, the
    inverse permutation of TensorFlow's op of that name (0, 2, 3, 1).
    Arguments: input_x (int, entries in [-4, 4)); src_format="NHWC",
    dst_format="NCHW" (attributes: each "NHWC" or "NCHW").
    """
    require_dtype("DataFormatDimMap", "input_x", input_x, INTS)
    src, dst = str(src_format), str(dst_format)
    if sorted(src) != sorted(dst) or len(src) != 4:
        raise ValueError(f"DataFormatDimMap: src_format {src!r} and dst_format "
                         f"{dst!r} must be 4-letter orders of the same dimensions")
    if input_x.size and (input_x.min() < -4 or input_x.max() > 3):
        raise ValueError(f"DataFormatDimMap: input_x must lie in [-4, 4), got "
                         f"[{input_x.min()}, {input_x.max()}]")
    table = np.array([src.index(letter) for letter in dst], dtype=input_x.dtype)
    return table[np.mod(input_x, 4)]
