#!/usr/bin/env python3
"""Writes a large synthetic FP32 model for compile-time benchmarks.

Three families, repeated until the model has about --ops operations (all in
one function, the worst case: no parallelism across functions):

  mlp          linalg.matmul + bias (linalg.generic) + ReLU (linalg.generic),
               with splat weight constants;
  conv         TOSA 1.0: tosa.conv2d + tosa.clamp, every fourth layer a
               tosa.max_pool2d/tosa.reshape pair back to the same shape;
  transformer  a pre-norm block in linalg/arith/math: layer norm (mean and
               variance reductions, rsqrt), Q/K/V projections, scores with
               linalg.batch_matmul, softmax (exp/sum/div generics), the
               attention output, a GELU-like FFN (tanh), residual adds.

The shapes of shapes.py (mlp-shared, shared-value, chain, fanout, funcs,
nested) write whole modules of their own.

Usage: gen_model.py --family mlp --ops 100000 -o model.mlir
"""

import argparse
import os
import sys

ID = [0]


def fresh(prefix="v"):
    ID[0] += 1
    return f"%{prefix}{ID[0]}"


class Writer:
    def __init__(self, out, target=0):
        self.out = out
        self.ops = 0
        self.target = target

    def op(self, text):
        self.out.write("    " + text + "\n")
        self.ops += 1


MAP2 = "affine_map<(d0, d1) -> (d0, d1)>"
BIAS2 = "affine_map<(d0, d1) -> (d1)>"
MAP3 = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"


def mlp(w, x, n):
    """One layer: x (n x n) -> relu(x @ W + b)."""
    t = f"tensor<{n}x{n}xf32>"
    wt, b, zero, e, f, mm, e2, bias, e3, relu = (fresh() for _ in range(10))
    w.op(f"{wt} = arith.constant dense<0.015625> : {t}")
    w.op(f"{b} = arith.constant dense<0.125> : tensor<{n}xf32>")
    w.op(f"{zero} = arith.constant 0.0 : f32")
    w.op(f"{e} = tensor.empty() : {t}")
    w.op(f"{f} = linalg.fill ins({zero} : f32) outs({e} : {t}) -> {t}")
    w.op(f"{mm} = linalg.matmul ins({x}, {wt} : {t}, {t}) outs({f} : {t}) -> {t}")
    w.op(f"{e2} = tensor.empty() : {t}")
    a, bb, o, s = fresh("a"), fresh("b"), fresh("o"), fresh()
    w.op(f"{bias} = linalg.generic {{indexing_maps = [{MAP2}, {BIAS2}, {MAP2}], "
         f"iterator_types = [\"parallel\", \"parallel\"]}} ins({mm}, {b} : {t}, "
         f"tensor<{n}xf32>) outs({e2} : {t}) {{\n"
         f"    ^bb0({a}: f32, {bb}: f32, {o}: f32):\n"
         f"      {s} = arith.addf {a}, {bb} : f32\n"
         f"      linalg.yield {s} : f32\n    }} -> {t}")
    w.ops += 2
    w.op(f"{e3} = tensor.empty() : {t}")
    a, o, z, m = fresh("a"), fresh("o"), fresh(), fresh()
    w.op(f"{relu} = linalg.generic {{indexing_maps = [{MAP2}, {MAP2}], "
         f"iterator_types = [\"parallel\", \"parallel\"]}} ins({bias} : {t}) "
         f"outs({e3} : {t}) {{\n"
         f"    ^bb0({a}: f32, {o}: f32):\n"
         f"      {z} = arith.constant 0.0 : f32\n"
         f"      {m} = arith.maximumf {a}, {z} : f32\n"
         f"      linalg.yield {m} : f32\n    }} -> {t}")
    w.ops += 3
    return relu


