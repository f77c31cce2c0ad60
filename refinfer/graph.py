"""Our graph IR, built from a read MindIR file.

What happens here, once per model:
- names are resolved through one model-wide table (constants are defined
  once in whichever graph used them first; weights and nodes of other graphs
  may be referenced from sub-graphs);
- monad plumbing disappears: ``Load(x, U)`` and ``Depend(x, ...)`` are
  aliases of ``x``, ``UpdateState`` is the monad token, and trailing monad
  arguments are stripped from primitive applications (not from Partial's:
  they are arguments of the bound graph, which declares its monad inputs);
- ops that write an input in place (``registry.OpDef.mutates``) are run
  as functions: a ``Load(x, U)`` whose state ``U`` comes after such an op
  on ``x``, or a ``Depend(x, op)``, reads that op's result (element k of it
  when the op writes several inputs and ``x`` is its k-th);
- each primitive application binds its arguments to the op's signature, from
  node inputs (PRIMITIVE_FUNCTION) or inputs + attributes (PRIMITIVE), and
  constant arguments are normalised by the op's converters;
- each graph is cut to the nodes its output needs and put in topological
  order (file order is not trusted);
- a cycle of direct graph calls (a graph that applies itself, or graphs that
  apply each other, by name) is rejected: every node of a graph runs, so
  such calls never end (loops call their body through Switch and Partial);
- every primitive the model needs is checked against the registry, and all
  missing ones are reported together.
"""
from __future__ import annotations

import functools
import inspect
from itertools import chain
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Iterator, NoReturn, Sequence

from . import registry
from .errors import (SHOWN_VALUES, GraphError, UnsupportedOpsError,
                     describe_value)
from .format.reader import MindIRFile, RawGraph, RawNode, Undecodable, ValueInfo
from .format.values import MONAD, Abstract
from .out_of_scope import out_of_scope

ALIAS_OPS = {"Load", "Depend"}       # value = first input
TOKEN_OPS = {"UpdateState"}          # value = the monad token
ALIAS_AND_TOKEN_OPS = ALIAS_OPS | TOKEN_OPS
# Ops whose arguments are a graph's arguments, monads included: Partial
# binds the leading inputs of a branch or loop graph, which declares its
# UMonad input like any other.
GRAPH_ARGUMENT_OPS = {"Partial"}


class RefKind(str, Enum):
    """What a :class:`Ref` points at. A ``str`` enum: each member equals its
    value, so ``Ref("node", name)`` and ``Ref(RefKind.NODE, name)`` are one."""
    NODE = "node"       # key: the name of a node of this graph
    INPUT = "input"     # key: the index of a graph input
    FREE = "free"       # key: the name of a node of an enclosing graph
    CONST = "const"     # key: the constant value itself
    GRAPH = "graph"     # key: the name of a graph used as a value
    ALIAS = "alias"     # key: another name (only while names are resolved)

    def __str__(self) -> str:
        return self.value


