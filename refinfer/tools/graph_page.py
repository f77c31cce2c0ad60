"""Style and script of the self-contained HTML graph page (graphview.py).

The script only reads the inline SVG: pan (drag), zoom (wheel), "fit" and
"top" views, a search by node name, scope or op that highlights every match
and steps through them (Enter / Shift+Enter, the arrow buttons), a graph
chooser that shows one (sub-)graph fitted to the window, a jump to the
first divergence of a bisect report, and a details panel (a node calling
or passing a sub-graph offers to open it). ``page.html#fit`` opens on the
whole drawing, ``#first`` on the first divergence, ``#c2`` on the third
graph. When it has set up, it marks ``<body data-ready="1">`` (the browser
test checks it).
"""

PAGE_STYLE = """
body { margin: 0; font: 13px/1.4 system-ui, sans-serif; color: #222;
       display: flex; flex-direction: column; height: 100vh; }
header { padding: 6px 10px; border-bottom: 1px solid #ccc; background: #f7f7f7; }
header input { width: 22em; margin-left: 1em; }
header select { max-width: 24em; margin-left: 1em; }
#matches { color: #555; min-width: 5em; display: inline-block; }
#first { font-weight: bold; }
.legend { margin-left: 1.5em; color: #555; }
.swatch { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 10px;
          border: 1px solid #888; vertical-align: middle; }
main { flex: 1; display: flex; min-height: 0; }
#view { flex: 1; overflow: hidden; cursor: grab; background: #fff; }
#graph { width: 100%; height: 100%; user-select: none; }
aside { width: 26em; padding: 8px 12px; border-left: 1px solid #ccc;
        overflow: auto; white-space: pre-wrap; font-family: monospace;
        font-size: 12px; background: #fcfcfc; }
aside button { font-family: monospace; margin: 6px 6px 0 0; }
.cluster rect { fill: #fafafa; stroke: #bbb; stroke-dasharray: 4 3; }
.cluster.shown rect { stroke: #7b4fb0; stroke-width: 2; }
.ctitle { font: bold 13px monospace; fill: #444; }
.node rect { stroke: #555; stroke-width: 1; }
.node.call rect { stroke-dasharray: 3 2; }
.node.first rect { stroke: #000; stroke-width: 4; }
.node text { text-anchor: middle; font-family: monospace; pointer-events: none; }
.node .op { font-size: 12px; font-weight: bold; }
.node .type { font-size: 10px; fill: #444; }
.node.match rect { stroke: #f9a825; stroke-width: 3; }
.node:hover rect, .node.hit rect { stroke: #1565c0; stroke-width: 4; }
.edge { fill: none; stroke: #777; stroke-width: 1.2; }
.link { fill: none; stroke: #7b4fb0; stroke-width: 1.2; stroke-dasharray: 5 4; }
.elabel { font: 10px monospace; fill: #666; }
marker path { fill: #777; }
"""

