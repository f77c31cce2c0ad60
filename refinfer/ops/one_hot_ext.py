"""OneHotExt."""
from refinfer import args
from refinfer.registry import register

from ._kernels import index
from ._ref.common import ALL
from ._ref.indexing import class_count, one_hot


@register("OneHotExt", family="shape", dtypes=ALL,
          convert={"num_classes": args.scalar, "axis": args.scalar},
          kernels={"numba": index.one_hot_ext})
def one_hot_ext(tensor, num_classes, on_value, off_value, axis=-1):
    """One-hot encoding as mint.nn.functional.one_hot exports it.

    Same as OneHot (see there) with num_classes=-1 meaning max(tensor) + 1
    classes. mint exports on_value 1 and off_value 0 as int64 0-d tensors,
    so the output is int64. MindSpore 2.7.1 has no CPU kernel for it.
    """
    return one_hot(tensor, class_count(tensor, num_classes), on_value,
                   off_value, axis)
