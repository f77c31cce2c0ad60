"""Op kernels, one MindIR primitive per file (installed as ``refinfer.ops``).

Each module registers a NumPy reference with :func:`refinfer.registry.register`;
fast variants register with :func:`refinfer.registry.register_kernel`.
Modules whose names start with ``_`` hold shared helpers.
"""
