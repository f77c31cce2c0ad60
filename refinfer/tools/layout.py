"""A small layered (Sugiyama-style) layout for drawing graphs top-down.

Steps: layers by longest path from the sources; a chain of dummy points for
every edge spanning several layers; barycentre sweeps to reduce crossings;
x positions pulled towards neighbours and then packed so boxes never
overlap. Good enough for the chains and skip connections of CNNs, and
dependency-free (no Graphviz needed).
"""
from __future__ import annotations

from dataclasses import dataclass, field

LAYER_GAP = 72          # vertical distance between layers
NODE_GAP = 24           # horizontal space between neighbouring boxes
DUMMY_WIDTH = 8
SWEEPS = 8


@dataclass
class Placed:
    """Positions: box centres, and each edge's route (a list of points)."""
    x: dict[str, float] = field(default_factory=dict)
    y: dict[str, float] = field(default_factory=dict)
    routes: list[list[tuple[float, float]]] = field(default_factory=list)
    width: float = 0.0
    height: float = 0.0


def layout(ids: list[str], widths: dict[str, float],
           edges: list[tuple[str, str]], height: float) -> Placed:
    """Place boxes ``ids`` (in a topological order) of the given widths and
    ``height``; ``edges`` go from an earlier box to a later one."""
    layer = _layers(ids, edges)
    chains, width = _chains(edges, layer, widths)
    rows = _rows(ids, layer, chains)
    neighbours = _neighbours(chains)
    _order(rows, neighbours)
    x = _positions(rows, neighbours, width)
    placed = Placed()
    for depth, row in enumerate(rows):
        for key in row:
            placed.x[key], placed.y[key] = x[key], depth * LAYER_GAP
    placed.routes = [[(x[k], placed.y[k]) for k in chain] for chain in chains]
    placed.width = max((x[k] + width[k] / 2 for k in x), default=0.0)
    placed.height = (len(rows) - 1) * LAYER_GAP + height if rows else 0.0
    return placed


def _layers(ids: list[str], edges) -> dict[str, int]:
    preds: dict[str, list[str]] = {k: [] for k in ids}
    for src, dst in edges:
        preds[dst].append(src)
    layer: dict[str, int] = {}
    for key in ids:
        layer[key] = 1 + max((layer[p] for p in preds[key]), default=-1)
    return layer


def _chains(edges, layer, widths):
    """Each edge as a chain of keys: source, dummies, target."""
    width = dict(widths)
    chains = []
    for number, (src, dst) in enumerate(edges):
        chain = [src]
        for depth in range(layer[src] + 1, layer[dst]):
            dummy = f"~{number}.{depth}"
            layer[dummy], width[dummy] = depth, DUMMY_WIDTH
            chain.append(dummy)
        chains.append(chain + [dst])
    return chains, width


def _rows(ids, layer, chains) -> list[list[str]]:
    rows: list[list[str]] = [[] for _ in range(max(layer.values(),
                                                   default=-1) + 1)]
    seen = set()
    for key in ids + [k for chain in chains for k in chain[1:-1]]:
        if key not in seen:
            seen.add(key)
            rows[layer[key]].append(key)
    return rows


def _neighbours(chains) -> tuple[dict, dict]:
    up: dict[str, list[str]] = {}
    down: dict[str, list[str]] = {}
    for chain in chains:
        for a, b in zip(chain, chain[1:]):
            down.setdefault(a, []).append(b)
            up.setdefault(b, []).append(a)
    return up, down


def _order(rows, neighbours) -> None:
    """Barycentre sweeps, alternately down and up."""
    up, down = neighbours
    for sweep in range(SWEEPS):
        downward = sweep % 2 == 0
        indices = range(1, len(rows)) if downward else \
            range(len(rows) - 2, -1, -1)
        for depth in indices:
            fixed = rows[depth - 1] if downward else rows[depth + 1]
            where = {k: i for i, k in enumerate(fixed)}
            links = up if downward else down
            rows[depth] = _sorted_by_barycentre(rows[depth], links, where)


def _sorted_by_barycentre(row, links, where) -> list[str]:
    def centre(item):
        position, key = item
        placed = [where[n] for n in links.get(key, ()) if n in where]
        return sum(placed) / len(placed) if placed else position
    return [key for _, key in sorted(enumerate(row), key=centre)]


def _positions(rows, neighbours, width) -> dict[str, float]:
    """x centres: start packed, then pull each row towards its neighbours'
    mean (down, then up) and re-pack."""
    up, down = neighbours
    x: dict[str, float] = {}
    for row in rows:
        _pack(row, {k: 0.0 for k in row}, width, x)
    for sweep in range(SWEEPS):
        links = up if sweep % 2 == 0 else down
        for row in rows:
            wanted = {k: _mean([x[n] for n in links.get(k, ())], x[k])
                      for k in row}
            _pack(row, wanted, width, x)
    low = min((x[k] - width[k] / 2 for k in x), default=0.0)
    return {k: v - low for k, v in x.items()}


def _pack(row, wanted, width, x) -> None:
    """Place ``row`` left to right as near ``wanted`` as the gaps allow,
    then shift it so its mean offset from ``wanted`` is zero."""
    placed = []
    for k, key in enumerate(row):
        value = wanted[key]
        if k:
            prev = row[k - 1]
            value = max(value, placed[-1] + (width[prev] + width[key]) / 2
                        + NODE_GAP)
        placed.append(value)
    shift = _mean([wanted[k] - p for k, p in zip(row, placed)], 0.0)
    for key, value in zip(row, placed):
        x[key] = value + shift


def _mean(values, default: float) -> float:
    return sum(values) / len(values) if values else default
