"""FFTWithSize."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.fft import norm_mode, optional_ints, transform_n


@register("FFTWithSize", family="fft", dtypes=NUMBERS,
          convert={"signal_ndim": args.scalar, "inverse": args.boolean,
                   "real": args.boolean, "norm": norm_mode, "onesided": args.boolean,
                   "signal_sizes": optional_ints}, no_kernel="native")
def fft_with_size(x, signal_ndim, inverse, real, norm="backward", onesided=True,
                  signal_sizes=()):
    """The FFT over the last signal_ndim axes, in one of its forms (classic PRIMITIVE).

    real=False: FFTN (inverse=False) or IFFTN (True) of complex or real x.
    real=True, inverse=False: RFFTN of real x (onesided=True: the last axis
    halved) or its full FFTN (onesided=False). real=True, inverse=True: IRFFTN
    to a real signal whose last-axis length is signal_sizes[-1] (() : 2 (m -
    1)). Arguments: x; signal_ndim (1, 2 or 3); inverse; real (attributes);
    norm="backward"; onesided=True; signal_sizes=(). Result dtypes as FFTN /
    IRFFTN (ops/_ref/fft.py).
    """
    rank = int(signal_ndim)
    if not 1 <= rank <= min(3, x.ndim):
        raise ValueError(f"FFTWithSize: signal_ndim {rank} must be 1..3 and at most "
                         f"x's rank {x.ndim}")
    dims = tuple(range(x.ndim - rank, x.ndim))
    if real and inverse:
        sizes = None
        if signal_sizes:
            sizes = tuple(x.shape[d] for d in dims[:-1]) + (int(signal_sizes[-1]),)
        return transform_n("FFTWithSize", np.fft.irfftn, x, sizes, dims, norm,
                           real_out=True)
    if real and onesided:
        return transform_n("FFTWithSize", np.fft.rfftn, x, None, dims, norm,
                           real_in=True)
    fn = np.fft.ifftn if inverse else np.fft.fftn
    return transform_n("FFTWithSize", fn, x, None, dims, norm)
