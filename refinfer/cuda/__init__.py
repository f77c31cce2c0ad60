"""The ``cuda`` backend: numba.cuda kernels beside the NumPy reference and
the Numba CPU kernels (docs/architecture.md, "The cuda backend").

- ``device.py``: the one module that imports ``numba.cuda`` (a switch to
  ``numba-cuda`` or its successor is one line there), the launch helper and
  the host/device copies.
- ``program.py``: the device runner of the elementwise register programs
  (the op codes of ops/_kernels/program.py).
- ``elementwise.py``: the ``cuda`` kernels of every recipe op, declared in
  one family table (importing it declares them).
- ``layout.py``: the indexing the other runners share (offsets and strides
  of views, broadcasts and reduced axes).
- one module per family of device runners, each declaring its table:
  ``gemm.py`` (matrix products), ``conv.py`` (convolutions), ``reduce.py``
  (reductions and searches), ``norm.py`` (softmax and normalisations),
  ``index.py`` (data movement, Cast), ``movement.py`` (view forms, block
  moves, bands, rolls), ``padding.py`` (mirror and torch-style pads),
  ``scatter.py`` (gathers and scatters by index), ``window.py`` (pools),
  ``logic.py`` (comparisons, logical ops), ``resize.py`` (resizes),
  ``sample.py`` (grid sampling, ROIAlign), ``boxes.py`` (box encoding,
  IOU), ``histogram.py``...
- ``inplace.py``: the device twin of the in-place variants' wrap, through
  which they inherit their base ops' kernels.
- ``plan.py``: the device plan: placement, copy steps, the count of host
  crossings.

Nothing in the CPU path imports this package: ``import numba.cuda`` costs
0.6 s, and only a GPU run needs it. Set ``NUMBA_ENABLE_CUDASIM=1`` before
the first import to run the kernels in numba's CUDA simulator.
"""


def load_kernels() -> None:
    """Import every module of this package once: the kernel tables among
    them declare their ops' cuda kernels (registry.declare_kernels); then
    the variants (in-place spellings) inherit their base ops' kernels."""
    import importlib
    import pkgutil
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
    from refinfer import registry

    from .inplace import WRAPS
    registry.inherit_kernels("cuda", WRAPS)
