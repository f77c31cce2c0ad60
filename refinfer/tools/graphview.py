"""``refinfer graph``: draw a model's graphs (.html, .svg, .dot).

Each graph is a cluster: the main graph, then the sub-graphs (branches, loop
bodies) as named functions. Boxes are the model inputs, the nodes (``%k``
numbered as in ``refinfer explain``, op, output type) and the returned
value; each edge leaving a node is labelled with the node's output shape.
Dashed edges lead from a node that calls or passes a sub-graph to that
graph's cluster.

Given a ``refinfer compare`` or ``refinfer bisect`` JSON report, nodes are
coloured by error: green within tolerance, orange to red by how far the
largest absolute error is over ``atol``, white when not compared; the
bisection's first divergence gets a thick outline.

``.html`` is one self-contained file (inline SVG laid out by
:mod:`.layout`, inline script for pan, zoom, search through every match,
one graph at a time, the first divergence and details; no network). ``.dot`` is Graphviz text; ``.svg`` runs Graphviz's ``dot``.
"""
from __future__ import annotations

import html
import json
import math
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field

from ..errors import UsageError
from ..graph import Graph, Node, Ref, RefKind
from ..runtime import LoadedModel
from .explain import Listing, type_text
from .graph_page import PAGE_SCRIPT, PAGE_STYLE
from .layout import layout
from .tensorio import read_json

FORMATS = (".html", ".svg", ".dot")
BOX_HEIGHT = 38
CHAR_WIDTH = 6.8
TITLE_CHAR_WIDTH = 8.2
MAX_SCOPE = 30
MAX_LABEL = 26           # edge labels (a tuple's type can be long)
MAX_TITLE = 60           # graph titles drawn (a long one made its graph wide)
CLUSTER_PAD = 28
CLUSTER_GAP = 48
COLOURS = {"passed": "#c3e6cb", "none": "#ffffff", "io": "#d0e4f5",
           "call": "#ece3f7"}
FAIL_LOW, FAIL_HIGH = (255, 214, 153), (214, 40, 40)
LEGEND_RANGE = 4         # decades of max_abs_err / atol from orange to red
_SUFFIX = re.compile(r"(@\d+)?$")
_ELEMENT = re.compile(r":\d+$")


@dataclass
class Box:
    id: str
    label: str           # first line: %k and op, input name, "return"
    detail: str          # second line: type
    kind: str            # "op", "call", "input", "output"
    info: dict           # shown in the page's details panel
    node: str = ""       # graph node name (op and call boxes)
    fill: str = COLOURS["none"]
    outline: bool = False

    @property
    def width(self) -> float:
        return max(len(self.label), len(self.detail), 6) * CHAR_WIDTH + 18


@dataclass
class Cluster:
    name: str
    title: str
    boxes: list[Box] = field(default_factory=list)
    edges: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass
class Drawing:
    title: str
    clusters: list[Cluster]
    links: list[tuple[str, str]]          # (box id, cluster name): dashed
    coloured: bool = False                # filled from a report

    def boxes(self) -> list[Box]:
        return [b for c in self.clusters for b in c.boxes]

    def calls(self) -> dict[str, list[str]]:
        """Box id -> the graphs it calls or passes, in order."""
        calls: dict[str, list[str]] = {}
        for box_id, graph in self.links:
            calls.setdefault(box_id, []).append(graph)
        return calls


# -- from the model -----------------------------------------------------------

def build_drawing(model: LoadedModel, report: str | None = None) -> Drawing:
    """Boxes and edges of every graph; coloured by ``report`` if given."""
    listing = Listing(model)
    builder = _Builder(listing)
    drawing = Drawing(os.path.basename(model.path),
                      [builder.cluster(g) for g in listing.graphs],
                      builder.links)
    if report is not None:
        colour_by_report(drawing, listing, read_json(report))
    return drawing


