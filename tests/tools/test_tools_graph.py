"""``refinfer graph``: .dot, .svg and a self-contained .html page, checked
in a real headless Chromium when one is installed."""
import html
import importlib.util
import json
import os
import re
import shutil
import subprocess

import pytest

from refinfer.runtime import LoadedModel
from refinfer.tools import bisect as tools_bisect
from refinfer.tools import dump as tools_dump
from refinfer.tools.graphview import build_drawing, to_dot, write_graph

from helpers_tools import (ROOT, golden_file, golden_inputs, golden_model,
                           perturbed_model, run_cli)

LENET = golden_file("lenet5", "model.mindir")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking",
                  "--disable-component-update", "--disable-sync",
                  "--no-first-run"]


def all_node_names(case: str) -> list[str]:
    return [n.name for g in golden_model(case).model.graphs.values()
            for n in g.nodes]


def test_dot_has_every_node_and_the_subgraphs():
    text = to_dot(build_drawing(golden_model("ctrl_if")))
    assert text.startswith("digraph refinfer {") and text.endswith("}\n")
    assert text.count("subgraph \"cluster_") == 3
    for k in range(len(all_node_names("ctrl_if"))):
        assert re.search(rf'^    "n{k}" \[label=', text, re.M)
    assert '"n6" -> "g0-out" [label="float32[2,3]"];' in text
    assert text.count("style=dashed") == 2      # Partial -> each branch


def test_dot_cli(tmp_path, capsys):
    out = tmp_path / "g.dot"
    code, stdout, _ = run_cli(capsys, "graph", LENET, "-o", out)
    assert code == 0 and "19 boxes in 1 graph(s)" in stdout
    assert out.read_text().count("->") == 17 + 1       # edges, return


def test_svg_needs_graphviz(tmp_path, capsys):
    out = tmp_path / "g.svg"
    code, _, err = run_cli(capsys, "graph", LENET, "-o", out)
    if shutil.which("dot") is None:
        assert code == 3 and "needs Graphviz's 'dot'" in err
        assert not out.exists()
    else:
        assert code == 0 and "<svg" in out.read_text()


def test_unknown_format(tmp_path, capsys):
    code, _, err = run_cli(capsys, "graph", LENET, "-o", tmp_path / "g.png")
    assert code == 2 and "unknown format" in err


@pytest.fixture(scope="module")
def coloured_page(tmp_path_factory):
    """LeNet-5 with conv1.bias perturbed, bisected against the float32
    original's dump, drawn coloured by the report."""
    folder = tmp_path_factory.mktemp("graph")
    clean = folder / "clean"
    tools_dump.dump(golden_model("lenet5"), golden_inputs("lenet5"),
                    str(clean))
    bad = LoadedModel(perturbed_model(folder, "lenet5", "conv1.bias", 2, 0.05))
    result = tools_bisect.bisect(bad, golden_inputs("lenet5"), str(clean))
    report = folder / "bisect.json"
    tools_bisect.write_report(str(report), result)
    page = folder / "lenet5.html"
    write_graph(golden_model("lenet5"), str(page), str(report))
    return page


def test_html_is_self_contained_and_coloured(coloured_page):
    text = coloured_page.read_text(encoding="utf-8")
    assert not re.search(r"(src|href)=\"(https?:)?//", text)   # no network
    assert "<script>" in text and "<svg" in text
    boxes = re.findall(r'<g class="node op( first)?" id="(n\d+)".*?'
                       r'fill="(#\w+)"', text)
    first = [box for outlined, box, _ in boxes if outlined]
    fill = {box: colour for _, box, colour in boxes}
    assert fill["n0"] == "#c3e6cb"                  # Conv2D: within tolerance
    assert fill["n1"] not in ("#c3e6cb", "#ffffff")     # BiasAdd: failed
    assert first == ["n1"]                          # the first divergence


def test_legend_and_jump_only_with_a_report(coloured_page, tmp_path):
    """The report: the colour legend showed on a page no report coloured."""
    plain = tmp_path / "plain.html"
    write_graph(golden_model("lenet5"), str(plain))
    text = plain.read_text(encoding="utf-8")
    assert 'class="legend"' not in text and 'id="first"' not in text
    assert 'id="graphs"' not in text            # one graph: no chooser
    coloured = coloured_page.read_text(encoding="utf-8")
    assert coloured.count('class="legend"') == 1
    assert coloured.count('<button id="first"') == 1