PAGE_SCRIPT = r"""
(function () {
  const svg = document.getElementById("graph");
  const info = document.getElementById("info");
  const search = document.getElementById("search");
  const counter = document.getElementById("matches");
  const chooser = document.getElementById("graphs");
  const nodes = Array.from(svg.querySelectorAll("g.node"));
  const READABLE = 1400;      // widest view (drawing units) a box reads in
  let box = [0, 0, GRAPH_SIZE[0], GRAPH_SIZE[1]];
  let matches = [], current = -1;

  function show() { svg.setAttribute("viewBox", box.map(v => v.toFixed(1)).join(" ")); }
  function aspect() {
    const r = svg.getBoundingClientRect(); return r.height / Math.max(r.width, 1);
  }
  // Show the rectangle x, y, w, h whole, centred, at most 'widest' wide
  // (a small graph is not blown up past a readable scale).
  function fitRect(x, y, w, h, widest) {
    const a = aspect(), width = Math.min(Math.max(w, h / a, 1), widest || Infinity);
    box = [x + w / 2 - width / 2, Math.min(y, y + h / 2 - width * a / 2), width, width * a];
    show();
  }
  function fitAll() { fitRect(0, 0, GRAPH_SIZE[0], GRAPH_SIZE[1]); }
  function top() {
    const width = Math.max(Math.min(GRAPH_SIZE[0], READABLE), 600);
    box = [Math.min(0, (GRAPH_SIZE[0] - width) / 2), 0, width, width * aspect()]; show();
  }
  function rectOf(g) {
    const r = g.querySelector("rect");
    return ["x", "y", "width", "height"].map(k => +r.getAttribute(k));
  }
  // Centre a node, zoomed in to a readable scale if the view is wider.
  function centreOn(g) {
    const [x, y, w, h] = rectOf(g), a = aspect();
    const width = Math.min(box[2], READABLE);
    box = [x + w / 2 - width / 2, y + h / 2 - width * a / 3, width, width * a]; show();
  }
  function showGraph(id) {
    const cluster = document.getElementById(id);
    if (!cluster) return;
    svg.querySelectorAll("g.cluster").forEach(c => c.classList.toggle("shown", c === cluster));
    const [x, y, w, h] = rectOf(cluster);
    fitRect(x - 10, y - 10, w + 20, h + 20, READABLE);
    if (chooser) chooser.value = id;
  }
  function details(g) {
    const data = JSON.parse(g.dataset.info || "{}");
    info.textContent = Object.entries(data).map(([k, v]) => k + ": " + v).join("\n");
    JSON.parse(g.dataset.calls || "[]").forEach(name => {
      const cluster = svg.querySelector('g.cluster[data-graph="' + CSS.escape(name) + '"]');
      if (!cluster) return;
      const open = document.createElement("button");
      open.textContent = "open @" + name;
      open.addEventListener("click", () => showGraph(cluster.id));
      info.appendChild(document.createElement("br")); info.appendChild(open);
    });
    nodes.forEach(n => n.classList.remove("hit")); g.classList.add("hit");
  }
  function focusNode(g) { details(g); centreOn(g); }

  function find() {
    const text = search.value.trim().toLowerCase();
    nodes.forEach(n => n.classList.remove("match"));
    matches = !text ? [] : nodes.filter(
      g => (g.dataset.node + " " + g.dataset.info).toLowerCase().includes(text));
    matches.forEach(n => n.classList.add("match"));
    current = -1;
    if (matches.length) step(1); else counter.textContent = text ? "no match" : "";
  }
  function step(direction) {
    if (!matches.length) return;
    current = (current + direction + matches.length) % matches.length;
    counter.textContent = (current + 1) + " of " + matches.length;
    focusNode(matches[current]);
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
  document.getElementById("prev").addEventListener("click", () => step(-1));
  document.getElementById("next").addEventListener("click", () => step(1));
  search.addEventListener("input", find);
  search.addEventListener("keydown", e => {
    if (e.key === "Enter") { e.preventDefault(); step(e.shiftKey ? -1 : 1); }
  });
  window.addEventListener("keydown", e => {
    if (e.key === "/" && document.activeElement !== search) {
      e.preventDefault(); search.focus();
    }
  });
  if (chooser) chooser.addEventListener("change", () => showGraph(chooser.value));
  const first = nodes.find(g => g.classList.contains("first"));
  const jump = document.getElementById("first");
  if (jump) jump.addEventListener("click", () => focusNode(first));

  if (location.hash === "#fit") fitAll();
  else if (location.hash === "#first" && first) focusNode(first);
  else if (/^#c\d+$/.test(location.hash)) showGraph(location.hash.slice(1));
  else top();
  const ops = nodes.filter(g => g.dataset.node).length;
  document.getElementById("count").textContent = ops + " nodes, " + nodes.length + " boxes";
  document.body.dataset.ready = "1";
})();
"""
