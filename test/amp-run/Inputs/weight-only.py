#!/usr/bin/env python3
"""Models, inputs and independent references for weight-only formats.

    weight-only.py make DIR
        DIR/<model>.mlir      an FP32 model with one constant weight
        DIR/<model>.npz       inputs whose values are f16 numbers
        DIR/<model>-<fmt>.mlir  the same model with the weight replaced by
                              what <fmt> dequantizes it to (computed here,
                              in NumPy, from docs/weight-only.md)
    weight-only.py run DIR AMP_RUN
        for every model and format with a reference: converts the model
        with amp-run --pipeline='amp-mixed-precision{weight-only=<fmt>}',
        runs the converted module, the reference and the FP32 model on the
        same inputs, and prints one line: the converted model must match
        the reference to rounding of the f32 sums (it does exactly on the
        reference machine), and differ from FP32 by the format's own error.

The references read f16 inputs and f16 weights, so every product is exact
in f32: the converted model (activations truncated to f16, weights
dequantized to f16, f32 accumulation) computes the same sums.
"""
import os
import subprocess
import sys

import numpy as np

FORMATS = ["int8", "int4-g32", "int4-g64", "int4-g128", "int4-g32-asym",
           "int4-g128-asym", "e4m3"]


def e4m3(x):
    """Rounds float32 values to E4M3FN (saturating at 448), as float32."""
    x = np.asarray(x, np.float64)
    sign, mag = np.sign(x), np.minimum(np.abs(x), 448.0)
    exp = np.floor(np.log2(np.maximum(mag, 2.0**-9)))
    exp = np.maximum(exp, -6)  # subnormals below 2^-6 step by 2^-9
    step = 2.0 ** (exp - 3)
    q = np.round(mag / step) * step  # numpy rounds half to even
    return (sign * np.minimum(q, 448.0)).astype(np.float32)


def f16(x):
    return np.asarray(x, np.float32).astype(np.float16).astype(np.float32)