def conv(w, x, layer, c):
    """One layer on 1x8x8xc (same padding): conv2d + clamp (+ pool/reshape)."""
    t = f"tensor<1x8x8x{c}xf32>"
    wt, b, zp, cv, cl = (fresh() for _ in range(5))
    w.op(f"{wt} = \"tosa.const\"() <{{values = dense<0.03125> : tensor<{c}x3x3x{c}xf32>}}> : () -> tensor<{c}x3x3x{c}xf32>")
    w.op(f"{b} = \"tosa.const\"() <{{values = dense<0.0625> : tensor<{c}xf32>}}> : () -> tensor<{c}xf32>")
    w.op(f"{zp} = \"tosa.const\"() <{{values = dense<0.0> : tensor<1xf32>}}> : () -> tensor<1xf32>")
    w.op(f"{cv} = tosa.conv2d {x}, {wt}, {b}, {zp}, {zp} {{acc_type = f32, "
         f"dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = "
         f"array<i64: 1, 1>}} : ({t}, tensor<{c}x3x3x{c}xf32>, tensor<{c}xf32>, "
         f"tensor<1xf32>, tensor<1xf32>) -> {t}")
    w.op(f"{cl} = tosa.clamp {cv} {{max_val = 6.0 : f32, min_val = 0.0 : f32}} : ({t}) -> {t}")
    if layer % 4 != 3:
        return cl
    pool, shape, back = fresh(), fresh(), fresh()
    w.op(f"{pool} = tosa.max_pool2d {cl} {{kernel = array<i64: 2, 2>, pad = "
         f"array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}} : ({t}) -> "
         f"tensor<1x4x4x{c}xf32>")
    w.op(f"{shape} = tosa.const_shape {{values = dense<[1, 8, 8, {c // 4}]> : tensor<4xindex>}} : () -> !tosa.shape<4>")
    w.op(f"{back} = tosa.reshape {pool}, {shape} : (tensor<1x4x4x{c}xf32>, !tosa.shape<4>) -> tensor<1x8x8x{c // 4}xf32>")
    # Back to c channels with a 1x1 convolution.
    wt2, cv2 = fresh(), fresh()
    w.op(f"{wt2} = \"tosa.const\"() <{{values = dense<0.25> : tensor<{c}x1x1x{c // 4}xf32>}}> : () -> tensor<{c}x1x1x{c // 4}xf32>")
    w.op(f"{cv2} = tosa.conv2d {back}, {wt2}, {b}, {zp}, {zp} {{acc_type = f32, "
         f"dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = "
         f"array<i64: 1, 1>}} : (tensor<1x8x8x{c // 4}xf32>, "
         f"tensor<{c}x1x1x{c // 4}xf32>, tensor<{c}xf32>, tensor<1xf32>, "
         f"tensor<1xf32>) -> {t}")
    return cv2


def generic2(w, ins, body, n, reduce=False):
    """A linalg.generic over n x n inputs `ins` (names); body(args) -> lines,
    result. With reduce, the output is n (a row reduction, init 0)."""
    t = f"tensor<{n}x{n}xf32>"
    out_t = f"tensor<{n}xf32>" if reduce else t
    e, res = fresh(), fresh()
    w.op(f"{e} = tensor.empty() : {out_t}")
    init = e
    if reduce:
        zero, f = fresh(), fresh()
        w.op(f"{zero} = arith.constant 0.0 : f32")
        w.op(f"{f} = linalg.fill ins({zero} : f32) outs({e} : {out_t}) -> {out_t}")
        init = f
    args = [fresh("a") for _ in ins] + [fresh("o")]
    lines, result = body(args)
    in_maps = [MAP2 if isinstance(i, str) else BIAS2 for i in ins]
    names = [i if isinstance(i, str) else i[0] for i in ins]
    types = [t if isinstance(i, str) else f"tensor<{n}xf32>" for i in ins]
    out_map = "affine_map<(d0, d1) -> (d0)>" if reduce else MAP2
    its = '["parallel", "reduction"]' if reduce else '["parallel", "parallel"]'
    block = ", ".join(f"{a}: f32" for a in args)
    body_text = "".join(f"      {l}\n" for l in lines)
    w.op(f"{res} = linalg.generic {{indexing_maps = [{', '.join(in_maps + [out_map])}], "
         f"iterator_types = {its}}} ins({', '.join(names)} : {', '.join(types)}) "
         f"outs({init} : {out_t}) {{\n    ^bb0({block}):\n{body_text}"
         f"      linalg.yield {result} : f32\n    }} -> {out_t}")
    w.ops += len(lines) + 1
    return res


def matmul(w, a, b, n):
    t = f"tensor<{n}x{n}xf32>"
    zero, e, f, mm = fresh(), fresh(), fresh(), fresh()
    w.op(f"{zero} = arith.constant 0.0 : f32")
    w.op(f"{e} = tensor.empty() : {t}")
    w.op(f"{f} = linalg.fill ins({zero} : f32) outs({e} : {t}) -> {t}")
    w.op(f"{mm} = linalg.matmul ins({a}, {b} : {t}, {t}) outs({f} : {t}) -> {t}")
    return mm


def weight(w, n, value):
    c = fresh()
    w.op(f"{c} = arith.constant dense<{value}> : tensor<{n}x{n}xf32>")
    return c


