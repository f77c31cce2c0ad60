"""DepthToSpace and SpaceToDepth."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.window import check_4d


def _block(op, x, block_size):
    check_4d(x, op)
    block = int(block_size)
    if block < 2:
        raise ValueError(f"{op}: block_size must be >= 2, got {block}")
    return block


@register("DepthToSpace", family="shape", dtypes=ALL,
          convert={"block_size": args.scalar}, no_kernel="copy")
def depth_to_space(x, block_size):
    """Moves channel blocks into b x b spatial tiles (NCHW, DCR order).

    y[n, c, h * b + i, w * b + j] = x[n, (i * b + j) * C' + c, h, w] with
    C' = C / b^2. Arguments (classic PRIMITIVE): x (N, C, H, W), C divisible
    by b^2; block_size b >= 2 (attribute). All dtypes.
    """
    b = _block("DepthToSpace", x, block_size)
    n, c, h, w = x.shape
    if c % (b * b):
        raise ValueError(f"DepthToSpace: channels {c} not divisible by block_size^2 "
                         f"{b * b}")
    tiles = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    return tiles.reshape(n, c // (b * b), h * b, w * b)


@register("SpaceToDepth", family="shape", dtypes=ALL,
          convert={"block_size": args.scalar}, no_kernel="copy")
def space_to_depth(x, block_size):
    """Moves b x b spatial tiles into channels (NCHW): the inverse of DepthToSpace.

    y[n, (i * b + j) * C + c, h, w] = x[n, c, h * b + i, w * b + j].
    Arguments (classic PRIMITIVE): x (N, C, H, W), H and W divisible by b;
    block_size b >= 2 (attribute). All dtypes.
    """
    b = _block("SpaceToDepth", x, block_size)
    n, c, h, w = x.shape
    if h % b or w % b:
        raise ValueError(f"SpaceToDepth: height {h} and width {w} must be divisible by "
                         f"block_size {b}")
    tiles = x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return tiles.reshape(n, c * b * b, h // b, w // b)
