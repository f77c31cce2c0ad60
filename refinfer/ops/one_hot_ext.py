"""OneHotExt."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from .one_hot import one_hot


@register("OneHotExt", family="shape", dtypes=ALL,
          convert={"num_classes": args.scalar, "axis": args.scalar})
def one_hot_ext(tensor, num_classes, on_value, off_value, axis=-1):
    """One-hot encoding as mint.nn.functional.one_hot exports it.

    Same as OneHot (see there) with num_classes=-1 meaning max(tensor) + 1
    classes. mint exports on_value 1 and off_value 0 as int64 0-d tensors,
    so the output is int64. MindSpore 2.7.1 has no CPU kernel for it.
    """
    return one_hot(tensor, class_count(tensor, num_classes), on_value,
                   off_value, axis)


def class_count(tensor, num_classes) -> int:
    """num_classes, or max(tensor) + 1 for -1."""
    num_classes = int(num_classes)
    if num_classes == -1:
        return int(tensor.max()) + 1 if tensor.size else 0
    return num_classes


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import index as _fast_index  # noqa: E402


@register_kernel("OneHotExt", "numba")
def one_hot_ext_numba(tensor, num_classes, on_value, off_value, axis=-1):
    """OneHotExt in one pass (``_fast_index.one_hot``) for int32/int64
    indices; small or odd cases through the reference."""
    out = _fast_index.one_hot(tensor, class_count(tensor, num_classes), on_value,
                              off_value, int(axis))
    if out is None:
        return one_hot_ext(tensor, num_classes, on_value, off_value, axis)
    return out
