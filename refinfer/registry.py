"""The op registry: MindIR primitive name -> op definition.

Each op lives in one file under ``refinfer/ops/`` and
registers its NumPy reference function with the :func:`register` decorator.
The reference function's Python signature *is* the op's argument list, in
MindSpore's argument order (Appendix A of docs/mindir-format.md), with the
MindSpore defaults. That one signature serves both primitive conventions:

- PRIMITIVE_FUNCTION nodes pass every argument as a node input, by position;
- PRIMITIVE nodes pass the tensor operands as inputs and the rest as
  attributes on the primitive, matched by name (``attrs`` maps a MindIR
  attribute spelling to the parameter when they differ).

Converters (``convert``) turn every spelling MindIR uses for an argument
(enum codes, strings in any case, 4-tuples) into the one form the kernel
expects, so kernels never see protobuf conventions.

Fast kernels are declared in the same call: ``kernels`` maps a backend
(``"numba"``, ``"cuda"``) to a callable with the reference's signature that
returns the op's result, or ``None`` when it declines its inputs (a dtype,
layout or argument it does not handle). :meth:`OpDef.kernel` wraps that
once: a declined call runs the reference. An elementwise op declares its
``recipe`` (its formula as rows of the elementwise program runner, see
``ops/_kernels/elementwise.py``) instead; the recipe gives its kernels and
lets the fusion pass put the op into a fused chain.
"""
from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import pkgutil
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Container, Sequence

from . import args
from .errors import describe_value
from .stored import StoredWeight

REQUIRED = inspect.Parameter.empty


@dataclass(frozen=True)
class Param:
    """One argument of an op, in MindSpore's order."""
    name: str
    default: Any = REQUIRED
    variadic: bool = False  # *args: takes all remaining node inputs


@dataclass
class OpDef:
    """Everything the interpreter knows about one primitive."""
    name: str
    reference: Callable
    family: str
    dtypes: tuple[str, ...]
    params: tuple[Param, ...]
    attrs: dict[str, str] = field(default_factory=dict)
    convert: dict[str, Callable] = field(default_factory=dict)
    kernels: dict[str, Callable] = field(default_factory=dict)
    recipe: Any = None          # its elementwise program (fusable ops)
    side_effect: bool = False   # runs even when no output depends on it
    no_kernel: str = ""         # why the reference is the fast path (NO_KERNEL_REASONS)
    # the parameter MindSpore writes in place (we return it), or a tuple of
    # several (we return the tuple of their new values, in that order)
    mutates: str | tuple[str, ...] = ""
    operands: tuple[int, ...] = ()  # positions that take a tensor or a number
    # backend -> (kernel, reference, kernel(backend)): made once per pair,
    # shared by every node of the op
    _runners: dict[str, tuple] = field(default_factory=dict, repr=False,
                                       compare=False)

    @property
    def written(self) -> tuple[str, ...]:
        """The parameters the op writes in place (``mutates`` as a tuple)."""
        return _names(self.mutates)

    @property
    def doc(self) -> str:
        return inspect.getdoc(self.reference) or ""

    @property
    def summary(self) -> str:
        return self.doc.splitlines()[0] if self.doc else ""

    @property
    def fast_path(self) -> str:
        """``"numba"`` when the op has a Numba kernel, else the reason its
        reference already is the fast path (a key of NO_KERNEL_REASONS)."""
        return "numba" if "numba" in self.kernels else self.no_kernel

    def kernel(self, backend: str = "reference") -> Callable:
        """The callable for ``backend``: its kernel, running the reference
        where the kernel declines (returns None); the reference where the
        op has no kernel for ``backend``."""
        fast = self.kernels.get(backend)
        if fast is None:
            return self.reference
        made = self._runners.get(backend)
        if made is None or made[0] is not fast or made[1] is not self.reference:
            made = self._runners[backend] = (
                fast, self.reference, _or_reference(fast, self.reference))
        return made[2]


    def check_operands(self, args: Sequence, skip: Container[int] = ()) -> None:
        """A clear TypeError naming the first operand (see ``operands``) in
        ``args`` that is neither a tensor nor a number (a tuple, a monad,
        None: what a corrupt graph passes); positions in ``skip`` are not
        known yet. Asked at build for constants and after a kernel failed,
        never on the way to a kernel."""
        for k in self.operands:
            if k < len(args) and k not in skip and not _is_operand(args[k]):
                raise TypeError(f"{self.name}: {self.params[k].name} must be a "
                                f"tensor or a number, got "
                                f"{describe_value(args[k])}"
                                ) from None     # (the kernel's error it explains)