class _Builder:
    def __init__(self, listing: Listing):
        self.listing = listing
        self.links: list[tuple[str, str]] = []

    def cluster(self, graph: Graph) -> Cluster:
        cluster = Cluster(graph.name, self._title(graph))
        for k, info in enumerate(graph.inputs):
            if not info.is_monad:
                cluster.boxes.append(Box(
                    self._input_id(graph, k), info.short_name,
                    type_text(info.abstract), "input",
                    {"input": info.short_name, "type": type_text(info.abstract)}))
        for node in graph.nodes:
            cluster.boxes.append(self._box(graph, node))
            for ref in [a.ref for a in node.args] + [node.callee]:
                self._edge(cluster, graph, ref, self._node_id(node.name))
        out = f"{self._graph_id(graph)}-out"
        cluster.boxes.append(Box(out, "return",
                                 type_text(graph.output_info.abstract),
                                 "output", {"returns": self.listing.ref_text(
                                     graph, graph.output)}))
        self._edge(cluster, graph, graph.output, out)
        return cluster

    def _title(self, graph: Graph) -> str:
        kind = "main" if graph is self.listing.model.main else "def"
        return f"{kind} {self.listing.signature(graph)}"

    def _box(self, graph: Graph, node: Node) -> Box:
        k = self.listing.number[node.name]
        op = node.op.name if node.op is not None else "call"
        info = {"node": node.name, "scope": node.scope, "op": node.op_name,
                "code": f"%{k} = {self.listing.call_text(graph, node)}",
                "type": type_text(node.abstract)}
        return Box(self._node_id(node.name), f"%{k} {op}",
                   _scope_text(node.scope) or type_text(node.abstract),
                   "op" if node.op is not None else "call", info, node.name)

    def _edge(self, cluster: Cluster, graph: Graph, ref: Ref | None,
              target: str) -> None:
        if ref is None:
            return
        if ref.kind is RefKind.GRAPH:
            self.links.append((target, ref.key))
        elif ref.kind is RefKind.NODE:
            cluster.edges.append((self._node_id(ref.key), target,
                                  self._shape(ref.key)))
        elif ref.kind is RefKind.INPUT and not graph.inputs[ref.key].is_monad:
            shape = type_text(graph.inputs[ref.key].abstract)
            cluster.edges.append((self._input_id(graph, ref.key), target,
                                  shape))

    def _shape(self, node_name: str) -> str:
        _, node = self.listing.nodes[self.listing.number[node_name]]
        return type_text(node.abstract)

    def _node_id(self, node_name: str) -> str:
        return f"n{self.listing.number[node_name]}"

    def _graph_id(self, graph: Graph) -> str:
        return f"g{self.listing.graphs.index(graph)}"

    def _input_id(self, graph: Graph, k: int) -> str:
        return f"{self._graph_id(graph)}-in{k}"


def _scope_text(scope: str) -> str:
    """The module path of a scope name: ``Default/layer1-SequentialCell/
    0-BasicBlock/conv1-Conv2d/Conv2D-op0`` -> ``...0-BasicBlock/conv1-Conv2d``
    (the node's op and the ``Default/`` root left out)."""
    path = scope.split("/")[1:-1]
    text = "/".join(path)
    return text if len(text) <= MAX_SCOPE else "…" + text[-MAX_SCOPE:]


# -- colouring by a report ----------------------------------------------------

def colour_by_report(drawing: Drawing, listing: Listing, report) -> None:
    """Fill op boxes by the worst tensor of their node in ``report`` (a
    compare or bisect JSON report)."""
    tensors = report.get("tensors") if isinstance(report, dict) else None
    if not isinstance(tensors, list):
        raise ValueError("--report: expected a refinfer compare or bisect "
                         "JSON report (with a 'tensors' list)")
    by_name = _node_index(listing)
    worst: dict[str, tuple] = {}
    for tensor in tensors:
        node = tensor.get("node") or by_name.get(_base_name(tensor, by_name))
        if node is None or tensor.get("passed") is None:
            continue
        level = _level(tensor, report)
        worst[node] = max(worst.get(node, level), level)
    first = (report.get("first_divergence") or {}).get("node")
    drawing.coloured = True
    for box in drawing.boxes():
        if box.node in worst:
            box.fill = _fill(worst[box.node])
            box.info["error"] = _level_text(worst[box.node])
        box.outline = bool(first) and box.node == first


