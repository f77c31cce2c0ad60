"""Plan-time rewrites for the fast backends, done once per model at build.

The reference backend never runs these: its plan is the graph, op by op,
so the oracle stays exact. For the fast backends each graph is rewritten:

1. ``conv``: BatchNorm folded into the preceding Conv2D's weights; bias,
   residual Add and activation fused into the convolution's output pass;
   weights packed once in the kernel's layout (contiguous; Winograd
   F(2x2, 3x3) transformed for 3x3 stride-1 convolutions).
2. ``separable``: inverted residual blocks (1x1 expansion, 3x3
   depthwise, 1x1 projection, as ``conv`` fused them) run as one step,
   channel-last inside.
3. ``gemm``: MatMul / Dense with a constant weight: bias and activation
   (through a constant Reshape) fused into the product's output pass.
4. ``attention``: the scores' product, scale, mask, Softmax and the
   context's product as one step, reading and writing the heads through
   the views of their Transposes; a BatchMatMul elsewhere (``gemm``
   again) reads a Transpose's input through the permuted view.
5. ``elementwise``: chains of float elementwise ops run as one program
   over the data (:mod:`ops._fast`), intermediates never materialised.
6. ``conv`` again: a fused convolution writes its result over its
   residual where nothing else reads the residual any more.

A fused node keeps the last fused node's name (consumers are unchanged)
and falls back to the original nodes' reference kernels when its inputs
are not what the fast kernel expects, so fusion never changes which inputs
are accepted; results stay within the op tolerances of the reference.

Shapes are pre-computed per input shape the first time they are seen
(convolution geometry, elementwise layouts, pooling window counts: the
build's warm-up run fills those caches), which keeps a resized model
correct without a rebuild. Activations are not put in a preallocated arena:
a ResNet-50 predict had no page faults after the first (the allocator keeps
freed blocks), and the large temporaries (im2col columns, Winograd tiles)
reuse per-thread scratch buffers (``ops._fast.scratch``).
"""
from __future__ import annotations

from operator import attrgetter

from ..graph import Graph, Model
from . import attention, conv, gemm, separable
from .elementwise import fuse_elementwise
from .fused import GraphEditor

# Each pass, with the ops its groups start from (None: any op); a graph
# without them is not walked by it
PASSES = ((conv.fuse_convolutions, conv.STARTS),
          (separable.fuse_inverted_residuals, separable.STARTS),
          (gemm.fuse_matmuls, gemm.STARTS),
          (attention.fuse_attention, attention.STARTS),
          (gemm.fuse_transposed_operands, gemm.PRODUCTS),
          (fuse_elementwise, None),
          (conv.write_onto_residuals, conv.STARTS))


def optimize(model: Model) -> dict[str, Graph]:
    """Every graph of ``model`` rewritten by :data:`PASSES` (new Graph
    objects where a pass fused something; the model itself is not
    changed)."""
    pinned = set().union(*(g.free_vars for g in model.graphs.values()))
    graphs = {}
    for name, graph in model.graphs.items():
        present = _op_names(graph)
        for rewrite, starts in PASSES:
            if starts is None or not starts.isdisjoint(present):
                graph = _rewritten(graph, rewrite, pinned)
        graphs[name] = graph
    return graphs


def _op_names(graph: Graph) -> set[str]:
    """The names of the ops the graph's nodes apply (graph calls: none)."""
    ops = list(map(_op_of, graph.nodes))    # (walks in C: a graph may
    distinct = dict(zip(map(id, ops), ops))     # have a million nodes)
    return {op.name for op in distinct.values() if op is not None}


_op_of = attrgetter("op")


def _rewritten(graph: Graph, rewrite, pinned: set) -> Graph:
    """``graph`` after one pass; its editor (a few entries per node) is
    gone before the next pass makes its own."""
    editor = GraphEditor(graph, pinned)
    rewrite(editor)
    return editor.result()
