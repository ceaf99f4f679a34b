#!/usr/bin/env python3
"""Writes an FP32 model and its FP8 form (the IR FP8 mixed precision makes of
it, docs/fp8.md) with the same seeded random weights, for the GPU tests.

    fp8-models.py KIND OUT_PREFIX [--type f8E4M3FN|f8E5M2] [sizes...]

    gemm M N K        y = x @ W (x: M x K input, W: K x N weights)
    batch B M N K     y[b] = x[b] @ W[b] (weights per batch)
    mlp               the corpus MLP (256 x 1024, three 1024 x 1024 layers,
                      bias and ReLU), with random weights and biases
    conv              NHWC 3x3 convolution (1x14x14x32 -> 64 channels,
                      padding 1, HWCF filter) with bias and ReLU
    conv-nchw         NCHW 3x3 convolution (1x32x14x14 -> 48 channels,
                      padding 1, FCHW filter): the gather is B (K-major)

writes OUT_PREFIX-f32.mlir and OUT_PREFIX-fp8.mlir. The FP8 form follows
docs/fp8.md ("The IR"): weights folded to FP8 constants holding
round-to-nearest-even(clamp(w * s_w)) with s_w = FMAX / amax(w), stored
K-major (N x K; a convolution's filter F x KH x KW x C); each activation
narrowed by one generic truncf(min(max(x * s_x, -FMAX), FMAX)) with s_x =
FMAX / amax(x) (the inputs are in [-1, 1), as the amp-compile harness draws
them; hidden activations' amax is measured on random inputs of that
distribution, with a 25% margin); the contraction on the FP8 tensors with
an f32 accumulator; the f32 result multiplied by 1 / (s_x * s_w).
"""
import argparse
import numpy as np

FMAX = {"f8E4M3FN": 448.0, "f8E5M2": 57344.0}
MANT = {"f8E4M3FN": 3, "f8E5M2": 2}
EMIN = {"f8E4M3FN": -6, "f8E5M2": -14}


def quantize(v, fp8):
    """v (already within +-FMAX) rounded to nearest even in the FP8 type."""
    v = np.asarray(v, dtype=np.float64)
    a = np.abs(v)
    e = np.floor(np.log2(np.where(a > 0, a, 1.0)))
    e = np.maximum(e, EMIN[fp8])
    q = np.exp2(e - MANT[fp8])
    return np.clip(np.round(v / q) * q, -FMAX[fp8], FMAX[fp8])


def fp8_bits(v, fp8):
    """The FP8 encodings of values exactly representable in the type."""
    v = np.asarray(v, dtype=np.float64).ravel()
    m, bias = MANT[fp8], -EMIN[fp8] + 1
    out = np.zeros(v.size, dtype=np.uint8)
    for i, x in enumerate(v):
        s = 0x80 if np.signbit(x) else 0
        a = abs(x)
        if a == 0:
            out[i] = s
            continue
        e = int(np.floor(np.log2(a)))
        if e < EMIN[fp8]:  # subnormal
            out[i] = s | int(round(a / 2.0 ** (EMIN[fp8] - m)))
        else:
            frac = int(round((a / 2.0 ** e - 1) * (1 << m)))
            out[i] = s | ((e + bias) << m) | frac
    return out


def dense(values, dtype):
    """A dense attribute literal as a hex string of little-endian bytes."""
    return 'dense<"0x%s">' % values.astype(dtype).tobytes().hex().upper()


def f32_const(name, arr):
    shape = "x".join(map(str, arr.shape))
    return "  %%%s = arith.constant %s : tensor<%sxf32>\n" % (
        name, dense(arr, "<f4"), shape)


def fp8_const(name, arr, fp8):
    shape = "x".join(map(str, arr.shape))
    bits = fp8_bits(arr, fp8).reshape(arr.shape)
    return "  %%%s = arith.constant %s : tensor<%sx%s>\n" % (
        name, dense(bits, "u1"), shape, fp8)


