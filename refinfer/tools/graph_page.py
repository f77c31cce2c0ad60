"""Style and script of the self-contained HTML graph page (graphview.py).

The script only reads the inline SVG: pan (drag), zoom (wheel), "fit" and
"top" views (``page.html#fit`` opens on "fit"), search by node name, scope
or op, and a details panel. When it has set up, it marks
``<body data-ready="1">`` (the browser test checks it).
"""

PAGE_STYLE = """
body { margin: 0; font: 13px/1.4 system-ui, sans-serif; color: #222;
       display: flex; flex-direction: column; height: 100vh; }
header { padding: 6px 10px; border-bottom: 1px solid #ccc; background: #f7f7f7; }
header input { width: 22em; margin-left: 1em; }
.legend { margin-left: 1.5em; color: #555; }
.swatch { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 10px;
          border: 1px solid #888; vertical-align: middle; }
main { flex: 1; display: flex; min-height: 0; }
#view { flex: 1; overflow: hidden; cursor: grab; background: #fff; }
#graph { width: 100%; height: 100%; user-select: none; }
aside { width: 26em; padding: 8px 12px; border-left: 1px solid #ccc;
        overflow: auto; white-space: pre-wrap; font-family: monospace;
        font-size: 12px; background: #fcfcfc; }
.cluster rect { fill: #fafafa; stroke: #bbb; stroke-dasharray: 4 3; }
.ctitle { font: bold 13px monospace; fill: #444; }
.node rect { stroke: #555; stroke-width: 1; }
.node.call rect { stroke-dasharray: 3 2; }
.node.first rect { stroke: #000; stroke-width: 4; }
.node text { text-anchor: middle; font-family: monospace; pointer-events: none; }
.node .op { font-size: 12px; font-weight: bold; }
.node .type { font-size: 10px; fill: #444; }
.node:hover rect, .node.hit rect { stroke: #1565c0; stroke-width: 3; }
.edge { fill: none; stroke: #777; stroke-width: 1.2; }
.link { fill: none; stroke: #7b4fb0; stroke-width: 1.2; stroke-dasharray: 5 4; }
.elabel { font: 10px monospace; fill: #666; }
marker path { fill: #777; }
"""

PAGE_SCRIPT = r"""
(function () {
  const svg = document.getElementById("graph");
  const info = document.getElementById("info");
  const nodes = Array.from(svg.querySelectorAll("g.node"));
  let box = [0, 0, GRAPH_SIZE[0], GRAPH_SIZE[1]];

  function show() { svg.setAttribute("viewBox", box.map(v => v.toFixed(1)).join(" ")); }
  function aspect() {
    const r = svg.getBoundingClientRect(); return r.height / Math.max(r.width, 1);
  }
  function fitAll() {
    const a = aspect(), w = GRAPH_SIZE[0], h = GRAPH_SIZE[1];
    const width = Math.max(w, h / a);
    box = [(w - width) / 2, 0, width, width * a]; show();
  }
  function top() {
    const width = Math.max(Math.min(GRAPH_SIZE[0], 1400), 600);
    box = [Math.min(0, (GRAPH_SIZE[0] - width) / 2), 0, width, width * aspect()]; show();
  }
  function centreOn(g) {
    const r = g.querySelector("rect");
    const x = +r.getAttribute("x") + +r.getAttribute("width") / 2;
    const y = +r.getAttribute("y");
    box[0] = x - box[2] / 2; box[1] = y - box[3] / 3; show();
  }
  function details(g) {
    const data = JSON.parse(g.dataset.info || "{}");
    info.textContent = Object.entries(data).map(([k, v]) => k + ": " + v).join("\n");
    nodes.forEach(n => n.classList.remove("hit")); g.classList.add("hit");
  }

  nodes.forEach(g => g.addEventListener("click", e => { details(g); e.stopPropagation(); }));
  let drag = null;
  svg.addEventListener("mousedown", e => { drag = [e.clientX, e.clientY, box[0], box[1]]; });
  window.addEventListener("mouseup", () => { drag = null; });
  window.addEventListener("mousemove", e => {
    if (!drag) return;
    const scale = box[2] / svg.getBoundingClientRect().width;
    box[0] = drag[2] - (e.clientX - drag[0]) * scale;
    box[1] = drag[3] - (e.clientY - drag[1]) * scale; show();
  });
  svg.addEventListener("wheel", e => {
    e.preventDefault();
    const r = svg.getBoundingClientRect(), f = e.deltaY > 0 ? 1.15 : 1 / 1.15;
    const px = box[0] + (e.clientX - r.left) / r.width * box[2];
    const py = box[1] + (e.clientY - r.top) / r.height * box[3];
    box = [px - (px - box[0]) * f, py - (py - box[1]) * f, box[2] * f, box[3] * f]; show();
  }, { passive: false });
  document.getElementById("fit").addEventListener("click", fitAll);
  document.getElementById("top").addEventListener("click", top);
  document.getElementById("search").addEventListener("input", e => {
    const text = e.target.value.trim().toLowerCase();
    if (!text) return;
    const hit = nodes.find(
      g => (g.dataset.node + " " + g.dataset.info).toLowerCase().includes(text));
    if (hit) { details(hit); centreOn(hit); }
  });

  if (location.hash === "#fit") fitAll(); else top();
  const ops = nodes.filter(g => g.dataset.node).length;
  document.getElementById("count").textContent = ops + " nodes, " + nodes.length + " boxes";
  document.body.dataset.ready = "1";
})();
"""
