"""MindSpore Lite's Python API (``import refinfer as mslite``)."""
from .context import Context
from .converter import Converter, FmkType
from .enums import DataType, Format, ModelGroupFlag, ModelType
from .group import ModelGroup
from .lite_infer import LiteInfer
from .model import Model
from .multi_model import ModelExecutor, MultiModelRunner
from .parallel import ModelParallelRunner
from .tensor import Tensor, TensorMeta

__all__ = ["Context", "Converter", "DataType", "FmkType", "Format", "LiteInfer",
           "Model", "ModelExecutor", "ModelGroup", "ModelGroupFlag",
           "ModelParallelRunner", "ModelType", "MultiModelRunner", "Tensor",
           "TensorMeta"]
