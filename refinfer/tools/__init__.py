"""Golden data, comparison and layer-by-layer debugging tools.

- :mod:`.golden`: run a model, write its inputs and outputs (``.npy``,
  raw ``.bin``, MindSpore Lite calibration text) and a manifest.
- :mod:`.compare`: compare tensor files with per-tensor metrics and verdicts.
- :mod:`.dump`: stream every selected node's output to disk as it runs.
- :mod:`.bisect`: compare node by node with a reference as the model runs
  and report the first divergent node.
- :mod:`.debug`: ``run_debug`` keeps the intermediates you ask for.
- :mod:`.explain`, :mod:`.walk`: the graph as a program; a step-by-step run.
- :mod:`.graphview` (+ :mod:`.layout`, :mod:`.graph_page`): drawings of
  the graph (.html, .svg, .dot), coloured by a compare or bisect report.
- :mod:`.commands`: the sub-commands above for ``refinfer``.
- :mod:`.metrics`, :mod:`.tensorio`, :mod:`.nodes`, :mod:`.progress`,
  :mod:`.common`: metrics, file formats, node selection and naming,
  progress bars, model loading.

The float64 oracle these tools offer (``--float64``) is a plan-time
transformation: refinfer/precision.py. See docs/debugging.md.
"""