class _Immutable:
    """Slotted and immutable, as a frozen dataclass is, but made in half
    its time (a frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``): a graph holds a Ref and an Arg per node, a
    million-node graph millions. Equal and hashed by its fields' tuple."""
    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot "
                             f"set {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot "
                             f"delete {name!r}")

    def _fields(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple:       # (copies and pickles)
        return type(self), self._fields()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(" + ", ".join(
            f"{name}={getattr(self, name)!r}" for name in self.__slots__) + ")"


class Ref(_Immutable):
    """Where an argument comes from (see :class:`RefKind`)."""
    __slots__ = ("kind", "key")
    kind: RefKind
    key: Any

    def __init__(self, kind: RefKind | str, key: Any):
        if type(kind) is not RefKind:       # a kind given by its name
            kind = RefKind(kind)
        _set_kind(self, kind)
        _set_key(self, key)

    @property
    def is_monad(self) -> bool:
        return self.kind is RefKind.CONST and self.key is MONAD


class Arg(_Immutable):
    """A bound op argument; ``convert`` is applied at run time (constants
    are converted while binding)."""
    __slots__ = ("ref", "convert")
    ref: Ref
    convert: Callable | None

    def __init__(self, ref: Ref, convert: Callable | None = None):
        _set_ref(self, ref)
        _set_convert(self, convert)


# the slots' own setters: what ``__init__`` uses, past ``__setattr__``
_set_kind, _set_key = Ref.kind.__set__, Ref.key.__set__
_set_ref, _set_convert = Arg.ref.__set__, Arg.convert.__set__
_NOT_PLAIN = None, None     # (op, arity) of a target not known to be plain


@dataclass(slots=True)
class Node:
    name: str
    scope: str
    op: registry.OpDef | None      # None for graph / closure calls
    args: Sequence[Arg]            # a tuple when built from a file (a
                                   # list takes a third more memory)
    callee: Ref | None = None      # for calls: a ``graph`` or value ref
    abstract: Abstract | None = None

    @property
    def op_name(self) -> str:
        if self.op is not None:
            return self.op.name
        if self.callee.kind is RefKind.GRAPH:
            return f"call {self.callee.key}"
        return "call"


@dataclass
class Graph:
    name: str
    inputs: list[ValueInfo]
    nodes: list[Node]
    output: Ref
    output_info: ValueInfo
    free_vars: list[str] = field(default_factory=list)


@dataclass
class Model:
    path: str
    graphs: dict[str, Graph]
    main: Graph
    user_info: dict[str, str]


def build_model(mindir: MindIRFile) -> Model:
    """Resolve, bind, prune and order every graph of ``mindir``."""
    symbols = _Symbols(mindir)
    builders = {raw.name: _GraphBuilder(raw, symbols) for raw in mindir.graphs}
    symbols.builders = builders
    try:
        return _build(mindir, symbols, builders)
    finally:
        # builders and symbols refer to each other: a cycle, which only the
        # cycle collector (paused during a build) would free, holding the
        # builders' tables (several entries per node) through the plan
        symbols.builders = {}


def _build(mindir: MindIRFile, symbols: "_Symbols",
           builders: dict[str, "_GraphBuilder"]) -> Model:
    for builder in builders.values():
        builder.plan_aliases()
    for builder in builders.values():
        builder.bind_nodes()
    if symbols.missing:
        raise UnsupportedOpsError(mindir.path, symbols.missing, {
            name: out_of_scope(name) for name in symbols.missing
            if out_of_scope(name)})
    free_vars = _free_vars(builders)
    graphs = {name: b.finish(free_vars) for name, b in builders.items()}
    main = graphs[mindir.main.name]
    if main.free_vars:
        raise GraphError(mindir.path, "the main graph uses undefined names: "
                         + ", ".join(main.free_vars))
    reachable = _reachable({name: b.refs(RefKind.GRAPH)
                            for name, b in builders.items()}, main.name)
    cycle = _direct_call_cycle(graphs, reachable)
    if cycle:
        raise GraphError(mindir.path, _endless_calls_message(cycle))
    return Model(mindir.path, graphs, main, mindir.user_info)


class _Symbols:
    """The model-wide name table."""

    def __init__(self, mindir: MindIRFile):
        self.path = mindir.path
        self.primitive_of = mindir.primitive_of
        self.primitives = mindir.primitives     # by id, the nodes' targets
        self.graph_names = {g.name for g in mindir.graphs}
        self.graphs = mindir.graphs
        self.constants: dict[str, Any] = {}
        for g in mindir.graphs:
            self.constants.update(g.constants)
            self.constants.update(g.parameters)
        self.builders: dict[str, _GraphBuilder] = {}
        self.missing: dict[str, list[str]] = {}
        self.applications: dict[str, _Application] = {}    # by primitive id
        # (op, arity) of the plain ones (see _Application.plain), by the
        # nodes' target
        self.plain_uses: dict[str, tuple[registry.OpDef, int]] = {}

    def error(self, message: str) -> GraphError:
        return GraphError(self.path, message)

    @functools.cached_property
    def owner(self) -> dict[str, str]:
        """Node or input name -> its graph. Made at the first name that is
        not its graph's own (a free variable, or an undefined name): a
        graph without them never needs this table of every name."""
        owner: dict[str, str] = {}
        for g in self.graphs:
            owner.update(dict.fromkeys((n.name for n in g.nodes), g.name))
            owner.update(dict.fromkeys((i.name for i in g.inputs), g.name))
        return owner

    def application(self, prim) -> "_Application":
        """What applying ``prim`` takes, found at its first node: a long
        graph applies one primitive many times (a million in a chain)."""
        use = self.applications.get(prim.name)
        if use is None:
            use = self.applications[prim.name] = _Application.of(prim)
        return use


@dataclass(frozen=True, slots=True)
class _Application:
    """A primitive's op as the graph builder applies it."""
    op_name: str
    op: registry.OpDef | None       # None: no such op (reported missing)
    keeps_monads: bool              # trailing monads are arguments (Partial)
    # Each parameter's converter (or None), when every parameter is a
    # plain positional one: a node with as many inputs binds input k to
    # parameter k. None for an op with a variadic parameter.
    converters: tuple[Callable | None, ...] | None
    plain: bool             # converters, all None: computed inputs bind as
                            # they are (most nodes: Add, MatMul, ReLU...)

    @property
    def arity(self) -> int | None:
        """The op's parameters, when each binds one input (see converters)."""
        return None if self.converters is None else len(self.converters)

    @classmethod
    def of(cls, prim) -> "_Application":
        op_name = prim.op_name
        op = registry.get_op(op_name) if registry.has_op(op_name) else None
        converters = None
        if op is not None and not any(p.variadic for p in op.params):
            converters = tuple(op.convert.get(p.name) for p in op.params)
        plain = converters is not None and all(c is None for c in converters)
        return cls(op_name, op, op_name in GRAPH_ARGUMENT_OPS, converters, plain)


class _GraphBuilder:
    def __init__(self, raw: RawGraph, symbols: _Symbols):
        self.raw, self.symbols = raw, symbols
        self.inputs = {info.name: i for i, info in enumerate(raw.inputs)}
        self.aliases: dict[str, Ref] = {}
        # Load name -> (writer, k): the load reads element k of the writer's
        # result (an op that writes several inputs in place)
        self.elements: dict[str, tuple[str, int]] = {}
        self.nodes: dict[str, Node] = {}
        # One plain Arg (and its Ref) per node name, shared by every reader:
        # both are immutable, and a long graph would make one of each per
        # read, millions in a million-node graph.
        self.node_args: dict[str, Arg] = {}
        self._outer_refs: dict[RefKind, set] | None = None     # see refs

    @functools.cached_property
    def raw_nodes(self) -> dict[str, RawNode]:
        """The graph's nodes by name. Made at the first question a bound
        node cannot answer: a graph of plain nodes never needs this table
        of every node."""
        return {n.name: n for n in self.raw.nodes}

    def plan_aliases(self) -> None:
        # only the Loads and Depends can read an in-place write: the
        # second walk, which needs every alias planned, looks at them alone
        primitives, readers = self.symbols.primitives, []
        for raw in self.raw.nodes:      # (most nodes apply no alias op: a
            prim = primitives.get(raw.target)   # plain loop, no call for them)
            if prim is not None and prim.op_type in ALIAS_AND_TOKEN_OPS \
                    and self._plan_alias(raw, prim):
                readers.append(raw)
        for raw in readers:
            self._read_after_in_place_write(raw)

    def bind_nodes(self) -> None:
        nodes, elements, aliases = self.nodes, self.elements, self.aliases
        plain, read = self.symbols.plain_uses, self.node_args.get
        for raw in self.raw.nodes:
            name = raw.name
            if name in elements:
                nodes[name] = self._element(raw, *elements[name])
                continue
            if name in aliases:
                continue
            # Most nodes apply a plain primitive seen before to values of
            # nodes bound before (a file in order): bound here, in one
            # step; ``_node`` binds the others.
            op, arity = plain.get(raw.target, _NOT_PLAIN)
            args = tuple(map(read, raw.inputs)) if len(raw.inputs) == arity else None
            # (a name not bound yet reads None; an Arg is true, and
            # ``None in args`` would call Arg.__eq__ for each)
            if args is None or not all(args):
                nodes[name] = self._node(raw)
            else:
                nodes[name] = Node(name, raw.scope, op, args, None, raw.abstract)
            self.plain_arg_of(name)     # (its readers come next)
        self.output = self.resolve(self.raw.output.name)

    def refs(self, kind: RefKind) -> set:
        """Keys of every ``kind`` reference (``GRAPH`` or ``FREE``) made by
        any node or the output. Asked several times per graph: collected
        for both kinds in one walk, after the nodes are bound."""
        if self._outer_refs is None:
            graphs, frees = set(), set()
            graph_kind, free_kind = RefKind.GRAPH, RefKind.FREE     # (found once)
            for args in chain(map(all_args, self.nodes.values()),
                              [(Arg(self.output),)]):
                for arg in args:
                    ref = arg.ref
                    if ref.kind is graph_kind:
                        graphs.add(ref.key)
                    elif ref.kind is free_kind:
                        frees.add(ref.key)
            self._outer_refs = {RefKind.GRAPH: graphs, RefKind.FREE: frees}
        return self._outer_refs[kind]

    def finish(self, free_vars: dict[str, set]) -> Graph:
        """Prune and order. Roots: side-effecting nodes (in file order), the
        output, and nodes that called graphs read as free variables."""
        needed_by_callees = set().union(
            *(free_vars[g] for g in self.refs(RefKind.GRAPH)))
        effects = [Ref(RefKind.NODE, name) for name, node in self.nodes.items()
                   if node.op is not None and node.op.side_effect]
        roots = effects + [self.output] + [Ref(RefKind.NODE, n) for n in
                                           sorted(needed_by_callees
                                                  & self.nodes.keys())]
        return Graph(self.raw.name, self.raw.inputs, self._topological(roots),
                     self.output, self.raw.output, sorted(free_vars[self.raw.name]))

    # -- names -------------------------------------------------------------
    def _plan_alias(self, raw: RawNode, prim) -> bool:
        """Record ``raw``, which applies ``prim``, as an alias if it is one;
        whether it is a Load or a Depend (an alias of its first input)."""
        if prim.op_type in ALIAS_OPS and raw.inputs:
            self.aliases[raw.name] = Ref(RefKind.ALIAS, raw.inputs[0])
            return True
        if prim.op_type in TOKEN_OPS:
            self.aliases[raw.name] = Ref(RefKind.CONST, MONAD)
        return False

    def _read_after_in_place_write(self, raw: RawNode) -> None:
        """``Load(x, U)``: if the state ``U`` was last updated by an op that
        wrote ``x`` in place (walking U's UpdateState chain back), the load
        reads that op's result, which our kernels return instead (element k
        of it when ``x`` is the k-th of several inputs the op writes).
        ``Depend(x, w)``, ``w`` such an op on ``x``, reads it the same way:
        MindSpore's ``ops.depend(param, write)`` is the parameter after it."""
        prim = self.symbols.primitive_of(raw)
        if prim is None or len(raw.inputs) < 2:
            return
        if prim.op_type == "Load":
            writers = self._state_updates(raw.inputs[1])
        elif prim.op_type == "Depend":
            writers = reversed(raw.inputs[1:])
        else:
            return
        source = self.resolve(raw.inputs[0])
        for value in writers:
            written = self._written_in_place(value, source)
            if written is None:
                continue
            op, k = written
            if isinstance(op.mutates, str):
                self.aliases[raw.name] = Ref(RefKind.ALIAS, value)
            else:       # a node of its own now, no alias of x
                del self.aliases[raw.name]
                self.elements[raw.name] = (value, k)
            return

    def _state_updates(self, state: str) -> Iterator[str]:
        """What the UpdateState chain ending at ``state`` recorded, latest
        first."""
        seen = set()
        while state in self.raw_nodes and state not in seen:
            seen.add(state)
            update = self.raw_nodes[state]
            update_prim = self.symbols.primitive_of(update)
            if update_prim is None or update_prim.op_type not in TOKEN_OPS:
                return
            yield from reversed(update.inputs[1:])
            state = update.inputs[0] if update.inputs else None

    def _written_in_place(self, name: str,
                          source: Ref) -> tuple[registry.OpDef, int] | None:
        """(op, k) when node ``name`` applies an op that writes ``source``
        in place as its k-th written parameter (``OpDef.written``)."""
        raw = self.raw_nodes.get(name)
        prim = raw and self.symbols.primitive_of(raw)
        op_name = prim.op_name if prim else ""
        if not registry.has_op(op_name) or not registry.get_op(op_name).mutates:
            return None
        op = registry.get_op(op_name)
        positions = [p.name for p in op.params]
        for k, param in enumerate(op.written):
            index = positions.index(param)
            if index < len(raw.inputs) and _same(self.resolve(raw.inputs[index]),
                                                 source):
                return op, k
        return None

    def resolve(self, name: str) -> Ref:
        """The source of the value called ``name`` in this graph."""
        if name in self.aliases:
            ref = self._unaliased(name)
            if ref.kind is not RefKind.ALIAS:
                return ref
            name = ref.key
        # (a node bound already is found without the table of all nodes)
        if name in self.node_args or name in self.raw_nodes:
            return self.plain_arg_of(name).ref
        if name in self.inputs:
            info = self.raw.inputs[self.inputs[name]]
            return Ref(RefKind.CONST, MONAD) if info.is_monad \
                else Ref(RefKind.INPUT, self.inputs[name])
        if name in self.symbols.constants:
            return Ref(RefKind.CONST, self.symbols.constants[name])
        if name in self.symbols.graph_names:
            return Ref(RefKind.GRAPH, name)
        if name in self.symbols.owner:
            return self._outer(name)
        raise self.symbols.error(f"graph {self.raw.name!r} uses undefined "
                                 f"name {name!r} (is the file truncated?)")

    def _unaliased(self, name: str) -> Ref:
        """Where the alias chain from ``name`` ends: a ref, or an ``ALIAS``
        ref to the first name that is no alias."""
        seen = set()
        while name in self.aliases:
            if name in seen:
                raise self.symbols.error(f"alias cycle through {name!r}")
            seen.add(name)
            ref = self.aliases[name]
            if ref.kind is not RefKind.ALIAS:
                return ref
            name = ref.key
        return Ref(RefKind.ALIAS, name)

    def _outer(self, name: str) -> Ref:
        """A value of another (enclosing) graph, read as a free variable."""
        owner = self.symbols.builders[self.symbols.owner[name]]
        if owner is self:       # its own name, yet not defined here
            raise self.symbols.error(f"graph {self.raw.name!r} cannot "
                                     f"resolve its own name {name!r}")
        ref = owner.resolve(name)
        if ref.kind in (RefKind.CONST, RefKind.GRAPH, RefKind.FREE):
            return ref
        return Ref(RefKind.FREE, ref.key if ref.kind is RefKind.NODE else name)

    def plain_arg_of(self, name: str) -> Arg:
        """The shared plain argument reading node ``name`` of this graph."""
        arg = self.node_args.get(name)
        if arg is None:
            arg = self.node_args[name] = Arg(Ref(RefKind.NODE, name))
        return arg

    def plain_arg(self, ref: Ref) -> Arg:
        """An argument reading ``ref`` as it is (shared for node refs)."""
        return self.plain_arg_of(ref.key) if ref.kind is RefKind.NODE \
            else Arg(ref)

    @property
    def local_names(self) -> set[str]:
        return self.nodes.keys() | self.inputs.keys()

    # -- nodes -------------------------------------------------------------
    def _node(self, raw: RawNode) -> Node:
        target = raw.target
        if target is None:
            raise self.symbols.error(
                f"node {raw.name!r} has op_type {raw.op_type!r}: MindIR 1.x "
                "(legacy) node encoding is not supported")
        args, constant_input = self._input_args(raw.inputs)
        prim = self.symbols.primitives.get(target)
        if prim is not None:
            return self._apply(raw, prim, args, constant_input)
        if target in self.symbols.graph_names:
            callee = Ref(RefKind.GRAPH, target)
        elif target in self.raw_nodes or target in self.aliases:
            callee = self.resolve(target)
        else:
            raise self.symbols.error(f"node {raw.name!r} applies unknown "
                                     f"{target!r} (no such primitive, graph "
                                     "or node; is the file truncated?)")
        return Node(raw.name, raw.scope, None, tuple(args), callee, raw.abstract)

    def _input_args(self, names: tuple[str, ...]) -> tuple[list[Arg], bool]:
        """The plain arguments reading ``names``, and whether any of them is
        a constant. (A name with a shared argument is no alias:
        ``plain_arg_of`` is given names past their aliases, and every alias
        is known before the first name is resolved.)"""
        shared, args, constant = self.node_args, [], False
        for name in names:
            arg = shared.get(name)
            if arg is None:
                arg = self._input_arg(name)
                constant = constant or arg.ref.kind is RefKind.CONST
            args.append(arg)
        return args, constant

    def _input_arg(self, name: str) -> Arg:
        """``plain_arg(resolve(name))``: the shared argument when ``name``
        is a node of this graph (most inputs are), without the detour."""
        if name not in self.aliases and name in self.raw_nodes:
            return self.plain_arg_of(name)
        return self.plain_arg(self.resolve(name))

    def _element(self, raw: RawNode, writer: str, k: int) -> Node:
        """A ``Load`` that reads element ``k`` of ``writer``'s result."""
        getter = registry.get_op("TupleGetItem")
        args = _bind(getter, None, [self.resolve(writer), Ref(RefKind.CONST, k)],
                     self.plain_arg)
        return Node(raw.name, raw.scope, getter, tuple(args), None, raw.abstract)

    def _apply(self, raw: RawNode, prim, args: list[Arg],
               constant_input: bool) -> Node:
        """The node applying ``prim`` to ``args`` (plain arguments; whether
        any is a constant)."""
        use = self.symbols.application(prim)
        op, op_name = use.op, use.op_name
        if use.plain and not constant_input and len(args) == use.arity:
            # what the binding below gives most nodes, without its checks:
            # every input computed, none converted
            self.symbols.plain_uses[raw.target] = op, use.arity
            return Node(raw.name, raw.scope, op, tuple(args), None, raw.abstract)
        # monads are constants: most nodes read none, and skip the monad
        # work and the operand check
        while constant_input and args and args[-1].ref.is_monad \
                and not use.keeps_monads:
            args.pop()
        if op is None:
            self.symbols.missing.setdefault(op_name, []).append(
                raw.scope or raw.name)
            return Node(raw.name, raw.scope, None, tuple(args),
                        Ref(RefKind.CONST, None), raw.abstract)
        if constant_input and op.family in registry.VALUE_FAMILIES:
            monad = next((k for k, a in enumerate(args) if a.ref.is_monad),
                         None)
            if monad is not None:
                raise self.symbols.error(
                    f"node {raw.name!r} (op {op_name}, scope {raw.scope!r}): "
                    f"input {monad} is a state monad, not a value (a corrupt "
                    f"graph)")
        try:
            if use.converters is not None and len(args) == len(use.converters):
                # every parameter from its input: ``_bind``'s result, made
                # without asking the op's signature again for each node
                bound = [a if convert is None else _arg(param.name, a.ref, convert)
                         for a, convert, param in zip(args, use.converters,
                                                      op.params)]
            else:
                bound = _bind(op, prim, [a.ref for a in args], self.plain_arg)
                constant_input = True   # attributes and defaults are constants
            # only constants can be checked now (most operands are computed)
            if constant_input and any(bound[k].ref.kind is RefKind.CONST
                                      for k in op.operands if k < len(bound)):
                op.check_operands([a.ref.key for a in bound],
                                  skip={k for k, a in enumerate(bound)
                                        if a.ref.kind is not RefKind.CONST})
        except (TypeError, ValueError) as exc:
            raise self.symbols.error(
                f"node {raw.name!r} (op {op_name}, scope {raw.scope!r}): "
                f"{exc}") from exc
        return Node(raw.name, raw.scope, op, tuple(bound), None, raw.abstract)

    def _topological(self, roots: list[Ref]) -> list[Node]:
        """Nodes the roots depend on, producers first: in file order where
        the file has every producer before its readers (what exporters
        write), else in a depth-first post-order."""
        order = self._needed_in_file_order(roots)
        return self._depth_first(roots) if order is None else order

    def _needed_in_file_order(self, roots: list[Ref]) -> list[Node] | None:
        """The nodes the roots depend on, in file order; None when a node
        reads one written after it (or itself). One backward walk: a node
        is needed when a root or a needed node after it reads it, so the
        set of names still awaited stays as small as the values alive at
        once (a name awaited at the end lies after its reader)."""
        node_kind = RefKind.NODE        # (found once)
        awaited = {r.key for r in roots if r.kind is node_kind}
        needed = []
        for name, node in reversed(self.nodes.items()):
            if name not in awaited:
                continue
            awaited.remove(name)
            needed.append(node)
            for arg in all_args(node):
                if arg.ref.kind is node_kind:
                    awaited.add(arg.ref.key)
        if awaited:
            return None
        needed.reverse()
        return needed

    def _depth_first(self, roots: list[Ref]) -> list[Node]:
        """Nodes the roots depend on, producers first (a depth-first
        post-order, first argument first). Iterative: graphs can be very
        deep. The stack holds a name and an iterator over the node's
        arguments per level, about 100 bytes: a chain is as deep as it is
        long (a generator per level took 800)."""
        order, done, path = [], set(), set()
        nodes, node_kind = self.nodes, RefKind.NODE     # (found once)
        for root in (r.key for r in roots if r.kind is node_kind):
            if root in done:
                continue
            path.add(root)
            names, pending = [root], [iter(all_args(nodes[root]))]
            while names:
                for arg in pending[-1]:
                    ref = arg.ref
                    producer = ref.key
                    if ref.kind is not node_kind or producer in done:
                        continue
                    if producer in path:
                        raise self.symbols.error(
                            f"graph {self.raw.name!r} has a cycle through "
                            f"{producer!r}")
                    path.add(producer)
                    names.append(producer)
                    pending.append(iter(all_args(nodes[producer])))
                    break
                else:       # every producer done: the node is next
                    name = names.pop()
                    pending.pop()
                    path.discard(name)
                    done.add(name)
                    order.append(nodes[name])
        return order



def _same(one: Ref, other: Ref) -> bool:
    """Whether two refs name one value: a constant (a weight) by identity,
    as ``==`` on two arrays compares their elements."""
    if one.kind is RefKind.CONST or other.kind is RefKind.CONST:
        return one.kind is other.kind and one.key is other.key
    return one == other


def _bind(op: registry.OpDef, prim, args: list[Ref],
          plain: Callable[[Ref], Arg] = Arg) -> list[Arg]:
    """Bind node inputs (and PRIMITIVE attributes) to ``op``'s parameters;
    ``plain(ref)`` gives an argument without converter."""
    bound: list[Arg] = []
    for i, param in enumerate(op.params):
        convert = op.convert.get(param.name)
        if param.variadic:
            bound.extend(_arg(param.name, a, convert, plain) for a in args[i:])
            return bound
        if i < len(args):
            bound.append(_arg(param.name, args[i], convert, plain))
            continue
        value = _attribute(op, prim, param.name)
        if value is inspect.Parameter.empty:
            value = param.default
        if value is inspect.Parameter.empty:
            raise TypeError(f"missing argument {param.name!r} (got "
                            f"{len(args)} inputs, no attribute)")
        bound.append(_arg(param.name, Ref(RefKind.CONST, value), convert))
    if len(args) > len(op.params):
        raise TypeError(f"{len(args)} inputs given, {op.name} takes at most "
                        f"{len(op.params)}")
    return bound


def _attribute(op: registry.OpDef, prim, param: str):
    if prim.is_function and not prim.attrs:
        return inspect.Parameter.empty
    names = [param] + [a for a, p in op.attrs.items() if p == param]
    for name in names:
        if name in prim.attrs:
            value = prim.attrs[name]
            if isinstance(value, Undecodable):
                raise ValueError(f"attribute {name!r}: {value.reason}")
            return value
    return inspect.Parameter.empty


def _arg(name: str, ref: Ref, convert: Callable | None,
         plain: Callable[[Ref], Arg] = Arg) -> Arg:
    """Parameter ``name``'s argument, a constant converted here."""
    if convert is None:
        return plain(ref)
    if ref.kind is RefKind.CONST:
        try:
            return Arg(Ref(RefKind.CONST, convert(ref.key)))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"bad constant argument {name!r} "
                             f"{describe_value(ref.key, SHOWN_VALUES)}: {exc}") from exc
    return Arg(ref, convert)


