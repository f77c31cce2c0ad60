"""Conv3D, the transposed convolutions (Conv2DBackpropInput / Conv2DTranspose,
Conv3DTranspose, ConvTranspose2D) and the PyTorch-style mint convolutions
against direct float64 loops: a gather per output position for convolutions,
a scatter per input position for transposed ones."""
import itertools
import math

import numpy as np
import pytest

from tolerances import tolerance

from refinfer.registry import get_op


def same_pads(size, k, s, d):
    out = math.ceil(size / s)
    total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
    return total // 2, total - total // 2


def group_slices(groups, c_group, per_group):
    """(input-channel slice, output-channel slice) of each group."""
    return [(slice(g * c_group, (g + 1) * c_group),
             slice(g * per_group, (g + 1) * per_group)) for g in range(groups)]


def naive_conv(x, w, stride, dilation, pads, groups):
    """y[n, o, p...] = sum over in-bounds taps of x * w; pads (before, after)
    per spatial axis; float64."""
    spatial = x.shape[2:]
    kernel = w.shape[2:]
    out = [(spatial[a] + sum(pads[a]) - (kernel[a] - 1) * dilation[a] - 1)
           // stride[a] + 1 for a in range(len(spatial))]
    y = np.zeros((x.shape[0], w.shape[0], *out))
    for pos in itertools.product(*map(range, out)):
        for tap in itertools.product(*map(range, kernel)):
            src = [pos[a] * stride[a] + tap[a] * dilation[a] - pads[a][0]
                   for a in range(len(spatial))]
            if not all(0 <= s < spatial[a] for a, s in enumerate(src)):
                continue
            for ins, outs in group_slices(groups, w.shape[1], w.shape[0] // groups):
                xs = x[(slice(None), ins) + tuple(src)].astype(np.float64)
                y[(slice(None), outs) + pos] += xs @ w[(outs, slice(None)) + tap].T
    return y


def naive_conv_transpose(dout, w, stride, dilation, pads, out_size, groups):
    """x[n, c, i*s + k*d - before] += dout[n, o, i] * w[o, c, k]; w is the
    forward weight (O, C/groups, *K); float64."""
    x = np.zeros((dout.shape[0], w.shape[1] * groups, *out_size))
    for pos in itertools.product(*map(range, dout.shape[2:])):
        for tap in itertools.product(*map(range, w.shape[2:])):
            dst = [pos[a] * stride[a] + tap[a] * dilation[a] - pads[a][0]
                   for a in range(len(out_size))]
            if not all(0 <= d < out_size[a] for a, d in enumerate(dst)):
                continue
            for ins, outs in group_slices(groups, w.shape[1], w.shape[0] // groups):
                ds = dout[(slice(None), outs) + pos].astype(np.float64)
                x[(slice(None), ins) + tuple(dst)] += ds @ w[(outs, slice(None)) + tap]
    return x


# --- Conv3D ------------------------------------------------------------------------

@pytest.mark.parametrize("pad_mode", ["valid", "same", "pad"])
@pytest.mark.parametrize("stride,dilation,group", [
    ((1, 1, 1), (1, 1, 1), 1), ((2, 1, 2), (1, 2, 1), 1),
    ((1, 2, 1), (1, 1, 1), 2), ((1, 1, 1), (2, 1, 1), 4)])
def test_conv3d(call, close, rng, pad_mode, stride, dilation, group):
    x = rng.standard_normal((2, 4, 5, 6, 5))
    w = rng.standard_normal((4, 4 // group, 2, 3, 2))
    pad = (1, 0, 2, 1, 0, 1) if pad_mode == "pad" else (0,) * 6
    if pad_mode == "same":
        pads = [same_pads(x.shape[2 + a], w.shape[2 + a], stride[a],
                          dilation[a]) for a in range(3)]
    else:
        pads = [(pad[2 * a], pad[2 * a + 1]) for a in range(3)]
    got = call("Conv3D", x, w, out_channel=4, kernel_size=w.shape[2:],
               pad_mode=pad_mode, pad=pad, stride=(1, 1) + stride,
               dilation=(1, 1) + dilation, groups=group, format="NCDHW")
    close(got, naive_conv(x, w, stride, dilation, pads, group))


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_conv3d_dtypes(call, close, rng, dtype):
    x = rng.standard_normal((1, 2, 4, 4, 4)).astype(dtype)
    w = rng.standard_normal((3, 2, 3, 3, 3)).astype(dtype)
    got = call("Conv3D", x, w, pad_mode="pad", pad=1)
    close(got, naive_conv(x, w, (1,) * 3, (1,) * 3, [(1, 1)] * 3, 1), dtype,
          **tolerance("Conv3D", dtype))


def test_conv3d_uses_pad_list_in_pad_mode(call, close, rng):
    x, w = rng.standard_normal((1, 1, 3, 3, 3)), rng.standard_normal((1, 1, 2, 2, 2))
    got = call("Conv3D", x, w, pad_mode="pad", pad=0, pad_list=(1, 0, 0, 1, 1, 1))
    close(got, naive_conv(x, w, (1,) * 3, (1,) * 3, [(1, 0), (0, 1), (1, 1)], 1))


@pytest.mark.parametrize("bad", [dict(kernel_size=(3, 3, 3)), dict(out_channel=5),
                                 dict(groups=3)])
def test_conv3d_rejects_mismatches(call, rng, bad):
    x, w = rng.standard_normal((1, 4, 3, 3, 3)), rng.standard_normal((4, 4, 2, 2, 2))
    with pytest.raises(ValueError):
        call("Conv3D", x, w, **bad)


def test_conv3d_empty_batch(call):
    got = call("Conv3D", np.zeros((0, 2, 3, 3, 3)), np.ones((4, 2, 2, 2, 2)))
    assert got.shape == (0, 4, 2, 2, 2)


# --- transposed convolutions ---------------------------------------------------------

@pytest.mark.parametrize("name", ["Conv2DBackpropInput", "Conv2DTranspose"])
@pytest.mark.parametrize("pad_mode,pad", [("valid", (0, 0, 0, 0)),
                                          ("same", (0, 0, 0, 0)),
                                          ("pad", (1, 0, 1, 2))])
@pytest.mark.parametrize("stride,dilation,group", [
    ((1, 1), (1, 1), 1), ((2, 2), (1, 1), 1), ((2, 1), (1, 2), 2),
    ((3, 2), (2, 1), 3)])
def test_conv2d_backprop_input(call, close, rng, name, pad_mode, pad, stride,
                               dilation, group):
    c_in, c_out, k = 3 * group, 2 * group, (3, 2)
    w = rng.standard_normal((c_out, c_in // group) + k)
    in_hw = (7, 6)
    if pad_mode == "same":
        pads = [same_pads(in_hw[a], k[a], stride[a], dilation[a])
                for a in range(2)]
    else:
        pads = [(pad[0], pad[1]), (pad[2], pad[3])]
    out_hw = [(in_hw[a] + sum(pads[a]) - (k[a] - 1) * dilation[a] - 1)
              // stride[a] + 1 for a in range(2)]
    dout = rng.standard_normal((2, c_out, *out_hw))
    got = call(name, dout, w, (2, c_in) + in_hw, out_channel=c_out,
               kernel_size=k, pad_mode=pad_mode, pad=pad, pad_list=pad,
               stride=(1, 1) + stride, dilation=(1, 1) + dilation,
               group=group, format="NCHW")
    close(got, naive_conv_transpose(dout, w, stride, dilation, pads, in_hw,
                                    group))


def test_conv2d_backprop_input_is_the_adjoint_of_conv2d(call, rng):
    """<conv(x), g> == <x, conv_transpose(g)> for the same weight."""
    x, w = rng.standard_normal((1, 4, 8, 7)), rng.standard_normal((6, 2, 3, 3))
    y = call("Conv2D", x, w, pad_mode="pad", pad=(1, 2, 0, 1), stride=2,
             dilation=1, group=2)
    g = rng.standard_normal(y.shape)
    xt = call("Conv2DBackpropInput", g, w, x.shape, pad_mode="pad",
              pad=(1, 2, 0, 1), stride=2, group=2)
    assert np.isclose(np.vdot(y, g), np.vdot(x, xt), rtol=1e-10)


def test_conv2d_backprop_input_rejects_channel_mismatch(call, rng):
    with pytest.raises(ValueError):
        call("Conv2DBackpropInput", rng.standard_normal((1, 2, 3, 3)),
             rng.standard_normal((2, 3, 2, 2)), (1, 4, 4, 4))


@pytest.mark.parametrize("pad_mode,pad,output_padding", [
    ("valid", 0, (0, 0, 0)), ("same", 0, (0, 0, 0)), ("pad", 1, (1, 0, 1))])
@pytest.mark.parametrize("with_input_size", [True, False])
def test_conv3d_transpose(call, close, rng, pad_mode, pad, output_padding,
                          with_input_size):
    x = rng.standard_normal((1, 2, 3, 4, 3))
    w = rng.standard_normal((2, 3, 2, 3, 3))
    stride, dilation = (2, 2, 2), (1, 1, 1)
    if pad_mode == "same":
        out = tuple(i * s for i, s in zip(x.shape[2:], stride))
        pads = [same_pads(o, k, s, 1) for o, k, s in zip(out, w.shape[2:], stride)]
    else:
        pads = [(pad, pad)] * 3
        out = tuple((i - 1) * s - 2 * pad + k + op for i, s, k, op
                    in zip(x.shape[2:], stride, w.shape[2:], output_padding))
    input_size = (1, 3) + out if with_input_size else None
    got = call("Conv3DTranspose", x, w, in_channel=2, out_channel=3,
               kernel_size=w.shape[2:], pad_mode=pad_mode, pad=pad,
               stride=stride, dilation=dilation,
               output_padding=(1, 1) + output_padding, input_size=input_size)
    close(got, naive_conv_transpose(x, w, stride, dilation, pads, out, 1))


# --- PyTorch-style (mint) convolutions ------------------------------------------------

@pytest.mark.parametrize("name,rank", [("Conv1DExt", 1), ("Conv2DExt", 2),
                                       ("Conv3DExt", 3)])
@pytest.mark.parametrize("stride,padding,dilation,groups", [
    (1, 0, 1, 1), (2, 1, 1, 1), (1, 2, 2, 2)])
def test_conv_ext(call, close, rng, name, rank, stride, padding, dilation,
                  groups):
    x = rng.standard_normal((2, 4) + (6,) * rank)
    w = rng.standard_normal((4, 4 // groups) + (3,) * rank)
    b = rng.standard_normal(4)
    got = call(name, x, w, b, stride, padding, dilation, groups)
    expected = naive_conv(x, w, (stride,) * rank, (dilation,) * rank,
                          [(padding, padding)] * rank, groups)
    close(got, expected + b.reshape((-1,) + (1,) * rank))


def test_conv_ext_unbatched_and_per_axis(call, close, rng):
    x, w = rng.standard_normal((3, 7, 6)), rng.standard_normal((2, 3, 3, 2))
    got = call("Conv2DExt", x, w, None, (2, 1), (1, 0), (1, 2), 1)
    expected = naive_conv(x[None], w, (2, 1), (1, 2), [(1, 1), (0, 0)], 1)[0]
    close(got, expected)


@pytest.mark.parametrize("stride,padding,output_padding,groups,dilation", [
    (2, 1, 1, 1, 1), (1, 0, 0, 2, 2), (3, 2, 2, 1, 1)])
def test_torch_conv_transpose(call, close, rng, stride, padding,
                              output_padding, groups, dilation):
    x = rng.standard_normal((2, 4, 4, 3))
    w = rng.standard_normal((4, 6 // groups, 3, 2))
    b = rng.standard_normal(6)
    out = tuple((i - 1) * stride - 2 * padding + dilation * (k - 1)
                + output_padding + 1 for i, k in zip(x.shape[2:], w.shape[2:]))
    expected = naive_conv_transpose(x, w, (stride,) * 2, (dilation,) * 2,
                                    [(padding, padding)] * 2, out, groups) \
        + b.reshape(-1, 1, 1)
    close(call("ConvTranspose2D", x, w, b, stride, padding, output_padding,
               groups, dilation), expected)
    close(call("Convolution", x, w, b, stride, padding, dilation, True,
               output_padding, groups), expected)


@pytest.mark.parametrize("backend", ["reference", "numba"])
def test_conv2d_of_a_non_tensor_names_it(backend):
    # An int where the weight belongs passed the kernel's dtype check and
    # reached .ndim (issue 17).
    conv2d = get_op("Conv2D").kernel(backend)
    with pytest.raises(TypeError, match="Conv2D: weight must be a tensor, got 0"):
        conv2d(np.ones((1, 2, 4, 4), np.float32), 0)
    with pytest.raises(TypeError, match=r"Conv2D: x must be a tensor, got \(1, 2\)"):
        conv2d((1, 2), np.ones((3, 2, 2, 2), np.float32))