def ident(rank):
    d = ", ".join("d%d" % i for i in range(rank))
    return "affine_map<(%s) -> (%s)>" % (d, d)


def narrow(name, x, shape, s, fp8):
    """One generic: truncf(min(max(x * s, -FMAX), FMAX))."""
    rank = len(shape)
    t = "x".join(map(str, shape))
    fmax = FMAX[fp8]
    return (
        "  %%%s_s = arith.constant %s : f32\n"
        "  %%%s_lo = arith.constant %s : f32\n"
        "  %%%s_hi = arith.constant %s : f32\n"
        "  %%%s_e = tensor.empty() : tensor<%sx%s>\n"
        "  %%%s = linalg.generic {indexing_maps = [%s, %s], iterator_types = "
        "[%s]} ins(%%%s : tensor<%sxf32>) outs(%%%s_e : tensor<%sx%s>) {\n"
        "  ^bb0(%%a: f32, %%o: %s):\n"
        "    %%m = arith.mulf %%a, %%%s_s : f32\n"
        "    %%lo = arith.maximumf %%m, %%%s_lo : f32\n"
        "    %%c = arith.minimumf %%lo, %%%s_hi : f32\n"
        "    %%t = arith.truncf %%c : f32 to %s\n"
        "    linalg.yield %%t : %s\n"
        "  } -> tensor<%sx%s>\n"
        % (name, repr_f32(s), name, repr_f32(-fmax), name, repr_f32(fmax),
           name, t, fp8, name, ident(rank), ident(rank),
           ", ".join(['"parallel"'] * rank), x, t, name, t, fp8, fp8,
           name, name, name, fp8, fp8, t, fp8))


def repr_f32(v):
    return "%.9e" % np.float32(v)


def elementwise(name, x, shape, body, extra=None):
    """An elementwise generic on f32 (body uses %a, and %b for `extra`)."""
    rank = len(shape)
    t = "x".join(map(str, shape))
    names, types = ["%" + x], ["tensor<%sxf32>" % t]
    maps = [ident(rank)]
    args = "%a: f32"
    if extra:
        ename, emap, etype = extra
        names.append("%" + ename)
        types.append(etype)
        maps.append(emap)
        args += ", %b: f32"
    ins = "%s : %s" % (", ".join(names), ", ".join(types))
    maps.append(ident(rank))
    return (
        "  %%%s_e = tensor.empty() : tensor<%sxf32>\n"
        "  %%%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]}"
        " ins(%s) outs(%%%s_e : tensor<%sxf32>) {\n"
        "  ^bb0(%s, %%o: f32):\n%s"
        "  } -> tensor<%sxf32>\n"
        % (name, t, name, ", ".join(maps), ", ".join(['"parallel"'] * rank),
           ins, name, t, args, body, t))


def bias_relu(name, x, m, n, bias_name):
    return elementwise(
        name, x, (m, n),
        "    %r = arith.addf %a, %b : f32\n"
        "    %z = arith.constant 0.0 : f32\n"
        "    %y = arith.maximumf %r, %z : f32\n"
        "    linalg.yield %y : f32\n",
        (bias_name, "affine_map<(d0, d1) -> (d1)>", "tensor<%dxf32>" % n))


def rescale(name, x, shape, inv):
    """The f32 result times 1 / (s_x * s_w)."""
    return ("  %%%s_inv = arith.constant %s : f32\n" % (name, repr_f32(inv)) +
            elementwise(name, x, shape,
                        "    %%r = arith.mulf %%a, %%%s_inv : f32\n"
                        "    linalg.yield %%r : f32\n" % name))


MATMUL_MAPS = ("indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
               "affine_map<(m, n, k) -> (n, k)>, "
               "affine_map<(m, n, k) -> (m, n)>]")
BATCH_MAPS = ("indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, "
              "affine_map<(b, m, n, k) -> (b, n, k)>, "
              "affine_map<(b, m, n, k) -> (b, m, n)>]")