def _is_operand(value) -> bool:
    import numpy as np
    return isinstance(value, (np.ndarray, np.generic, bool, int, float,
                              StoredWeight))


def _or_reference(fast: Callable, reference: Callable) -> Callable:
    """The one fallback: ``fast``'s result, or the reference's where
    ``fast`` returns None."""
    @functools.wraps(fast)
    def run(*args):
        result = fast(*args)
        return reference(*args) if result is None else result
    return run


# Ops that do no array arithmetic a compiled loop could speed up: their NumPy
# reference is the fast path, and the reason is recorded instead of a kernel.
NO_KERNEL_REASONS = {
    "view": "returns a view or the metadata of its input (no data is touched)",
    "copy": "one bulk memory copy or fill, which NumPy does at memcpy speed",
    "native": "one NumPy C routine (sort, arange, einsum on BLAS) does all of "
              "the work at native speed",
    "vectorised": "whole-array NumPy (broadcasts, gathers, cumulative sums) with no "
                  "Python loop per element; no Numba kernel written yet",
    "scalar": "Python scalar arithmetic (no tensors)",
    "plumbing": "graph plumbing: tuples, lists, monads, closures",
    "communication": "the work is done by the communicator (MPI)",
    "oracle": "an Ascend-only op, run here as a CPU oracle to check Ascend "
              "models against: its NumPy reference, readable first",
}
# Families whose ops compute on tensors: their required arguments without a
# converter are operands (a tensor or a number), except those an op names
# in ``sequences`` (Concat's tuple of tensors, Einsum's equation).
VALUE_FAMILIES = {"activation", "comparison", "elementwise", "nn",
                  "reduction", "shape"}
# Families whose every op has the same reason.
FAMILY_NO_KERNEL = {"scalar": "scalar", "plumbing": "plumbing",
                    "control": "plumbing", "communication": "communication"}

_REGISTRY: dict[str, OpDef] = {}
_loaded = False
# op name -> the module of refinfer.ops that registers it (see module_index)
_MODULES: dict[str, str] = {}


def _params_of(fn: Callable) -> tuple[Param, ...]:
    params = []
    for p in inspect.signature(fn).parameters.values():
        if p.kind is p.VAR_POSITIONAL:
            params.append(Param(p.name, (), variadic=True))
        elif p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            params.append(Param(p.name, p.default))
        else:
            raise TypeError(f"{fn.__qualname__}: parameter {p.name!r} must be "
                            "positional (MindIR binds arguments by position)")
    return tuple(params)


