"""MindSpore Lite's Python API (``import refinfer as mslite``)."""
from .context import Context
from .enums import DataType, Format, ModelType
from .model import Model
from .tensor import Tensor, TensorMeta

__all__ = ["Context", "DataType", "Format", "Model", "ModelType", "Tensor",
           "TensorMeta"]
