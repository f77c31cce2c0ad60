"""Compiled (Numba) runners by family. Kernel modules never import op
files; op files declare them against their op in one line."""