def register(*names: str, family: str, dtypes: tuple[str, ...] = (),
             attrs: dict[str, str] | None = None,
             convert: dict[str, Callable] | None = None,
             kernels: dict[str, Callable] | None = None, recipe: Any = None,
             side_effect: bool = False, no_kernel: str = "",
             mutates: str | tuple[str, ...] = "",
             sequences: tuple[str, ...] = ()):
    """Register a NumPy reference function under one or more primitive names.

    ``family``: coverage-table grouping ("elementwise", "nn", ...).
    ``dtypes``: NumPy dtype names the op supports.
    ``attrs``: PRIMITIVE attribute name -> parameter name, where they differ.
    ``convert``: parameter name -> normaliser applied to that argument.
    ``kernels``: backend -> fast kernel (the reference's signature; returns
    None to decline, and the reference runs).
    ``recipe``: the op's elementwise program recipe; checked against the
    signature here, and the source of the op's kernels that ``kernels``
    does not name.
    ``side_effect``: the op acts beyond its output (communication, printing)
    and must run even when nothing reads its result, e.g. a ``Send`` kept
    alive only by ``Depend``.
    ``no_kernel``: a key of NO_KERNEL_REASONS, for ops that need no Numba
    kernel (defaults by family, FAMILY_NO_KERNEL).
    ``mutates``: the parameter MindSpore's kernel writes in place; ours
    returns the new value instead, and the graph builder makes later
    ``Load``s of that input read it. A tuple names several (ReshapeAndCache's
    two caches): ours returns the tuple of their new values, and a later
    ``Load`` of the k-th reads element k.
    ``sequences``: required parameters of an op of VALUE_FAMILIES that take
    something other than a tensor or a number, unconverted.
    """
    module = sys._getframe(1).f_globals["__name__"]     # the registering file
    no_kernel = no_kernel or FAMILY_NO_KERNEL.get(family, "")
    if no_kernel and no_kernel not in NO_KERNEL_REASONS:
        raise ValueError(f"no_kernel={no_kernel!r}: not one of "
                         f"{sorted(NO_KERNEL_REASONS)}")

    def decorate(fn: Callable) -> Callable:
        params = _params_of(fn)
        known = {p.name for p in params}
        for target in [*(attrs or {}).values(), *(convert or {}),
                       *_names(mutates), *sequences]:
            if target not in known:
                raise TypeError(f"{fn.__qualname__}: no parameter {target!r}")
        fast = dict(kernels or {})
        if recipe is not None:
            recipe.check(fn.__qualname__, len(params))
            fast = {**recipe.kernels(), **fast}
        if no_kernel and fast:
            raise ValueError(f"{fn.__qualname__}: declares kernels and "
                             f"no_kernel={no_kernel!r}")
        for name in names:
            if name in _REGISTRY:
                raise ValueError(f"op {name!r} registered twice")
            _REGISTRY[name] = OpDef(name, fn, family, tuple(dtypes), params,
                                    dict(attrs or {}), _converters(params, convert),
                                    dict(fast), recipe,
                                    side_effect=side_effect,
                                    no_kernel=no_kernel, mutates=mutates,
                                    operands=_operands(family, params,
                                                       convert, sequences))
            _MODULES[name] = module
        return fn
    return decorate


def _converters(params: tuple[Param, ...], convert) -> dict[str, Callable]:
    """``convert``, with ``args.scalar`` (which lets None, an absent
    optional argument, through) made ``args.number`` for each parameter
    that is not optional: there None comes from a corrupt file and would
    fail inside the kernel, naming nothing."""
    optional = {p.name for p in params if p.default is None}
    return {name: args.number if fn is args.scalar and name not in optional
            else fn for name, fn in (convert or {}).items()}


def register_variant(of: str, *names: str, wrap: Callable,
                     mutates: str = "") -> None:
    """Register ``names`` as variants of the op ``of`` (registered already,
    by the same module): its signature, family, dtypes and converters, its
    reference and kernels each wrapped by ``wrap(fn, name)`` (a kernel's
    None still declines). Not fusable: the wrapper is not a recipe. What
    MindSpore's in-place spellings (InplaceMul of Mul, ...) are made of
    (``ops._ref.inplace``)."""
    base = _REGISTRY[of]
    for name in names:
        if name in _REGISTRY:
            raise ValueError(f"op {name!r} registered twice")
        _MODULES[name] = _MODULES.get(of, "")
        _REGISTRY[name] = dataclasses.replace(
            base, name=name, reference=wrap(base.reference, name),
            kernels={k: wrap(fn, name) for k, fn in base.kernels.items()},
            recipe=None, mutates=mutates, _runners={})
        _VARIANTS.append((of, name, wrap))


# (base op, variant, wrap) of every register_variant, for inherit_kernels.
_VARIANTS: list[tuple[str, str, Callable]] = []


