"""Exception types. All derive from RuntimeError, as MindSpore Lite's do."""


class MindIRError(RuntimeError):
    """A model file that cannot be read: names the file and what is wrong."""

    def __init__(self, path, message: str):
        super().__init__(f"{path}: {message}")
        self.path = str(path)


class EncryptedModelError(MindIRError):
    """The file is an encrypted MindIR and no usable key was given."""


class UnsupportedOpsError(MindIRError):
    """The model uses primitives refinfer does not implement (all listed)."""

    def __init__(self, path, missing: dict[str, list[str]]):
        lines = [f"  {op} (used by {len(nodes)} node(s), e.g. {nodes[0]})"
                 for op, nodes in sorted(missing.items())]
        super().__init__(path, f"{len(missing)} unsupported op(s):\n"
                         + "\n".join(lines))
        self.missing = missing


class GraphError(MindIRError):
    """A structurally invalid graph (undefined name, cycle, bad arguments)."""


class NodeError(RuntimeError):
    """A kernel failed: names the node, its op and its inputs."""

    def __init__(self, node: str, op: str, inputs: str, cause: BaseException):
        super().__init__(f"node {node!r} (op {op}) failed: "
                         f"{type(cause).__name__}: {cause}\n  inputs: {inputs}")
        self.node, self.op = node, op


class CallDepthError(NodeError):
    """Graph calls nested deeper than the model's ``max_call_depth``."""