def dequantize(w, fmt):
    """w: (channels, K) float32, K the reduction. Returns w as fmt stores
    and dequantizes it, per docs/weight-only.md."""
    w = w.astype(np.float32)
    if fmt in ("int8", "e4m3"):
        amax = np.abs(w).max(axis=1, keepdims=True)
        top = 127.0 if fmt == "int8" else 448.0
        s = np.where(amax > 0, (amax.astype(np.float64) / top), 1.0)
        s = s.astype(np.float32)
        scaled = (w / s).astype(np.float32)
        q = np.clip(np.round(scaled), -127, 127) if fmt == "int8" else e4m3(scaled)
        deq = (q.astype(np.float32) * s).astype(np.float32)
        return f16(deq)
    group = int(fmt.split("-g")[1].split("-")[0])
    asym = fmt.endswith("-asym")
    c, k = w.shape
    g = w.reshape(c, k // group, group)
    lo = np.minimum(g.min(axis=2, keepdims=True), 0).astype(np.float32)
    hi = np.maximum(g.max(axis=2, keepdims=True), 0).astype(np.float32)
    if asym:
        s = ((hi - lo) / np.float32(15)).astype(np.float32)
    else:
        s = (np.maximum(-lo, hi) / np.float32(7)).astype(np.float32)
    s = f16(s)  # the scales are f16 when they all fit (they do here)
    s = np.where(s == 0, np.float32(1), s).astype(np.float32)
    z = np.clip(np.round(-lo / s), 0, 15) if asym else np.zeros_like(s)
    qlo, qhi = (0, 15) if asym else (-8, 7)
    q = np.clip(np.round((g / s).astype(np.float32)) + z, qlo, qhi)
    deq = ((q - z).astype(np.float32) * s).astype(np.float32)
    return f16(deq.reshape(c, k))


def dense(a):
    return 'dense<"0x' + np.ascontiguousarray(a, "<f4").tobytes().hex().upper() + '">'


# name: (signature, weight shape, how to get (channels, K) from the weight
# and back, body). The weights have the spread of trained ones: normal,
# std 0.02, with a few larger values per channel.
def models():
    out = {}
    # Decode-shaped matmul: M=1, K=256, N=75 (odd).
    out["decode"] = dict(
        inputs=[(1, 256)], weight=(256, 75),
        to_ck=lambda w: w.T, from_ck=lambda ck: ck.T,
        body="""func.func @decode(%x: tensor<1x256xf32>) -> tensor<1x75xf32> {
  %w = arith.constant WEIGHT : tensor<256x75xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x75xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x75xf32>) -> tensor<1x75xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x256xf32>, tensor<256x75xf32>) outs(%f : tensor<1x75xf32>) -> tensor<1x75xf32>
  return %y : tensor<1x75xf32>
}""")
    # Prefill-shaped: M=13 (odd), K=384, N=64, a TOSA matmul with its
    # weight 1xKxN.
    out["prefill"] = dict(
        inputs=[(1, 13, 384)], weight=(1, 384, 64),
        to_ck=lambda w: w[0].T, from_ck=lambda ck: ck.T[None],
        body="""func.func @prefill(%x: tensor<1x13x384xf32>) -> tensor<1x13x64xf32> {
  %w = "tosa.const"() <{values = WEIGHT : tensor<1x384x64xf32>}> : () -> tensor<1x384x64xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.matmul %x, %w, %zp, %zp : (tensor<1x13x384xf32>, tensor<1x384x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x13x64xf32>
  return %y : tensor<1x13x64xf32>
}""")
    # A convolution: 24 filters of 32x3x3 (K = 288: g32 only; g64 and
    # g128 keep the weight).
    out["conv"] = dict(
        inputs=[(1, 32, 9, 9)], weight=(24, 32, 3, 3),
        to_ck=lambda w: w.reshape(24, -1),
        from_ck=lambda ck: ck.reshape(24, 32, 3, 3),
        body="""func.func @conv(%x: tensor<1x32x9x9xf32>) -> tensor<1x24x7x7xf32> {
  %w = arith.constant WEIGHT : tensor<24x32x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x24x7x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x7x7xf32>) -> tensor<1x24x7x7xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x32x9x9xf32>, tensor<24x32x3x3xf32>) outs(%f : tensor<1x24x7x7xf32>) -> tensor<1x24x7x7xf32>
  return %y : tensor<1x24x7x7xf32>
}""")
    return out


def make(folder):
    rng = np.random.default_rng(46)
    for name, m in models().items():
        w = rng.normal(0, 0.02, m["weight"]).astype(np.float32)
        # Outliers, as trained weights have: they set the scales.
        flat = w.reshape(-1)
        flat[rng.integers(0, flat.size, flat.size // 97)] *= 6
        inputs = [f16(rng.normal(0, 1, s)) for s in m["inputs"]]
        np.savez(os.path.join(folder, name + ".npz"), *inputs)
        with open(os.path.join(folder, name + ".mlir"), "w") as f:
            f.write(m["body"].replace("WEIGHT", dense(w)) + "\n")
        ck = m["to_ck"](w)
        for fmt in FORMATS:
            group = fmt.startswith("int4") and int(fmt.split("-g")[1].split("-")[0])
            if group and ck.shape[1] % group:
                continue  # no weight-only form: the model stays as it is
            ref = m["from_ck"](dequantize(ck, fmt))
            with open(os.path.join(folder, name + "-" + fmt + ".mlir"), "w") as f:
                f.write(m["body"].replace("WEIGHT", dense(ref)) + "\n")


def outputs(amp_run, model, inputs, folder, *args):
    """The first output of `model` as amp-run's FP32 run computes it."""
    subprocess.run([amp_run, model, "--inputs=" + inputs, "--runs=1",
                    "--save-outputs=" + folder] + list(args), check=True,
                   stdout=subprocess.DEVNULL)
    return np.load(os.path.join(folder, "output_0.npy")).astype(np.float64)


def run(folder, amp_run):
    failures = 0
    for name in models():
        model = os.path.join(folder, name + ".mlir")
        inputs = os.path.join(folder, name + ".npz")
        for fmt in FORMATS:
            reference = os.path.join(folder, name + "-" + fmt + ".mlir")
            if not os.path.exists(reference):
                continue
            base = os.path.join(folder, "out-" + name + "-" + fmt)
            # The FP32 run of the original, and the converted module.
            x = outputs(amp_run, model, inputs, base + "-fp32",
                        "--pipeline=amp-mixed-precision{weight-only=%s}" % fmt,
                        "--dump-converted=" + base + ".mlir")
            # The converted module and the reference, each run as it is
            # (canonicalize: a pipeline that converts nothing).
            a = outputs(amp_run, base + ".mlir", inputs, base + "-converted",
                        "--pipeline=canonicalize")
            r = outputs(amp_run, reference, inputs, base + "-reference",
                        "--pipeline=canonicalize")
            to_ref = np.linalg.norm(a - r) / np.linalg.norm(r)
            to_fp32 = np.linalg.norm(a - x) / np.linalg.norm(x)
            # f32 sums of the same exact products, maybe in another order.
            ok = np.isfinite(a).all() and to_ref <= 1e-6 and to_fp32 > 1e-3
            failures += not ok
            print("%s %s %s: against the reference %.1e, against FP32 %.1e" %
                  ("OK" if ok else "MISMATCH", name, fmt, to_ref, to_fp32))
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        sys.exit(run(sys.argv[2], sys.argv[3]))