def _node_index(listing: Listing) -> dict[str, str]:
    index = {}
    for _, node in listing.nodes:
        index.setdefault(node.name, node.name)
        if node.scope:
            index.setdefault(node.scope, node.name)
    return index


def _base_name(tensor: dict, index: dict) -> str:
    """A tensor name without ``@n`` and, if that is not a node, ``:k``."""
    name = _SUFFIX.sub("", str(tensor.get("name", "")), count=1)
    return name if name in index else _ELEMENT.sub("", name)


def _level(tensor: dict, report: dict) -> tuple:
    """Sortable severity: (failed, decades of max_abs_err over atol)."""
    if tensor.get("passed"):
        return (0, 0.0)
    error = tensor.get("max_abs_err")
    atol = tensor.get("atol", report.get("atol")) or 1e-12
    if not isinstance(error, (int, float)) or error != error:
        return (1, float(LEGEND_RANGE))      # shape mismatch, NaN: worst
    return (1, max(0.0, math.log10(max(error, 1e-300) / atol)))


def _fill(level: tuple) -> str:
    if not level[0]:
        return COLOURS["passed"]
    t = min(level[1] / LEGEND_RANGE, 1.0)
    rgb = [round(a + (b - a) * t) for a, b in zip(FAIL_LOW, FAIL_HIGH)]
    return "#" + "".join(f"{c:02x}" for c in rgb)


def _level_text(level: tuple) -> str:
    if not level[0]:
        return "within tolerance"
    return f"FAIL: max abs error {10 ** level[1]:.3g} x atol"


# -- DOT and SVG ----------------------------------------------------------------

def to_dot(drawing: Drawing) -> str:
    lines = ["digraph refinfer {", "  compound=true; rankdir=TB;",
             '  node [shape=box, style="rounded,filled", fontname="Helvetica",'
             ' fontsize=10];', '  edge [fontname="Helvetica", fontsize=8];']
    first_box = {}
    for k, cluster in enumerate(drawing.clusters):
        lines.append(f'  subgraph "cluster_{k}" {{')
        lines.append(f"    label={_dot(cluster.title)};")
        for box in cluster.boxes:
            first_box.setdefault(cluster.name, (box.id, k))
            shape = ', shape=ellipse' if box.kind in ("input", "output") \
                else ""
            pen = ", penwidth=3" if box.outline else ""
            lines.append(f"    {_dot(box.id)} [label="
                         f"{_dot(box.label + chr(10) + box.detail)}, "
                         f"tooltip={_dot(box.info.get('scope') or box.label)}"
                         f", fillcolor={_dot(_box_fill(box))}{shape}{pen}];")
        lines += [f"    {_dot(a)} -> {_dot(b)} [label={_dot(label)}];"
                  for a, b, label in cluster.edges]
        lines.append("  }")
    for box_id, graph in drawing.links:
        if graph in first_box:
            target, k = first_box[graph]
            lines.append(f"  {_dot(box_id)} -> {_dot(target)} "
                         f'[style=dashed, lhead="cluster_{k}"];')
    return "\n".join(lines + ["}"]) + "\n"


