"""Op kernels, one MindIR primitive per file (installed as ``refinfer.ops``).

Each module registers a NumPy reference with :func:`refinfer.registry.register`
and declares its fast kernels in the same call. ``_ref/`` holds helpers the
references share, ``_kernels/`` the compiled runners (docs/architecture.md).
"""