def all_args(node: Node) -> Sequence[Arg]:
    """The node's arguments, its callee read as one more."""
    return node.args if node.callee is None else (*node.args, Arg(node.callee))


def _free_vars(builders: dict[str, "_GraphBuilder"]) -> dict[str, set]:
    """Names of other graphs' nodes each graph reads. A graph that uses
    (calls or passes) another graph also needs that graph's free variables,
    unless it defines them itself."""
    free = {name: b.refs(RefKind.FREE) for name, b in builders.items()}
    uses = {name: b.refs(RefKind.GRAPH) for name, b in builders.items()}
    changed = True
    while changed:
        changed = False
        for name, b in builders.items():
            needed = set(free[name])
            for used in uses[name]:
                needed |= free[used] - b.local_names
            if needed != free[name]:
                free[name], changed = needed, True
    return free


def _reachable(uses: dict[str, set], main: str) -> list[str]:
    """The graphs ``main`` uses (calls or passes), directly or not, main first."""
    order, seen, todo = [main], {main}, [main]
    while todo:
        for used in sorted(uses[todo.pop()] - seen):
            seen.add(used)
            order.append(used)
            todo.append(used)
    return order


def _direct_calls(graph: Graph) -> list[tuple[str, str]]:
    """(callee, node) for each node of ``graph`` that applies a graph by name;
    a call through a value (a Switch's choice, a Partial) is not direct."""
    return [(node.callee.key, node.name) for node in graph.nodes
            if node.op is None and node.callee.kind is RefKind.GRAPH]


