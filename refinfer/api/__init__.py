"""MindSpore Lite's Python API (``import refinfer as mslite``)."""
from .context import Context
from .enums import DataType, Format, ModelType
from .model import Model
from .parallel import ModelParallelRunner
from .tensor import Tensor, TensorMeta

__all__ = ["Context", "DataType", "Format", "Model", "ModelParallelRunner",
           "ModelType", "Tensor", "TensorMeta"]
