"""Im2Col."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.window import check_4d, output_hw, pad_hw, tap


@register("Im2Col", family="nn", dtypes=NUMBERS,
          convert={"ksizes": args.pair, "strides": args.pair, "dilations": args.pair,
                   "pads": args.pads4}, no_kernel="copy")
def im2col(x, ksizes, strides=1, dilations=1, pads=0):
    """The sliding windows of an NCHW input as columns (nn.Unfold, ops.unfold).

    y[n, c, i * kw + j, oh * OW + ow] = x_padded[n, c, oh * sh + i * dh,
    ow * sw + j * dw]: each kernel tap (i, j) is one row of every channel,
    each output position one column; zeros pad. Arguments (classic
    PRIMITIVE attributes): x (N, C, H, W); ksizes; strides=1; dilations=1;
    pads=0 (one value, or (h, w); 4 = (top, bottom, left, right) here). Output
    (N, C, kh * kw, OH * OW).
    """
    check_4d(x, "Im2Col")
    pads = ((pads[0], pads[1]), (pads[2], pads[3]))
    out = output_hw(x.shape[2:], ksizes, strides, dilations, pads)
    xp = pad_hw(x, pads)
    rows = [tap(xp, i, j, out, strides, dilations)
            for i in range(ksizes[0]) for j in range(ksizes[1])]
    return np.stack(rows, 2).reshape(x.shape[:2] + (len(rows), out[0] * out[1]))
