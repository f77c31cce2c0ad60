"""What the Lite API layer calls: rank-dependent paths, and the checks and
session of a sliced model at build time.

Checking at build time turns the classic distributed mistakes into one
clear error on every rank instead of a hang or a silently wrong sum: a job
with the wrong number of ranks, a group name nobody can resolve, a rank
outside its group, a communication node the graph would never run.
"""
from __future__ import annotations

import os
from typing import Callable

import numpy as np

from ..graph import Model, Node, RefKind
from . import launch, session
from .communicator import DistributedError
from .local import ThreadCommunicator, run_local
from .groups import CONFIG_SECTION, parse_config_groups

TIMEOUT_KEY = "timeout_s"     # [distributed] timeout_s: how long a collective may wait

FAMILY = "communication"      # the registry family of the communication ops
RANK_FIELD = "{rank}"


def rank_and_size() -> tuple[int, int]:
    """This rank and the job's size; (0, 1) outside a distributed run."""
    active = session.current_or_none()
    return (active.rank, active.size) if active is not None else (0, 1)


def local_rank() -> tuple[int, int, int] | None:
    """(rank, size, rank on this machine) of the calling rank; None outside
    a distributed run. Under mpirun from the launcher's environment (MPI is
    not started for it); ranks run as threads of one process share its
    machine: their local rank is their rank."""
    if launch.launched_by_mpi():
        return launch.machine_rank()
    active = session.current_or_none()
    return None if active is None else (active.rank, active.size, active.rank)


def expand_rank(path: str) -> str:
    """``model_rank{rank}.mindir`` -> this rank's file."""
    if RANK_FIELD not in path:
        return path
    return path.replace(RANK_FIELD, str(rank_and_size()[0]))


def rank_file(path: str) -> str:
    """This rank's model file (:func:`expand_rank`). A job with more ranks
    than the model has files is an error naming the rank without a file and
    how many ranks the model has, not a missing ``model_rank{rank}.mindir``."""
    mine = expand_rank(path)
    if RANK_FIELD in path and not os.path.exists(mine):
        count = _rank_files(path)
        if count:
            rank, size = rank_and_size()
            raise DistributedError(
                f"rank {rank} of {size} has no model file: {mine} does not "
                f"exist; the model has {count} rank(s), "
                f"{os.path.basename(path.replace(RANK_FIELD, '0'))} to "
                f"{os.path.basename(path.replace(RANK_FIELD, str(count - 1)))}"
                f": launch one rank per file (mpirun -n {count})")
    return mine


def _rank_files(pattern: str) -> int:
    """How many rank files ``pattern`` names: ranks 0, 1, ... while their
    file exists."""
    count = 0
    while os.path.exists(pattern.replace(RANK_FIELD, str(count))):
        count += 1
    return count


def each_rank(ranks: int | None, fn: Callable[[], str]) -> list[str] | None:
    """``fn()`` on every rank, and the texts it returns in rank order. Under
    mpirun this process is one rank: rank 0 gets the list, the others None.
    Otherwise ``ranks`` ranks run as threads of this process."""
    if launch.launched_by_mpi():
        with session.failing_aborts():      # the others would wait in the gather
            text = fn()
        return _gather_text(session.current().world, text)
    if not ranks or ranks < 1:
        raise DistributedError("outside mpirun, say how many ranks to run as "
                               "threads (--ranks N), or launch with mpirun -n N")
    return run_local(ranks, lambda rank: fn())


def _gather_text(world, text: str) -> list[str] | None:
    """Every rank's ``text`` on rank 0 (an AllGather of padded UTF-8)."""
    data = np.frombuffer(text.encode(), np.uint8)
    lengths = world.all_gather(np.array([data.size], np.int64))
    padded = np.zeros(int(lengths.max()), np.uint8)
    padded[:data.size] = data
    rows = world.all_gather(padded[None, :])
    if world.rank != 0:
        return None
    return [bytes(row[:n]).decode() for row, n in zip(rows, lengths)]


