"""TensorShape."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL


@register("TensorShape", family="shape", dtypes=ALL, no_kernel="view")
def tensor_shape(input_x):
    """The shape of input_x as a 1-D int64 tensor (Shape gives a tuple)."""
    return np.array(input_x.shape, dtype=np.int64)
