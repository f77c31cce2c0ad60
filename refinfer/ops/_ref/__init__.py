"""Helpers shared by the NumPy references: dtype rules, windows, pools,
pads, reductions, searches. Plain NumPy, no compiled code."""