def _dot(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _box_fill(box: Box) -> str:
    if box.kind in ("input", "output"):
        return COLOURS["io"]
    if box.kind == "call" and box.fill == COLOURS["none"]:
        return COLOURS["call"]
    return box.fill


def to_svg_with_graphviz(drawing: Drawing) -> str:
    dot = shutil.which("dot")
    if dot is None:
        raise RuntimeError("writing .svg needs Graphviz's 'dot' program on "
                           "PATH (e.g. apt-get install graphviz); .html and "
                           ".dot need nothing")
    done = subprocess.run([dot, "-Tsvg"], input=to_dot(drawing), text=True,
                          capture_output=True, check=False)
    if done.returncode:
        raise RuntimeError(f"dot failed: {done.stderr.strip()}")
    return done.stdout


# -- HTML -----------------------------------------------------------------------

def to_html(drawing: Drawing) -> str:
    """The page: a header (search stepping through every match, a graph
    chooser when there are sub-graphs, the views, a jump to the first
    divergence and the colour legend when a report coloured the nodes),
    the drawing and a details panel."""
    svg, width, height = _svg(drawing)
    boxes = drawing.boxes()
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>refinfer graph: {html.escape(drawing.title)}</title>"
        f"<style>{PAGE_STYLE}</style></head>\n<body>\n<header><b>"
        f"{html.escape(drawing.title)}</b> <span id=\"count\">"
        f"{sum(b.kind in ('op', 'call') for b in boxes)} nodes</span>"
        " <input id=\"search\" placeholder=\"find nodes (name, scope, op); "
        "Enter: next\"> <button id=\"prev\" title=\"previous match "
        "(Shift+Enter)\">&uarr;</button><button id=\"next\" title=\"next "
        "match (Enter)\">&darr;</button> <span id=\"matches\"></span>"
        f"{_graph_chooser(drawing)}"
        " <button id=\"fit\">fit</button> <button id=\"top\">top</button>"
        f"{_first_button(boxes)}{_legend(drawing)}</header>\n"
        f"<main><div id=\"view\">{svg}</div><aside id=\"info\">Click a node "
        "for details. Drag to pan, wheel to zoom, / to search.</aside></main>"
        f"\n<script>const GRAPH_SIZE = [{width:.0f}, {height:.0f}];\n"
        f"{PAGE_SCRIPT}</script>\n</body></html>\n")


def _graph_chooser(drawing: Drawing) -> str:
    """A list of the graphs (each opens zoomed to fit), when there are
    sub-graphs; a single graph needs none."""
    if len(drawing.clusters) < 2:
        return ""
    options = "".join(f'<option value="c{k}">'
                      f"{html.escape(_short(c.title, MAX_TITLE))}</option>"
                      for k, c in enumerate(drawing.clusters))
    return f' <select id="graphs" title="show one graph">{options}</select>'


def _first_button(boxes: list[Box]) -> str:
    if not any(box.outline for box in boxes):
        return ""
    return (' <button id="first" title="the first divergence of the bisect '
            'report">first divergence</button>')


def _legend(drawing: Drawing) -> str:
    """The colour key; only when a report coloured the nodes."""
    if not drawing.coloured:
        return ""
    swatches = "".join(
        f'<span class="swatch" style="background:{colour}"></span>{text}'
        for colour, text in ((COLOURS["passed"], "within tolerance"),
                             (_fill((1, 0.0)), "just over"),
                             (_fill((1, LEGEND_RANGE)),
                              f"&ge;1e{LEGEND_RANGE} &times; atol"),
                             (COLOURS["none"], "not compared")))
    return f' <span class="legend">{swatches}</span>'


def _svg(drawing: Drawing) -> tuple[str, float, float]:
    parts, left, tallest = [], 0.0, 0.0
    positions: dict[str, tuple[float, float, float]] = {}
    titles: dict[str, tuple[float, float]] = {}
    calls = drawing.calls()
    for number, cluster in enumerate(drawing.clusters):
        placed = layout([b.id for b in cluster.boxes],
                        {b.id: b.width for b in cluster.boxes},
                        [(a, b) for a, b, _ in cluster.edges], BOX_HEIGHT)
        title = _short(cluster.title, MAX_TITLE)
        width = max(placed.width, len(title) * TITLE_CHAR_WIDTH) \
            + 2 * CLUSTER_PAD
        x0, y0 = left + (width - placed.width) / 2, CLUSTER_PAD + 26
        height = placed.height + 2 * CLUSTER_PAD + 26
        parts.append(f'<g class="cluster" id="c{number}" '
                     f'data-graph="{_attr(cluster.name)}">'
                     f"<title>{html.escape(cluster.title)}</title>"
                     f'<rect x="{left:.1f}" y="0" width="{width:.1f}" '
                     f'height="{height:.1f}" rx="10"/><text x="{left + 12:.1f}"'
                     f' y="20" class="ctitle">{html.escape(title)}'
                     "</text></g>")
        titles[cluster.name] = (left + 12, 20)
        for route in placed.routes:
            parts.append(_edge_path(route, x0, y0))
        labelled = set()
        for (a, _, label), route in zip(cluster.edges, placed.routes):
            if a not in labelled:
                labelled.add(a)
                px, py = route[0]
                parts.append(f'<text class="elabel" x="{x0 + px + 6:.1f}" '
                             f'y="{y0 + py + BOX_HEIGHT + 12:.1f}">'
                             f"{html.escape(_short(label))}</text>")
        for box in cluster.boxes:
            cx, cy = x0 + placed.x[box.id], y0 + placed.y[box.id]
            positions[box.id] = (cx, cy, box.width)
            parts.append(_box_svg(box, cx, cy, calls.get(box.id, [])))
        left += width + CLUSTER_GAP
        tallest = max(tallest, height)
    for box_id, graph in drawing.links:
        if box_id in positions and graph in titles:
            parts.append(_link_path(positions[box_id], titles[graph]))
    total = max(left - CLUSTER_GAP, 1.0)
    svg = (f'<svg id="graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 '
           f'{total:.0f} {tallest:.0f}"><defs><marker id="arrow" '
           'viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5'
           'L0 10z"/></marker></defs>' + "".join(parts) + "</svg>")
    return svg, total, tallest


