"""The ``cuda`` kernels of the elementwise ops: one family table built from
the recipes (ops/_kernels/elementwise.py), so every op that declares a
recipe gets its cuda kernel here, none written per op. Importing this
module declares them (``registry.declare_kernels``).

A kernel takes the reference's arguments (host NumPy arrays), binds them
as the op's Numba kernel does (:meth:`Recipe.bind`: float32/float64
tensors of one dtype, Python numbers beside them), runs the op's program
on the device (refinfer/cuda/program.py) and copies the result back; it
returns None, and the reference runs, for what the recipe declines.
Device-resident plans (no copy per op) come with the GPU target.
"""
from __future__ import annotations

from typing import Callable

from refinfer import registry
from refinfer.ops._kernels.elementwise import (LOG_SIGMOID, LOG_SIGMOID_BUFFER,
                                               Recipe, program_for)

from . import program as _device_program


def recipe_kernel(recipe: Recipe) -> Callable:
    """The cuda kernel of an op whose formula is ``recipe``."""
    def run(*args):
        bound = recipe.bind(args)
        if bound is None:
            return None
        dtype, pattern, params, tensors = bound
        try:
            program = program_for(recipe, dtype, pattern, params)
        except (TypeError, ValueError):     # an unhashable or odd parameter
            return None
        return None if program is None else _device_program.run(program, tensors)
    return run


def pair_kernel(first: Recipe, second: Recipe) -> Callable:
    """The cuda kernel of an op returning the pair of two recipes' results
    (LogSigmoid: y and its buffer)."""
    run_first, run_second = recipe_kernel(first), recipe_kernel(second)

    def run(*args):
        y = run_first(*args)
        return None if y is None else (y, run_second(*args))
    return run


# Ops whose reference returns a pair: the recipes of its two results.
PAIRS = {"LogSigmoid": (LOG_SIGMOID, LOG_SIGMOID_BUFFER)}


def kernel_table() -> dict[str, Callable]:
    """Primitive name -> cuda kernel, for every op that declares a recipe."""
    table = {op.name: recipe_kernel(op.recipe) for op in registry.list_ops()
             if op.recipe is not None}
    table.update({name: pair_kernel(*recipes)
                  for name, recipes in PAIRS.items()})
    return table


KERNELS = kernel_table()
registry.declare_kernels("cuda", KERNELS)
