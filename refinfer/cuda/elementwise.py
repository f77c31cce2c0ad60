"""The ``cuda`` kernels of the elementwise ops: one family table built from
the recipes (ops/_kernels/elementwise.py), so every op that declares a
recipe gets its cuda kernel here, none written per op. Importing this
module declares them (``registry.declare_kernels``).

A kernel takes the reference's arguments with every tensor a device array
(the device kernel convention, docs/architecture.md), binds them as the
op's Numba kernel does (:meth:`Recipe.bind`, given host stand-ins of the
device arrays: float32/float64 tensors of one dtype, Python numbers beside
them), runs the op's program on the device (refinfer/cuda/program.py) and
returns the result as a device array; it returns None (the plan then runs
the CPU kernel on host copies) for what the recipe declines. float16
tensors bind as float32 stand-ins: their program is the float32 one,
which the runner computes in float32 registers and rounds to float16 once,
as most references compute float16; the recipes of :data:`HALF_STEPS`,
whose references apply NumPy's operators to float16 arrays, get their
float16 program, each row rounded to float16. Integer and bool tensors run
the recipe's integer form in refinfer/cuda/integer.py, where it has one;
where the reference's result is float32 (Sqrt, Exp, Reciprocal of
integers: its tensors converted to float32 first) they are cast to
float32 on the device and run the float32 program.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from refinfer import registry
from refinfer.ops._kernels.elementwise import (ADD_EXT, ADDCDIV, ADDCMUL,
                                               LOG_SIGMOID, LOG_SIGMOID_BUFFER,
                                               NAN_TO_NUM, RECIPROCAL,
                                               SQUARED_DIFFERENCE,
                                               SUB_EXT, Recipe, program_for,
                                               unary)
from refinfer.ops._kernels.program import OP_HSIGMOID, OP_HSWISH

from . import device, integer, program as _device_program
from .index import cast

# Recipes whose references compute float16 in float16, op by op (their
# parameters converted to float16 too: NanToNum's default bounds are
# float16's largest and lowest).
HALF_STEPS = frozenset({ADD_EXT, SUB_EXT, SQUARED_DIFFERENCE, ADDCMUL, ADDCDIV,
                        NAN_TO_NUM})


# Recipes whose references compute integer tensors in a float dtype and
# truncate the result into theirs (ops/_ref/math.real_or_truncated; Inv's
# 1 / x in float32 cast back): that float dtype.
TRUNCATED = {unary(OP_HSWISH): np.float64, unary(OP_HSIGMOID): np.float64,
             RECIPROCAL: np.float32}


def recipe_kernel(recipe: Recipe, on_integers: Callable | None = None) -> Callable:
    """The cuda kernel of an op whose formula is ``recipe`` (its tensors
    all integer or bool: ``on_integers``)."""
    def run(*args):
        if on_integers is not None and _all_integer(args[:recipe.values]):
            return on_integers(*args)
        bound = bind(recipe, args)
        if bound is None:
            return None
        dtype, pattern, params, tensors = bound
        if recipe in HALF_STEPS and tensors[0].dtype == np.float16:
            dtype = np.dtype(np.float16)
        try:
            program = program_for(recipe, dtype, pattern, params)
        except (TypeError, ValueError):     # an unhashable or odd parameter
            return None
        return None if program is None else _device_program.run(program, tensors)
    return run


def integer_kernel(op) -> Callable:
    """The cuda kernel of recipe op ``op`` for integer and bool tensors:
    its integer form (refinfer/cuda/integer.py), else the float kernel of
    the tensors cast on the device as the reference converts them: to
    float32 where its result (on one-element samples) is float32, to
    the float dtype of :data:`TRUNCATED` for an integer result, the result
    cast back;
    None for other results."""
    on_integers = integer.recipe_kernel(op)
    on_floats = recipe_kernel(op.recipe)

    def run(*args):
        result = None if on_integers is None else on_integers(*args)
        if result is not None:
            return result
        dtype = op.reference(*map(integer.sample, args)).dtype
        work = np.float32 if dtype == np.float32 else \
            TRUNCATED.get(op.recipe) if dtype.kind in "iu" else None
        if work is None:
            return None
        values = [cast(v, work) if device.is_device_array(v) else v
                  for v in args[:op.recipe.values]]
        result = on_floats(*values, *args[op.recipe.values:])
        for made in values:     # (casts made here: no one else reads them)
            if device.is_device_array(made):
                device.release(made)
        if result is None or result.dtype == dtype:
            return result
        truncated = cast(result, dtype)     # (MindSpore's float-to-int rule)
        device.release(result)
        return truncated
    return run


def _all_integer(values) -> bool:
    """Whether the values' device arrays, one at least, are all integer
    or bool."""
    kinds = {v.dtype.kind for v in values if device.is_device_array(v)}
    return bool(kinds) and kinds <= set("biu")


def bind(recipe: Recipe, args: tuple) -> tuple | None:
    """:meth:`Recipe.bind` of arguments whose tensors are device arrays:
    (dtype, pattern, params, device tensors). The recipe binds host
    stand-ins (shape and dtype, no data; a reshape by its ``prepare``, as
    PReLU's weight, reshapes the device array too); a tensor parameter (a
    0-d alpha) is read to the host, as the recipe takes parameters as
    numbers; a NumPy number among the values is a Python number, as the
    references' promotion takes it. None where the recipe declines or
    prepares other tensors."""
    on_device = {}          # id of a stand-in's buffer -> its device array
    host_args = []
    for k, value in enumerate(args):
        if isinstance(value, (np.integer, np.floating)) and k < recipe.values:
            value = value.item()    # (the references promote it as a Python number)
        elif device.is_device_array(value) and k >= recipe.values:
            value = device.to_host(value)
        elif device.is_device_array(value):
            value = device.stand_in(value, _device_program.register_dtype(value.dtype))
            on_device[id(_buffer(value))] = args[k]
        host_args.append(value)
    bound = recipe.bind(tuple(host_args))
    if bound is None:
        return None
    dtype, pattern, params, tensors = bound
    found = [on_device.get(id(_buffer(t))) for t in tensors]
    if any(d is None or d.size != t.size for d, t in zip(found, tensors)):
        return None
    return dtype, pattern, params, [d if d.shape == t.shape else d.reshape(t.shape)
                                    for d, t in zip(found, tensors)]


def _buffer(array: np.ndarray) -> np.ndarray:
    """The array owning ``array``'s memory (the end of its ``base`` chain)."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


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
    table = {op.name: recipe_kernel(op.recipe, integer_kernel(op))
             for op in registry.list_ops() if op.recipe is not None}
    table.update({name: pair_kernel(*recipes)
                  for name, recipes in PAIRS.items()})
    return table


KERNELS = kernel_table()
registry.declare_kernels("cuda", KERNELS)
