"""Golden data, comparison and layer-by-layer debugging tools.

- :mod:`.golden`: run a model, write its inputs and outputs (``.npy``,
  raw ``.bin``, MindSpore Lite calibration text) and a manifest.
- :mod:`.compare`: compare tensor files with per-tensor metrics and verdicts.
- :mod:`.dump`: stream every selected node's output to disk as it runs.
- :mod:`.debug`: ``run_debug`` keeps the intermediates you ask for.
- :mod:`.metrics`: the metric functions; :mod:`.tensorio`: the file formats.

See docs/debugging.md.
"""