def variants() -> list[tuple[str, str]]:
    """(base op, variant) of every op registered by register_variant."""
    load_all()
    return [(of, name) for of, name, _ in _VARIANTS]


def inherit_kernels(backend: str, wraps: dict[Callable, Callable]) -> None:
    """Give each variant without a ``backend`` kernel its base op's, declared
    since (declare_kernels), wrapped by the backend's twin of the variant's
    wrap (``wraps``: the host wrap -> the backend's, which takes that
    backend's arrays); a variant whose wrap has no twin keeps none. Called
    once a backend's tables are loaded; calling it again changes nothing."""
    load_all()
    for of, name, wrap in _VARIANTS:
        kernel, twin = _REGISTRY[of].kernels.get(backend), wraps.get(wrap)
        if kernel is not None and twin is not None \
                and backend not in _REGISTRY[name].kernels:
            _REGISTRY[name].kernels[backend] = twin(kernel, name)


def _names(mutates: str | tuple[str, ...]) -> tuple[str, ...]:
    """``mutates`` as a tuple of parameter names (empty for none)."""
    if isinstance(mutates, str):
        return (mutates,) if mutates else ()
    return tuple(mutates)


def _operands(family: str, params: tuple[Param, ...], convert,
              sequences: tuple[str, ...]) -> tuple[int, ...]:
    """Positions of an op's operands (see VALUE_FAMILIES)."""
    if family not in VALUE_FAMILIES:
        return ()
    return tuple(k for k, p in enumerate(params)
                 if p.default is REQUIRED and not p.variadic
                 and p.name not in (convert or {}) and p.name not in sequences)


def load_all() -> None:
    """Import every module of ``refinfer.ops`` once, filling the registry."""
    global _loaded
    if _loaded:
        return
    package = importlib.import_module("refinfer.ops")
    for info in pkgutil.iter_modules(package.__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"refinfer.ops.{info.name}")
    _loaded = True


def declare_kernels(backend: str, table: dict[str, Callable]) -> None:
    """Add one backend's kernels from a family table of its kernel module
    (primitive name -> kernel with the reference's signature, None to
    decline): how a backend such as ``"cuda"`` slots in without touching
    the op files. A name not registered, or a kernel declared twice, is an
    error here rather than at the first call."""
    load_all()
    unknown = sorted(set(table) - set(_REGISTRY))
    if unknown:
        raise ValueError(f"{backend} kernels for unregistered ops: {unknown}")
    twice = sorted(name for name in table if backend in _REGISTRY[name].kernels)
    if twice:
        raise ValueError(f"{backend} kernels declared twice: {twice}")
    for name, fn in table.items():
        _REGISTRY[name].kernels[backend] = fn


def get_op(name: str) -> OpDef:
    _load(name)
    return _REGISTRY[name]


def has_op(name: str) -> bool:
    _load(name)
    return name in _REGISTRY


def _load(name: str) -> None:
    """Import the module that registers op ``name``, as the index in
    refinfer/ops/_index.py says, rather than all 450: a model's first build
    then imports the dozens of op files it uses (importing all of them took
    0.7 s). A name the index does not know, or that its module did not
    register, loads every module."""
    if _loaded or name in _REGISTRY:
        return
    from .ops._index import OP_MODULES
    if name in OP_MODULES:
        importlib.import_module(f"refinfer.ops.{OP_MODULES[name]}")
    if name not in _REGISTRY:
        load_all()


def module_index() -> dict[str, str]:
    """Op name -> the module of refinfer.ops registering it, sorted: what
    refinfer/ops/_index.py holds (``refinfer ops --index`` writes it)."""
    load_all()
    return {name: _MODULES[name].rsplit(".", 1)[-1] for name in sorted(_MODULES)
            if _MODULES[name].startswith("refinfer.ops.")}


def list_ops() -> list[OpDef]:
    """All registered ops, sorted by primitive name."""
    load_all()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]
