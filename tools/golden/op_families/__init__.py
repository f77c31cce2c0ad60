"""Per-op golden case tables, one module per op family (see ../op_cases.py).

Each module defines ``CASES``, a list of ``op_cases.OpCase``; the module name is the
family recorded in meta.json.
"""
