"""refinfer: a reference interpreter for MindSpore MindIR models.

``import refinfer as mslite`` gives MindSpore Lite's Python API on CPU.
"""
__version__ = "0.1.0"

from .api import (Context, DataType, Format, Model, ModelParallelRunner,
                  ModelType, Tensor, TensorMeta)
from .checkpoint import load_checkpoint

__all__ = ["Context", "DataType", "Format", "Model", "ModelParallelRunner",
           "ModelType", "Tensor", "TensorMeta", "__version__", "load_checkpoint"]
