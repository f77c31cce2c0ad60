"""Chunk."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL, require_tensors
from ._ref.shape import axis_length, even_sizes, split_sizes


@register("Chunk", "ChunkView", family="shape", dtypes=ALL,
          convert={"chunks": args.scalar, "dim": args.scalar}, no_kernel="copy")
def chunk(input, chunks, dim=0):
    """Split along dim into at most ``chunks`` equal pieces; returns a tuple.

    Pieces have length ceil(n / chunks), the last one shorter. As
    torch.chunk, fewer pieces come back when the length does not allow
    ``chunks`` of them (length 5, chunks 4: pieces of 2, 2, 1); an empty
    axis gives one empty piece.

    Arguments: input; chunks (int > 0); dim=0 (negative allowed). All dtypes.
    ChunkView (the view form mint exports) gives the same pieces.
    """
    require_tensors("Chunk", input=input)
    chunks = args.integer(chunks)
    if chunks <= 0:
        raise ValueError(f"Chunk: chunks must be > 0, got {chunks}")
    length = axis_length(input, dim)[1]
    return split_sizes(input, even_sizes(length, max(-(-length // chunks), 1)), dim)