def _edge_path(route, x0: float, y0: float) -> str:
    points = [(x0 + x, y0 + y) for x, y in route]
    (sx, sy), (tx, ty) = points[0], points[-1]
    points[0], points[-1] = (sx, sy + BOX_HEIGHT), (tx, ty)
    d = f"M{points[0][0]:.1f} {points[0][1]:.1f}"
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        mid = (ay + by) / 2
        d += f"C{ax:.1f} {mid:.1f} {bx:.1f} {mid:.1f} {bx:.1f} {by:.1f}"
    return f'<path class="edge" d="{d}" marker-end="url(#arrow)"/>'


def _link_path(source, title) -> str:
    sx, sy, width = source
    tx, ty = title
    start_x, start_y = sx + width / 2, sy + BOX_HEIGHT / 2
    return (f'<path class="link" d="M{start_x:.1f} {start_y:.1f}C'
            f'{tx:.1f} {start_y:.1f} {tx - 40:.1f} {ty - 40:.1f} {tx:.1f} '
            f'{ty - 14:.1f}" marker-end="url(#arrow)"/>')


def _box_svg(box: Box, cx: float, cy: float, calls: list[str]) -> str:
    """One box; ``calls``: the graphs it calls or passes (the page offers
    to open them)."""
    x = cx - box.width / 2
    radius = BOX_HEIGHT / 2 if box.kind in ("input", "output") else 6
    first = " first" if box.outline else ""
    info = html.escape(json.dumps(box.info, ensure_ascii=False), quote=True)
    called = f' data-calls="{_attr(json.dumps(calls))}"' if calls else ""
    return (f'<g class="node {box.kind}{first}" id="{box.id}" '
            f'data-node="{_attr(box.node)}" data-info="{info}"{called}>'
            f"<title>{html.escape(box.info.get('scope') or box.label)}</title>"
            f'<rect x="{x:.1f}" y="{cy:.1f}" width="{box.width:.1f}" '
            f'height="{BOX_HEIGHT}" rx="{radius:.0f}" fill="{_box_fill(box)}"'
            "/>"
            f'<text x="{cx:.1f}" y="{cy + 15:.1f}" class="op">'
            f"{html.escape(box.label)}</text>"
            f'<text x="{cx:.1f}" y="{cy + 30:.1f}" class="type">'
            f"{html.escape(box.detail)}</text></g>")


def _short(text: str, limit: int = MAX_LABEL) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _attr(text: str) -> str:
    return html.escape(text, quote=True)


# -- writing ----------------------------------------------------------------------

def write_graph(model: LoadedModel, path: str,
                report: str | None = None) -> Drawing:
    """Write the drawing to ``path``; the format is the extension's."""
    extension = os.path.splitext(path)[1].lower()
    if extension not in FORMATS:
        raise UsageError(f"{path}: unknown format (expected "
                         f"{', '.join(FORMATS)})")
    drawing = build_drawing(model, report)
    writers = {".html": to_html, ".dot": to_dot,
               ".svg": to_svg_with_graphviz}
    text = writers[extension](drawing)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return drawing