def test_subgraphs_can_be_chosen_and_opened(tmp_path):
    """Control flow: a chooser lists every graph, and a node calling or
    passing a sub-graph names it (the page offers to open it)."""
    page = tmp_path / "ctrl_if.html"
    write_graph(golden_model("ctrl_if"), str(page))
    text = page.read_text(encoding="utf-8")
    chooser = re.search(r'<select id="graphs"[^>]*>(.*?)</select>', text)
    options = re.findall(r'<option value="(c\d)">(main|def) @', chooser[1])
    assert [value for value, _ in options] == ["c0", "c1", "c2"]
    assert [kind for _, kind in options] == ["main", "def", "def"]
    assert [re.search(f'<g class="cluster" id="{c}"', text) is not None
            for c in ("c0", "c1", "c2")] == [True] * 3
    calls = [json.loads(html.unescape(c))
             for c in re.findall(r'data-calls="([^"]*)"', text)]
    branches = [g.name for g in golden_model("ctrl_if").model.graphs.values()
                if g is not golden_model("ctrl_if").model.main]
    assert sorted(name for c in calls for name in c) == sorted(branches)


def big_model(folder, nodes: int = 500) -> str:
    """A ``nodes``-node chain of Adds, each also reading the value four
    nodes back (tools/bench_build.py's generator)."""
    spec = importlib.util.spec_from_file_location(
        "bench_build", os.path.join(ROOT, "tools", "bench_build.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    path = folder / f"chain{nodes}.mindir"
    path.write_bytes(module.chain_model(nodes, "add", skip=4))
    return str(path)


@pytest.fixture(scope="module")
def big_page(tmp_path_factory):
    """The 500-node model drawn with a report: nodes from %300 on fail,
    %300 is the first divergence."""
    folder = tmp_path_factory.mktemp("big")
    model = LoadedModel(big_model(folder), "reference")
    nodes = model.model.main.nodes
    report = {"atol": 1e-5, "first_divergence": {"node": nodes[300].name},
              "tensors": [{"name": n.scope, "passed": k < 300, "atol": 1e-5,
                           "max_abs_err": 1e-6 if k < 300 else 1.0}
                          for k, n in enumerate(nodes)]}
    (folder / "report.json").write_text(json.dumps(report))
    page = folder / "big.html"
    write_graph(model, str(page), str(folder / "report.json"))
    return page


def test_a_500_node_page(big_page):
    text = big_page.read_text(encoding="utf-8")
    assert len(re.findall(r'<g class="node op', text)) == 500
    first = re.findall(r'<g class="node op first" id="(n\d+)"', text)
    assert first == ["n300"]
    assert len(text) < 1_000_000          # one self-contained file


def run_chromium(tmp_path, *args) -> subprocess.CompletedProcess:
    profile = tmp_path / "profile"
    return subprocess.run([CHROMIUM, *CHROMIUM_FLAGS,
                           f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=120)


needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium on PATH: the HTML graph is not "
    "checked in a browser (Debian: apt-get install chromium)")


def in_chromium(tmp_path, page, driver: str, hash_: str = ""):
    """Open a copy of ``page`` with ``driver`` (JavaScript acting as the
    user, after the page's own script) in one headless run; returns what
    the driver stored with ``report(...)``, the DOM and the screenshot."""
    driven = tmp_path / f"driven_{page.name}"
    script = ("<script>(function () {\nconst results = {};\n"
              "function report(key, value) { results[key] = value; }\n"
              f"{driver}\ndocument.body.dataset.check = "
              "JSON.stringify(results);\n})();</script>\n</body>")
    driven.write_text(page.read_text(encoding="utf-8").replace(
        "</body>", script), encoding="utf-8")
    shot = tmp_path / "shot.png"
    done = run_chromium(tmp_path, f"--screenshot={shot}",
                        "--window-size=1600,1200", "--dump-dom",
                        f"file://{driven}{hash_}")
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    check = re.search(r'data-check="([^"]*)"', dom)
    assert check, "the driver did not run: " + dom[-500:]
    return json.loads(html.unescape(check[1])), dom, shot.read_bytes()


# JavaScript helpers for drivers: the view box, a node's rectangle, whether
# the node lies inside the view.
VIEW = """
function view() { return document.getElementById("graph").getAttribute(
  "viewBox").split(" ").map(Number); }
function inView(id) {
  const r = document.getElementById(id).querySelector("rect");
  const [x, y, w, h] = ["x", "y", "width", "height"].map(k => +r.getAttribute(k));
  const [vx, vy, vw, vh] = view();
  return x >= vx && y >= vy && x + w <= vx + vw && y + h <= vy + vh;
}
function hit() { const g = document.querySelector("g.node.hit"); return g && g.id; }
"""

STEP_THROUGH = VIEW + """
const search = document.getElementById("search");
const counter = document.getElementById("matches");
function key(shift) {
  search.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", shiftKey: shift}));
  return [counter.textContent, hit(), inView(hit())];
}
search.value = "add"; search.dispatchEvent(new Event("input"));
report("typed", [counter.textContent, hit(), inView(hit()),
                 document.querySelectorAll("g.node.match").length]);
report("enter", key(false)); report("enter2", key(false));
report("shift_enter", key(true));
report("back_past_first", [key(true), key(true)]);
document.getElementById("next").click();
report("next_button", [counter.textContent, hit()]);
search.value = "add417-op"; search.dispatchEvent(new Event("input"));
report("one", [counter.textContent, hit(), inView(hit()), view()[2]]);
search.value = "no such node"; search.dispatchEvent(new Event("input"));
report("none", [counter.textContent,
                document.querySelectorAll("g.node.match").length]);
document.getElementById("first").click();
report("first", [hit(), inView("n300"), view()[2],
                 document.getElementById("info").textContent]);
"""


@pytest.mark.slow
@needs_chromium
def test_500_node_page_search_steps_and_jumps_in_chromium(big_page,
                                                           tmp_path):
    """The report: search found only the first match and nothing jumped to
    the first divergence. In a real browser: every match is highlighted,
    Enter / Shift+Enter / the buttons step through them (wrapping), each
    shown at a readable scale, and "first divergence" centres on %300."""
    results, dom, png = in_chromium(tmp_path, big_page, STEP_THROUGH)
    assert results["typed"] == ["1 of 500", "n0", True, 500]
    assert results["enter"] == ["2 of 500", "n1", True]
    assert results["enter2"] == ["3 of 500", "n2", True]
    assert results["shift_enter"] == ["2 of 500", "n1", True]
    assert results["back_past_first"] == [["1 of 500", "n0", True],
                                          ["500 of 500", "n499", True]]
    assert results["next_button"] == ["1 of 500", "n0"]
    count, node, shown, width = results["one"]
    assert (count, node, shown) == ("1 of 1", "n417", True)
    assert width <= 1400                     # zoomed in to read it
    assert results["none"] == ["no match", 0]
    node, shown, width, info = results["first"]
    assert (node, shown) == ("n300", True) and width <= 1400
    assert "code: %300 = Add(%299, %296)" in info
    assert "error: FAIL" in info
    assert 'data-ready="1"' in dom and dom.count('class="legend"') == 1
    assert png.startswith(b"\x89PNG") and len(png) > 20_000


OPEN_GRAPHS = VIEW + """
const chooser = document.getElementById("graphs");
report("options", Array.from(chooser.options).map(o => o.value));
for (const value of ["c1", "c2", "c3"]) {
  chooser.value = value; chooser.dispatchEvent(new Event("change"));
  const rect = document.getElementById(value).querySelector("rect");
  const [vx, vy, vw, vh] = view();
  report(value, [+rect.getAttribute("width") <= vw,
                 +rect.getAttribute("x") >= vx, vw <= 1400,
                 document.querySelectorAll("g.cluster.shown").length,
                 document.getElementById(value).classList.contains("shown")]);
}
const call = document.querySelector("g.node[data-calls]");
call.dispatchEvent(new MouseEvent("click", {bubbles: true}));
const open = document.querySelector("#info button");
report("open_button", open.textContent);
open.click();
const target = JSON.parse(call.dataset.calls)[0];
report("opened", document.querySelector("g.cluster.shown").dataset.graph === target);
report("legend", document.querySelectorAll(".legend").length);
"""


@pytest.mark.slow
@needs_chromium
def test_subgraphs_open_fitted_in_chromium(tmp_path):
    """The report: control-flow sub-graphs rendered tiny. Choosing one (or
    opening it from the node that calls it) fits it, at a readable scale."""
    page = tmp_path / "ctrl_while.html"
    write_graph(golden_model("ctrl_while"), str(page))
    results, _, png = in_chromium(tmp_path, page, OPEN_GRAPHS)
    assert results["options"] == ["c0", "c1", "c2", "c3"]
    for value in ("c1", "c2", "c3"):
        assert results[value] == [True, True, True, 1, True], value
    assert results["open_button"].startswith("open @")
    assert results["opened"] is True
    assert results["legend"] == 0               # no report, no legend
    assert png.startswith(b"\x89PNG") and len(png) > 20_000


@needs_chromium
def test_html_renders_in_headless_chromium(tmp_path):
    """One browser run takes a screenshot and dumps the DOM after the
    page's script ran: every node of every graph must be there."""
    case = "ctrl_while"                 # a main graph and three sub-graphs
    page = tmp_path / f"{case}.html"
    write_graph(golden_model(case), str(page))
    shot = tmp_path / "shot.png"
    done = run_chromium(tmp_path, f"--screenshot={shot}",
                        "--window-size=1600,1200", "--dump-dom",
                        f"file://{page}")
    assert done.returncode == 0, done.stderr[-2000:]
    png = shot.read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 20_000
    dom = done.stdout
    assert 'data-ready="1"' in dom               # the page's script ran
    names = all_node_names(case)
    for name in names:
        assert f'data-node="{html.escape(name, quote=True)}"' in dom
    assert f'<span id="count">{len(names)} nodes, 22 boxes' in dom
    assert dom.count('class="cluster"') == 4