def model_session(model: Model, config: dict | None,
                  path_pattern: str = "") -> session.Session | None:
    """The session ``model`` runs in, after checking it fits the job; None
    for a model without communication ops."""
    nodes = [n for g in model.graphs.values() for n in g.nodes
             if n.op is not None and n.op.family == FAMILY]
    if not nodes:
        return None
    _check_nothing_in_place(model)
    active = session.current().with_settings(parse_config_groups(config),
                                             parse_config_timeout(config))
    _check_no_extra_slices(path_pattern, active.size)
    groups = {_node_group(active, node) for node in nodes}
    for ranks in sorted(groups):     # one global order: MPI creates groups collectively
        active.world.group(ranks)
    return active


def parse_config_timeout(config: dict | None) -> float | None:
    """``[distributed] timeout_s``: seconds a collective may wait for the other
    ranks before the job aborts; None (the default) waits for ever."""
    text = (config or {}).get(CONFIG_SECTION, {}).get(TIMEOUT_KEY)
    if text is None or text == "":
        return None
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds < float("inf"):
        raise DistributedError(f"config [{CONFIG_SECTION}] {TIMEOUT_KEY} must be a "
                               f"positive number of seconds, got {text!r}")
    return seconds


def rank_threads(active: session.Session, core_list=()):
    """Thread settings of a rank whose context leaves the count to refinfer
    (``thread_num`` 0): its share of the cores, not all of them."""
    from .. import threads
    ranks_here = active.size if isinstance(active.world, ThreadCommunicator) \
        else launch.local_ranks()
    count = launch.default_threads(ranks_here, len(core_list) or None)
    return threads.configure(count, core_list)


def _constants(node: Node) -> dict:
    return {param.name: arg.ref.key for param, arg in zip(node.op.params, node.args)
            if arg.ref.kind is RefKind.CONST}


def _node_group(active: session.Session, node: Node) -> tuple[int, ...]:
    """The world ranks ``node`` communicates with, checked against the job."""
    args = _constants(node)
    where = f"node {node.scope or node.name!r} ({node.op.name})"
    try:
        ranks = active.groups.ranks(args["group"], args.get("group_rank_ids"))
    except DistributedError as exc:
        raise DistributedError(f"{where}: {exc}") from exc
    if active.rank not in ranks:
        raise DistributedError(f"{where}: rank {active.rank} is not in its group "
                               f"{args['group']!r} (ranks {list(ranks)})")
    expected = args.get("rank_size")
    if expected is not None and int(expected) != len(ranks):
        raise DistributedError(
            f"{where} was sliced for a group of {int(expected)} ranks, but group "
            f"{args['group']!r} has {len(ranks)} in this job of {active.size} "
            f"rank(s): launch one rank per slice (mpirun -n {int(expected)} for "
            "a world-group model)")
    return ranks


def _check_no_extra_slices(path_pattern: str, size: int) -> None:
    """``model_rank{rank}.mindir`` with a file for rank ``size``: the job has
    fewer ranks than the model has slices."""
    if RANK_FIELD not in path_pattern:
        return
    extra = path_pattern.replace(RANK_FIELD, str(size))
    if os.path.exists(extra):
        raise DistributedError(f"{extra} exists but the job has only {size} "
                               f"rank(s): launch one rank per slice")


def _check_nothing_in_place(model: Model) -> None:
    """Side-effecting nodes always run, which is all a ``Send`` needs. A
    collective whose result nothing reads was used in place; unless its op
    declares what it writes (``mutates``: the graph builder then points
    later reads at its result, as for ``mint.distributed.all_reduce(y)``),
    later reads would see the old value, so refuse the model instead."""
    in_place = []
    for graph in model.graphs.values():
        suspects = [n for n in graph.nodes if n.op is not None
                    and n.op.family == FAMILY and n.op.name != "Send"
                    and not n.op.mutates]
        if not suspects:    # (most graphs: no table of every name read)
            continue
        read = {a.ref.key for n in graph.nodes for a in n.args
                if a.ref.kind is RefKind.NODE}
        read |= {graph.output.key} if graph.output.kind is RefKind.NODE else set()
        in_place += [f"{n.scope or n.name} ({n.op.name})" for n in suspects
                     if n.name not in read]
    if in_place:
        raise DistributedError(
            "communication node(s) used in place (their result only feeds "
            "Depend/UpdateState), which refinfer does not support yet: "
            + ", ".join(in_place))
