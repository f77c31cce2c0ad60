"""refinfer: a reference interpreter for MindSpore MindIR models.

``import refinfer as mslite`` gives MindSpore Lite's Python API on CPU.
"""
import os as _os

# In an installed package the kernels sit in refinfer/ops (mapped from the
# checkout's top-level ops/ folder by setup.cfg). When refinfer is imported
# straight from a source checkout, let ``refinfer.ops`` resolve to that folder.
_here = _os.path.dirname(__file__)
if not _os.path.isdir(_os.path.join(_here, "ops")):
    __path__.append(_os.path.dirname(_here))

__version__ = "0.1.0"

from .api import (Context, DataType, Format, Model, ModelParallelRunner,  # noqa: E402
                  ModelType, Tensor, TensorMeta)
from .checkpoint import load_checkpoint  # noqa: E402

__all__ = ["Context", "DataType", "Format", "Model", "ModelParallelRunner",
           "ModelType", "Tensor", "TensorMeta", "__version__", "load_checkpoint"]
