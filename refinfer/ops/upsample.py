"""UpsampleNearest1D/2D/3D, UpsampleLinear1D, UpsampleBilinear2D,
UpsampleTrilinear3D and ResizeLinear1D.

The mint.nn.functional.interpolate primitives resize the trailing axes with
PyTorch's conventions, which are TensorFlow's (ops/_ref/resize.py): "nearest"
copies floor(i * in / out); the linear modes sample i * (in - 1) / (out - 1)
with align_corners, else (i + 0.5) * in / out - 0.5 clamped at 0.
"""
from refinfer import args
from refinfer.registry import register

from ._kernels import resize as resize_kernels
from ._ref.common import FLOATS, NUMBERS, optional
from ._ref.resize import resize, resize_linear1d_with, upsample_with


_FLOAT_CONVERT = {"output_size": optional(args.ints),
                  "scales": optional(args.floats)}


@register("UpsampleNearest1D", "UpsampleNearest2D", "UpsampleNearest3D",
          family="nn", dtypes=NUMBERS, convert=_FLOAT_CONVERT,
          kernels={"numba": resize_kernels.upsample_nearest})
def upsample_nearest(x, output_size=None, scales=None):
    """Nearest-neighbour resize of the trailing 1, 2 or 3 axes (PyTorch).

    Output index i copies input index floor(i * in / out), out =
    output_size or floor(in * scale). x's rank (3, 4 or 5) picks the
    number of resized axes. UpsampleNearest2D is what
    mint.nn.functional.interpolate(mode="nearest") exports. dtypes: floats
    and integers.
    """
    return upsample_with(resize, x, output_size, scales, (1, 2, 3),
                         "nearest")


@register("UpsampleLinear1D", "UpsampleBilinear2D", family="nn",
          dtypes=FLOATS,
          convert=dict(_FLOAT_CONVERT, align_corners=args.boolean),
          kernels={"numba": resize_kernels.upsample_linear})
def upsample_linear(x, output_size=None, scales=None, align_corners=False):
    """(Bi)linear resize of the trailing 1 or 2 axes with PyTorch's rules.

    align_corners=True samples i * (in - 1) / (out - 1); False samples
    (i + 0.5) * in / out - 0.5 (clamped at 0), as ResizeBilinearV2 with
    half_pixel_centers. out = output_size or floor(in * scale). MindSpore
    2.7.1 has no CPU kernel for UpsampleBilinear2D. dtypes: float16
    (computed in float32), float32, float64.
    """
    return upsample_with(resize, x, output_size, scales, (1, 2),
                         "linear", align_corners)


@register("UpsampleTrilinear3D", family="nn", dtypes=FLOATS,
          convert=dict(_FLOAT_CONVERT, align_corners=args.boolean),
          kernels={"numba": resize_kernels.upsample_trilinear3d})
def upsample_trilinear3d(x, output_size=None, scales=None,
                         align_corners=False):
    """Trilinear resize of (D, H, W) with PyTorch's rules.

    As UpsampleBilinear2D over three axes; align_corners is an attribute
    here. dtypes: float16 (computed in float32), float32, float64.
    """
    return upsample_with(resize, x, output_size, scales, (3,), "linear",
                         align_corners)


_MODES = {0: "asymmetric", 1: "align_corners", 2: "half_pixel"}


def _coordinate_mode(value):
    """"asymmetric" | "align_corners" | "half_pixel", or codes 0 / 1 / 2."""
    if isinstance(value, str) and value.lower() in _MODES.values():
        return value.lower()
    if isinstance(value, int) and value in _MODES:
        return _MODES[value]
    raise ValueError(f"ResizeLinear1D: unknown coordinate_transformation_mode "
                     f"{value!r}")


@register("ResizeLinear1D", family="nn", dtypes=FLOATS,
          convert={"size": args.ints,
                   "coordinate_transformation_mode": _coordinate_mode},
          kernels={"numba": resize_kernels.resize_linear1d})
def resize_linear1d(x, size, coordinate_transformation_mode="align_corners"):
    """Linear resize of the last axis (ops.interpolate(mode="linear")).

    Output index i samples i * (in - 1) / (out - 1) ("align_corners",
    code 1), (i + 0.5) * in / out - 0.5 clamped at 0 ("half_pixel", code
    2, what align_corners=False exports) or i * in / out ("asymmetric",
    code 0). Arguments: x (N, C, L); size (one int); the mode. dtypes:
    float16 (computed in float32), float32, float64.
    """
    return resize_linear1d_with(resize, x, size,
                                coordinate_transformation_mode)