Link = tuple[str, str, str]         # (graph, its calling node, callee graph)


def _direct_call_cycle(graphs: dict[str, Graph],
                       names: list[str]) -> list[Link] | None:
    """A cycle of direct calls among the graphs ``names``, as links from one
    graph to the next, or None. Depth-first without recursion: a chain of
    graphs may be longer than Python's recursion limit."""
    calls = {name: _direct_calls(graphs[name]) for name in names}
    done: set[str] = set()
    for root in names:
        if root in done:
            continue
        depth_of, path, todo = {root: 0}, [], [iter(calls[root])]
        while todo:
            graph = path[-1][2] if path else root
            callee, node = next(todo[-1], (None, None))
            if callee is None:          # every call of ``graph`` explored
                todo.pop()
                done.add(graph)
                del depth_of[graph]
                if path:
                    path.pop()
            elif callee in depth_of:
                return path[depth_of[callee]:] + [(graph, node, callee)]
            elif callee not in done and callee in calls:
                depth_of[callee] = len(path) + 1
                path.append((graph, node, callee))
                todo.append(iter(calls[callee]))
    return None


def _endless_calls_message(cycle: list[Link]) -> str:
    graph, node, _ = cycle[0]
    if len(cycle) == 1:
        what = f"graph {graph!r} calls itself (node {node!r})"
    else:
        what = "graphs call each other: " + ", ".join(
            f"graph {g!r} (node {n!r}) calls graph {c!r}" for g, n, c in cycle)
    return (f"{what} unconditionally, so the calls can never end (each node of "
            "a graph runs every time; a loop calls its body through Switch)")
