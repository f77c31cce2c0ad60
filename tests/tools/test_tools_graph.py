"""``refinfer graph``: .dot, .svg and a self-contained .html page, checked
in a real headless Chromium when one is installed."""
import html
import re
import shutil
import subprocess

import pytest

from refinfer.runtime import LoadedModel
from refinfer.tools import bisect as tools_bisect
from refinfer.tools import dump as tools_dump
from refinfer.tools.graphview import build_drawing, to_dot, write_graph

from helpers_tools import (golden_file, golden_inputs, golden_model,
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


def run_chromium(tmp_path, *args) -> subprocess.CompletedProcess:
    profile = tmp_path / "profile"
    return subprocess.run([CHROMIUM, *CHROMIUM_FLAGS,
                           f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH: the HTML "
                    "graph is not checked in a browser (Debian: apt-get "
                    "install chromium)")
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
