"""Matrix products with a constant weight: pack the weight once, fuse the
bias and the activation into one pass over the product.

Patterns (the intermediate used by the next node only)::

    MatMul(x, W, transpose_a=False, tb) | MatMulExt(x, W) | Dense(x, W[, b])
    [-> BiasAdd(., b) | Add(., b)] [-> Reshape(., shape)] [-> an activation
    (fused.activation: ReLU, ReLU6, HSwish, Sigmoid, Tanh, GeLU, FastGeLU,
    SiLU, HSigmoid, Mish, GeluExt)]

with W a 2-D float constant and b a constant vector along the last axis.
The weight is taken as (K, N) (a transposed view for transpose_b and
Dense), or as it was stored at load for these products (:func:`store_weights`:
packed for our own product, the only copy kept); the fused node computes
act(x @ W + b) with :func:`ops._kernels.gemm.fused_matmul`. A constant Reshape
between the bias and the activation (what nn.Dense on a 3-D input exports)
is absorbed: the activation is elementwise, so it commutes with it.

And a product of two computed operands reads a Transpose's input through the
permuted view instead of the Transpose's copy (:func:`fuse_transposed_operands`)::

    Transpose(x, dims) -> BatchMatMul(., y) | BatchMatMul(y, .)

where dims keeps x's last axis among the last two (each matrix then has a
unit stride, and NumPy's matmul hands it to BLAS as it is): attention's
heads, split by Reshape and Transpose (0, 2, 1, 3) for its query, key and
value (BERT-base: 36 copies of 128 x 768 floats a predict).
"""
from __future__ import annotations

import math

import numpy as np

from ..format.reader import MindIRFile
from ..graph import Model, Node, Ref, RefKind
from ..ops._kernels import packed as packed_kernels, program
from ..ops._kernels.gemm import fused_matmul, transposed_batch_mat_mul
from ..stored import StoredWeight
from .fused import GraphEditor, activation, const, fused_node, op_name

FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


# the ops a fused group starts from
STARTS = frozenset({"MatMul", "MatMulExt", "Dense"})
PRODUCTS = frozenset({"BatchMatMul"})   # (fuse_transposed_operands)


def fuse_matmuls(editor: GraphEditor) -> None:
    editor.fuse_each(STARTS, _fuse)


def _fuse(editor: GraphEditor, node: Node) -> None:
    packed = _packed_weight(node)
    if packed is None:
        return
    group, bias, act = [node], _dense_bias(node, packed), program.ACT_NONE
    if bias is Ellipsis:
        return
    user = editor.sole_user(node)
    if bias is None and op_name(user) in ("BiasAdd", "Add"):
        bias = _bias_of(user, node, packed)
        if bias is not None:
            group.append(user)
            user = editor.sole_user(user)
    shape = None
    if op_name(user) == "Reshape" and const(user, 1) is not Ellipsis \
            and activation(editor.sole_user(user)) is not None:
        shape = const(user, 1)      # act(reshape(y)) = reshape(act(y))
        group.append(user)
        user = editor.sole_user(user)
    if activation(user) is not None:
        act = activation(user)
        group.append(user)
    bias = None if bias is None else np.array(bias)    # a writable copy
    fused = fused_node(group, fused_matmul, [node.args[0].ref],
                       (packed, bias, act, shape))
    editor.replace(group, fused)


def fuse_transposed_operands(editor: GraphEditor) -> None:
    editor.fuse_each(PRODUCTS, _fuse_operands)


def _fuse_operands(editor: GraphEditor, product: Node) -> None:
    """The product and the Transposes only it reads, as one node."""
    flags = (const(product, 2), const(product, 3))
    if any(flag not in (False, True) for flag in flags):
        return
    group, inputs, dims = [], [], []
    for arg in product.args[:2]:
        source = editor.producer(arg.ref)
        permuted = view_dims(source) if source is not None \
            and editor.sole_user(source) is product else None
        if permuted is None:
            inputs.append(arg.ref)
        else:
            group.append(source)
            inputs.append(source.args[0].ref)
        dims.append(permuted)
    if group:
        group.append(product)
        editor.replace(group, fused_node(group, transposed_batch_mat_mul,
                                         inputs, (*dims, *flags)))


def view_dims(node: Node):
    """A Transpose's constant dims where its output, as a view, keeps its
    input's last axis among the last two; else None."""
    dims = const(node, 1) if op_name(node) == "Transpose" else None
    if not isinstance(dims, tuple) or len(dims) < 2 \
            or sorted(dims) != list(range(len(dims))):
        return None
    return dims if len(dims) - 1 in dims[-2:] else None


def _packed_weight(node: Node):
    """The constant weight as a (K, N) array (a transposed weight: a view,
    which BLAS reads as it is), its packed layout where it is stored so
    (:func:`store_weights`), or None."""
    weight, transpose = _weight(node)
    if isinstance(weight, StoredWeight):
        return weight.layout if weight.transposed == transpose else None
    if weight is None:
        return None
    return weight.T if transpose else weight


def _weight(node: Node) -> tuple:
    """(weight, read transposed) of a product this pass fuses, or (None,
    None): MatMul(x, W, False, tb), MatMulExt(x, W), Dense(x, W), W a 2-D
    float constant (an array, or a :class:`StoredWeight`)."""
    name, weight = op_name(node), const(node, 1)
    if name not in STARTS or not isinstance(weight, (np.ndarray, StoredWeight)) \
            or weight.ndim != 2 or weight.dtype not in FLOATS:
        return None, None
    if name == "MatMul":
        if const(node, 2) is not False or const(node, 3) not in (False, True):
            return None, None
        return weight, const(node, 3)
    return weight, name == "Dense"


