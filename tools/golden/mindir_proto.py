"""Read a .mindir file into MindSpore's own protobuf classes (dev tooling only).

The wheel's ``mind_ir_pb2`` is old-style generated code: it needs the pure-Python
protobuf implementation, which must be selected before protobuf is first imported.
"""
import os

os.environ.setdefault("PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION", "python")

from mindspore.train import mind_ir_pb2

CIPHER_MAGICS = {0x7F3A5ED8: "AES-GCM", 0x7F3A5ED9: "AES-CBC", 0x7F3A5EDA: "SM4-CBC"}


def cipher_mode(data):
    """The encryption mode named by a file's 4-byte magic, or None for a plain file."""
    return CIPHER_MAGICS.get(int.from_bytes(data[:4], "little")) if len(data) >= 4 else None


def read_model(path, dec_key=None, dec_mode=None):
    """Parse ``path`` as ``mind_ir.ModelProto``; decrypts with MindSpore's own code if needed."""
    data = open(path, "rb").read()
    if cipher_mode(data):
        if dec_key is None:
            raise ValueError(f"{path} is encrypted ({cipher_mode(data)}); a key is needed")
        from mindspore._c_expression import _decrypt  # pylint: disable=import-outside-toplevel
        data = _decrypt(str(path), dec_key, len(dec_key), dec_mode or cipher_mode(data))
    model = mind_ir_pb2.ModelProto()
    model.ParseFromString(data)
    return model