def transformer(w, x, n):
    def binop(op):
        def body(args):
            r = fresh()
            return [f"{r} = {op} {args[0]}, {args[1]} : f32"], r
        return body

    def sum_body(args):
        r = fresh()
        return [f"{r} = arith.addf {args[0]}, {args[-1]} : f32"], r

    def norm_body(args):
        # (x - mean) * rsqrt(var + eps), mean and var broadcast along rows.
        d, eps, v, r, y = fresh(), fresh(), fresh(), fresh(), fresh()
        return [f"{d} = arith.subf {args[0]}, {args[1]} : f32",
                f"{eps} = arith.constant 1.0e-5 : f32",
                f"{v} = arith.addf {args[2]}, {eps} : f32",
                f"{r} = math.rsqrt {v} : f32",
                f"{y} = arith.mulf {d}, {r} : f32"], y

    def sq_body(args):
        d, s, r = fresh(), fresh(), fresh()
        return [f"{d} = arith.subf {args[0]}, {args[1]} : f32",
                f"{s} = arith.mulf {d}, {d} : f32",
                f"{r} = arith.addf {s}, {args[-1]} : f32"], r

    def exp_body(args):
        r = fresh()
        return [f"{r} = math.exp {args[0]} : f32"], r

    def div_body(args):
        r = fresh()
        return [f"{r} = arith.divf {args[0]}, {args[1]} : f32"], r

    def gelu_body(args):
        c, m, th, one, s, h, r = (fresh() for _ in range(7))
        return [f"{c} = arith.constant 0.797884583 : f32",
                f"{m} = arith.mulf {args[0]}, {c} : f32",
                f"{th} = math.tanh {m} : f32",
                f"{one} = arith.constant 1.0 : f32",
                f"{s} = arith.addf {th}, {one} : f32",
                f"{h} = arith.mulf {args[0]}, {s} : f32",
                f"{r} = arith.mulf {h}, {c} : f32"], r

    # Layer norm.
    mean = generic2(w, [x], sum_body, n, reduce=True)
    var = generic2(w, [x, (mean,)], sq_body, n, reduce=True)
    h = generic2(w, [x, (mean,), (var,)], norm_body, n)
    # Attention.
    q = matmul(w, h, weight(w, n, 0.0625), n)
    k = matmul(w, h, weight(w, n, 0.03125), n)
    v = matmul(w, h, weight(w, n, 0.125), n)
    t3 = f"tensor<1x{n}x{n}xf32>"
    qe, ke, ve = fresh(), fresh(), fresh()
    for src, dst in ((q, qe), (k, ke), (v, ve)):
        w.op(f"{dst} = tensor.expand_shape {src} [[0, 1], [2]] output_shape [1, {n}, {n}] : tensor<{n}x{n}xf32> into {t3}")
    zero, e, f, scores = fresh(), fresh(), fresh(), fresh()
    w.op(f"{zero} = arith.constant 0.0 : f32")
    w.op(f"{e} = tensor.empty() : {t3}")
    w.op(f"{f} = linalg.fill ins({zero} : f32) outs({e} : {t3}) -> {t3}")
    w.op(f"{scores} = linalg.batch_matmul ins({qe}, {ke} : {t3}, {t3}) outs({f} : {t3}) -> {t3}")
    s2 = fresh()
    w.op(f"{s2} = tensor.collapse_shape {scores} [[0, 1], [2]] : {t3} into tensor<{n}x{n}xf32>")
    ex = generic2(w, [s2], exp_body, n)
    den = generic2(w, [ex], sum_body, n, reduce=True)
    p = generic2(w, [ex, (den,)], div_body, n)
    pe, e2, f2, att, a2 = fresh(), fresh(), fresh(), fresh(), fresh()
    w.op(f"{pe} = tensor.expand_shape {p} [[0, 1], [2]] output_shape [1, {n}, {n}] : tensor<{n}x{n}xf32> into {t3}")
    w.op(f"{e2} = tensor.empty() : {t3}")
    w.op(f"{f2} = linalg.fill ins({zero} : f32) outs({e2} : {t3}) -> {t3}")
    w.op(f"{att} = linalg.batch_matmul ins({pe}, {ve} : {t3}, {t3}) outs({f2} : {t3}) -> {t3}")
    w.op(f"{a2} = tensor.collapse_shape {att} [[0, 1], [2]] : {t3} into tensor<{n}x{n}xf32>")
    o = matmul(w, a2, weight(w, n, 0.0625), n)
    r1 = generic2(w, [x, o], binop("arith.addf"), n)
    # FFN.
    f1 = matmul(w, r1, weight(w, n, 0.03125), n)
    g = generic2(w, [f1], gelu_body, n)
    f2 = matmul(w, g, weight(w, n, 0.0625), n)
    return generic2(w, [r1, f2], binop("arith.addf"), n)


def main():
    # (shapes.py writes with this file's helpers: imported here, not above.)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from shapes import SHAPES
    parser = argparse.ArgumentParser()
    parser.add_argument("--family", required=True,
                        choices=["mlp", "conv", "transformer", *SHAPES])
    parser.add_argument("--ops", type=int, required=True,
                        help="approximate number of operations")
    parser.add_argument("--dim", type=int, default=16)
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args()
    out = sys.stdout if args.output == "-" else open(args.output, "w")
    w = Writer(out, args.ops)
    n = args.dim
    if args.family in SHAPES:
        SHAPES[args.family](w, n)
        sys.stderr.write(f"{args.family}: {w.ops} ops\n")
        return
    if args.family == "conv":
        arg_t = f"tensor<1x8x8x{n}xf32>"
    else:
        arg_t = f"tensor<{n}x{n}xf32>"
    out.write(f"func.func @model(%input: {arg_t}) -> {arg_t} {{\n")
    x, layer = "%input", 0
    while w.ops < args.ops:
        if args.family == "mlp":
            x = mlp(w, x, n)
        elif args.family == "conv":
            x = conv(w, x, layer, n)
        else:
            x = transformer(w, x, n)
        layer += 1
    out.write(f"    return {x} : {arg_t}\n}}\n")
    sys.stderr.write(f"{args.family}: {layer} layers, {w.ops + 2} ops\n")


if __name__ == "__main__":
    main()