def store_weights(file: MindIRFile, read: dict[int, tuple]) -> None:
    """Stores each weight of ``file`` that products read (``read``: by id,
    whether read transposed and the fewest rows a product of it has;
    :func:`weights_products_read`) in the layout they read: packed for our
    own product where it serves the dtype and the products have a tile's
    rows (a :class:`StoredWeight`: ops/_kernels/packed.py), else a
    transposed weight as W^T contiguous, viewed as W. Only weights that
    own their memory are stored anew, each original freed as its copy is
    made where nothing else holds it (the caller drops its model first),
    so memory grows by one weight at most; views (a mapped weight file,
    shared memory where the master published a weight plain) stay as they
    are, read by BLAS. ``file``'s parameter dicts are changed in place.

    Measured on an AMD EPYC with AVX-512 (Zen 4), one thread: BERT's and
    GPT-2's products through the packed weight took 0.93-1.10x ONNX
    Runtime's time (which packs its weights once too), through OpenBLAS
    1.03-1.25x (it packs the weight at every call, and ran 0.89-0.95x as
    fast again through a transposed operand: hence the transposed layout
    where nothing packs). A product of fewer rows than a tile (a CNN's
    classifier) is bound by reading its weight, which BLAS's GEMV does
    once, while the tile would compute all its rows for each."""
    for graph in file.graphs:
        for name, weight in graph.parameters.items():
            if id(weight) in read and weight.base is None:
                graph.parameters[name] = _stored(weight, *read[id(weight)])


def _stored(weight: np.ndarray, transposed: bool, rows: float):
    """``weight`` in the layout its products read (:func:`store_weights`)."""
    if packed_kernels.serves(weight.dtype) and rows >= packed_kernels.TILE_ROWS:
        return StoredWeight(packed_kernels.PackedRight(
            weight.T if transposed else weight), transposed)
    return _transposed_layout(weight) if transposed else weight


def weights_products_read(model: Model) -> dict[int, tuple]:
    """{id: (read transposed, fewest rows)} of the constant arrays that every
    use in ``model`` reads as the weight of a product this pass fuses, all
    alike (MatMul's transpose_b and Dense read W (N, K), as MindSpore
    stores it, transposed), with the fewest rows of x among those products
    (inf where the shapes are not known)."""
    read, rows, other = {}, {}, set()
    for graph in model.graphs.values():
        for node in graph.nodes:
            weight, transpose = _fused_weight(node)
            for k, arg in enumerate(node.args):
                if arg.ref.kind is not RefKind.CONST:
                    continue
                for value in _arrays(arg.ref.key):
                    key = id(value)
                    if k != 1 or value is not weight or \
                            read.setdefault(key, transpose) != transpose:
                        other.add(key)
                    else:
                        rows[key] = min(rows.get(key, math.inf), _rows(node))
        if graph.output.kind is RefKind.CONST:
            other.update(id(value) for value in _arrays(graph.output.key))
    return {key: (transpose, rows[key]) for key, transpose in read.items()
            if key not in other}


def _rows(node: Node) -> float:
    """The rows of a product's x as its output's declared shape says (inf
    where it does not)."""
    shape = node.abstract.shape if node.abstract is not None else (-1,)
    return math.prod(shape[:-1]) if min(shape, default=0) >= 0 else math.inf


def _fused_weight(node: Node) -> tuple:
    """:func:`_weight` where the pass fuses the node, else (None, None)."""
    weight, transpose = _weight(node)
    if weight is None or _dense_bias(node, _packed_weight(node)) is Ellipsis:
        return None, None
    return weight, transpose


def _arrays(value):
    """The arrays in a constant (nested tuples and lists included)."""
    if isinstance(value, np.ndarray):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _arrays(item)


def _transposed_layout(weight: np.ndarray) -> np.ndarray:
    """``weight``'s values, stored transposed: W^T contiguous, viewed as W."""
    copy = np.ascontiguousarray(weight.T)
    copy.flags.writeable = weight.flags.writeable
    return copy.T


def _dense_bias(node: Node, packed: np.ndarray):
    """Dense's own bias: None, the vector, or Ellipsis (cannot fuse)."""
    if op_name(node) != "Dense" or len(node.args) < 3:
        return None
    bias = const(node, 2)
    if bias is None:
        return None
    return bias if _is_vector_for(bias, packed) else Ellipsis


def _bias_of(user: Node, product: Node, packed: np.ndarray):
    """The constant vector ``user`` adds along the product's last axis."""
    refs = [a.ref for a in user.args[:2]]
    mine = Ref(RefKind.NODE, product.name)
    if refs.count(mine) != 1:
        return None
    index = 1 if refs[0] == mine else 0
    if op_name(user) == "BiasAdd" and (index != 1 or const(user, 2) != "NCHW"
                                       or product.abstract is None
                                       or len(product.abstract.shape) != 2):
        return None     # BiasAdd's channel axis is 1: the last only in 2-D
    bias = const(user, index)
    return bias if _is_vector_for(bias, packed) else None


def _is_vector_for(bias, packed: np.ndarray) -> bool:
    return (isinstance(bias, np.ndarray) and bias.dtype == packed.dtype
            and bias.shape == packed.shape[1:])