def zero_acc(name, shape):
    t = "x".join(map(str, shape))
    return ("  %%%s_z = arith.constant 0.0 : f32\n"
            "  %%%s_e = tensor.empty() : tensor<%sxf32>\n"
            "  %%%s = linalg.fill ins(%%%s_z : f32) outs(%%%s_e : "
            "tensor<%sxf32>) -> tensor<%sxf32>\n"
            % (name, name, t, name, name, name, t, t))


def amax_margin(a):
    return 1.25 * float(np.max(np.abs(a)))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("kind", choices=["gemm", "batch", "mlp", "conv", "conv-nchw"])
    p.add_argument("out")
    p.add_argument("sizes", nargs="*", type=int)
    p.add_argument("--type", default="f8E4M3FN", choices=list(FMAX))
    p.add_argument("--seed", type=int, default=3)
    a = p.parse_args()
    fp8, fmax = a.type, FMAX[a.type]
    rng = np.random.default_rng(a.seed)
    f32, f8 = [], []

    if a.kind in ("gemm", "batch"):
        if a.kind == "gemm":
            (m, n, k), b = a.sizes, None
        else:
            b, m, n, k = a.sizes
        lead = (b,) if b else ()
        w = rng.uniform(-1, 1, lead + (k, n)) / np.sqrt(k)
        s_x = fmax / 1.0
        s_w = fmax / np.max(np.abs(w))
        wt = np.swapaxes(w, -1, -2)  # N x K
        w8 = quantize(wt * np.float32(s_w), fp8)
        xs = "x".join(map(str, lead + (m, k)))
        ys = "x".join(map(str, lead + (m, n)))
        op = "linalg.batch_matmul" if b else "linalg.matmul"
        f32.append("func.func @main(%%x: tensor<%sxf32>) -> tensor<%sxf32> {\n"
                   % (xs, ys))
        f32.append(f32_const("w", w.astype(np.float32)))
        f32.append(zero_acc("acc", lead + (m, n)))
        f32.append("  %%y = %s ins(%%x, %%w : tensor<%sxf32>, tensor<%sxf32>) "
                   "outs(%%acc : tensor<%sxf32>) -> tensor<%sxf32>\n"
                   "  return %%y : tensor<%sxf32>\n}\n"
                   % (op, xs, "x".join(map(str, w.shape)), ys, ys, ys))
        f8.append("func.func @main(%%x: tensor<%sxf32>) -> tensor<%sxf32> {\n"
                  % (xs, ys))
        f8.append(fp8_const("w8", w8, fp8))
        f8.append(narrow("x8", "x", lead + (m, k), s_x, fp8))
        f8.append(zero_acc("acc", lead + (m, n)))
        f8.append("  %%mm = %s %s ins(%%x8, %%w8 : tensor<%sx%s>, "
                  "tensor<%sx%s>) outs(%%acc : tensor<%sxf32>) -> "
                  "tensor<%sxf32>\n"
                  % (op, BATCH_MAPS if b else MATMUL_MAPS, xs, fp8,
                     "x".join(map(str, w8.shape)), fp8, ys, ys))
        f8.append(rescale("y", "mm", lead + (m, n), 1.0 / (s_x * s_w)))
        f8.append("  return %y : tensor<" + ys + "xf32>\n}\n")

    elif a.kind == "mlp":
        m, width, layers = 256, 1024, 3
        ws = [rng.uniform(-1, 1, (width, width)) / np.sqrt(width / 3)
              for _ in range(layers)]
        bs = [rng.uniform(-0.1, 0.1, width) for _ in range(layers)]
        # Activation ranges on random inputs of the harness's distribution.
        probe = rng.uniform(-1, 1, (4 * m, width))
        amax = [1.0]
        h = probe
        for i in range(layers - 1):
            h = np.maximum(h @ ws[i] + bs[i], 0)
            amax.append(amax_margin(h))
        t = "%dx%dxf32" % (m, width)
        f32.append("func.func @main(%%x: tensor<%s>) -> tensor<%s> {\n"
                   % (t, t))
        f8.append("func.func @main(%%x: tensor<%s>) -> tensor<%s> {\n"
                  % (t, t))
        f32.append(zero_acc("acc", (m, width)))
        f8.append(zero_acc("acc", (m, width)))
        x = "x"
        for i in range(layers):
            w, bias = ws[i], bs[i]
            f32.append(f32_const("w%d" % i, w.astype(np.float32)))
            f32.append(f32_const("b%d" % i, bias.astype(np.float32)))
            f32.append("  %%mm%d = linalg.matmul ins(%%%s, %%w%d : tensor<%s>, "
                       "tensor<%dx%dxf32>) outs(%%acc : tensor<%s>) -> "
                       "tensor<%s>\n" % (i, x, i, t, width, width, t, t))
            f32.append(bias_relu("h%d" % i, "mm%d" % i, m, width, "b%d" % i))
            s_x = fmax / amax[i]
            s_w = fmax / np.max(np.abs(w))
            w8 = quantize(w.T * np.float32(s_w), fp8)
            f8.append(fp8_const("w%d" % i, w8, fp8))
            f8.append(f32_const("b%d" % i, bias.astype(np.float32)))
            f8.append(narrow("x%d" % i, x, (m, width), s_x, fp8))
            f8.append("  %%mm%d = linalg.matmul %s ins(%%x%d, %%w%d : "
                      "tensor<%dx%dx%s>, tensor<%dx%dx%s>) outs(%%acc : "
                      "tensor<%s>) -> tensor<%s>\n"
                      % (i, MATMUL_MAPS, i, i, m, width, fp8, width, width,
                         fp8, t, t))
            f8.append(rescale("r%d" % i, "mm%d" % i, (m, width),
                              1.0 / (s_x * s_w)))
            f8.append(bias_relu("h%d" % i, "r%d" % i, m, width, "b%d" % i))
            x = "h%d" % i
        f32.append("  return %%%s : tensor<%s>\n}\n" % (x, t))
        f8.append("  return %%%s : tensor<%s>\n}\n" % (x, t))

    elif a.kind == "conv-nchw":
        n, hw, c, f = 1, 14, 32, 48
        w = rng.uniform(-1, 1, (f, c, 3, 3)) / np.sqrt(9 * c / 3)
        s_x = fmax / 1.0
        s_w = fmax / np.max(np.abs(w))
        w8 = quantize(w * np.float32(s_w), fp8)
        xt = "%dx%dx%dx%dxf32" % (n, c, hw, hw)
        pt = "%dx%dx%dx%d" % (n, c, hw + 2, hw + 2)
        yt = "%dx%dx%dx%dxf32" % (n, f, hw, hw)
        pad = ("  %%pz = arith.constant 0.0 : f32\n"
               "  %%p = tensor.pad %%x low[0, 0, 1, 1] high[0, 0, 1, 1] {\n"
               "  ^bb0(%%i0: index, %%i1: index, %%i2: index, %%i3: index):\n"
               "    tensor.yield %%pz : f32\n"
               "  } : tensor<%s> to tensor<%sxf32>\n" % (xt, pt))
        conv = ("  %%%s = linalg.conv_2d_nchw_fchw {dilations = dense<1> : "
                "tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%%%s, "
                "%%%s : tensor<%sx%s>, tensor<%dx%dx3x3x%s>) outs(%%acc : "
                "tensor<%s>) -> tensor<%s>\n")
        f32.append("func.func @main(%%x: tensor<%s>) -> tensor<%s> {\n"
                   % (xt, yt))
        f32.append(f32_const("w", w.astype(np.float32)))
        f32.append(pad)
        f32.append(zero_acc("acc", (n, f, hw, hw)))
        f32.append(conv % ("y", "p", "w", pt, "f32", f, c, "f32", yt, yt))
        f32.append("  return %%y : tensor<%s>\n}\n" % yt)
        f8.append("func.func @main(%%x: tensor<%s>) -> tensor<%s> {\n"
                  % (xt, yt))
        f8.append(fp8_const("w8", w8, fp8))
        f8.append(pad)
        f8.append(narrow("p8", "p", (n, c, hw + 2, hw + 2), s_x, fp8))
        f8.append(zero_acc("acc", (n, f, hw, hw)))
        f8.append(conv % ("cv8", "p8", "w8", pt, fp8, f, c, fp8, yt, yt))
        f8.append(rescale("y", "cv8", (n, f, hw, hw), 1.0 / (s_x * s_w)))
        f8.append("  return %%y : tensor<%s>\n}\n" % yt)

    else:  # conv
        n, hw, c, f = 1, 14, 32, 64
        w = rng.uniform(-1, 1, (3, 3, c, f)) / np.sqrt(9 * c / 3)
        bias = rng.uniform(-0.1, 0.1, f)
        s_x = fmax / 1.0
        s_w = fmax / np.max(np.abs(w))
        w8 = quantize(np.transpose(w, (3, 0, 1, 2)) * np.float32(s_w), fp8)
        xt = "%dx%dx%dx%dxf32" % (n, hw, hw, c)
        pt = "%dx%dx%dx%d" % (n, hw + 2, hw + 2, c)
        yt = "%dx%dx%dx%dxf32" % (n, hw, hw, f)
        pad = ("  %%pz = arith.constant 0.0 : f32\n"
               "  %%p = tensor.pad %%x low[0, 1, 1, 0] high[0, 1, 1, 0] {\n"
               "  ^bb0(%%i0: index, %%i1: index, %%i2: index, %%i3: index):\n"
               "    tensor.yield %%pz : f32\n"
               "  } : tensor<%s> to tensor<%sxf32>\n" % (xt, pt))
        relu = elementwise(
            "y", "cv", (n, hw, hw, f),
            "    %r = arith.addf %a, %b : f32\n"
            "    %z = arith.constant 0.0 : f32\n"
            "    %y = arith.maximumf %r, %z : f32\n"
            "    linalg.yield %y : f32\n",
            ("bias", "affine_map<(d0, d1, d2, d3) -> (d3)>",
             "tensor<%dxf32>" % f))
        f32.append("func.func @main(%%x: tensor<%s>) -> tensor<%s> {\n"
                   % (xt, yt))
        f32.append(f32_const("w", w.astype(np.float32)))
        f32.append(f32_const("bias", bias.astype(np.float32)))
        f32.append(pad)
        f32.append(zero_acc("acc", (n, hw, hw, f)))
        f32.append("  %%cv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : "
                   "tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%%p, "
                   "%%w : tensor<%sxf32>, tensor<3x3x%dx%dxf32>) outs(%%acc : "
                   "tensor<%s>) -> tensor<%s>\n" % (pt, c, f, yt, yt))
        f32.append(relu)
        f32.append("  return %%y : tensor<%s>\n}\n" % yt)
        f8.append("func.func @main(%%x: tensor<%s>) -> tensor<%s> {\n"
                  % (xt, yt))
        f8.append(fp8_const("w8", w8, fp8))
        f8.append(f32_const("bias", bias.astype(np.float32)))
        f8.append(pad)
        f8.append(narrow("p8", "p", (n, hw + 2, hw + 2, c), s_x, fp8))
        f8.append(zero_acc("acc", (n, hw, hw, f)))
        f8.append("  %%cv8 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : "
                  "tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%%p8, "
                  "%%w8 : tensor<%sx%s>, tensor<%dx3x3x%dx%s>) outs(%%acc : "
                  "tensor<%s>) -> tensor<%s>\n"
                  % (pt, fp8, f, c, fp8, yt, yt))
        f8.append(rescale("cv", "cv8", (n, hw, hw, f), 1.0 / (s_x * s_w)))
        f8.append(relu)
        f8.append("  return %%y : tensor<%s>\n}\n" % yt)

    with open(a.out + "-f32.mlir", "w") as out:
        out.write("".join(f32))
    with open(a.out + "-fp8.mlir", "w") as out:
        out.write("".join(f8))


if __name__ == "__main__":
    main()
