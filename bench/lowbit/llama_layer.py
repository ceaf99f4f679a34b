#!/usr/bin/env python3
"""Writes a Llama-style decoder layer in linalg with random FP32 weights.

    llama_layer.py OUT.mlir [--hidden 4096] [--ffn 14336] [--heads 32]
                   [--kv-heads 8] [--tokens 1] [--cache 4096] [--seed 0]

The layer (Llama 3 / Mistral shapes at the defaults: grouped-query
attention with 8 KV heads of 128):

    h = x + Wo . attention(RMSNorm(x) Wq, cache K, cache V)
    y = h + Wdown . (SiLU(RMSNorm(h) Wgate) * (RMSNorm(h) Wup))

- Decode (--tokens 1..16, --cache T): the queries attend over a KV cache of
  T tokens, given as inputs (K stored transposed, [kv_heads, 128, T], as an
  engine keeps it for this product). The new tokens' K and V are outputs,
  for the engine to append.
- Prefill (--cache 0): the tokens attend causally over themselves.

Rotary embeddings are left out: they are elementwise, read no weights and
do not change what this benchmark measures. The weights are constants,
normal with std 0.02 (the spread of trained LLM weights); the RMSNorm
weights are 1.
"""
import argparse
import sys

import numpy as np


def dense(a):
    return 'dense<"0x' + np.ascontiguousarray(a, "<f4").tobytes().hex().upper() + '">'


class Writer:
    def __init__(self):
        self.lines, self.count = [], 0

    def new(self, prefix="v"):
        self.count += 1
        return "%%%s%d" % (prefix, self.count)

    def emit(self, text):
        self.lines.append("  " + text)


def t(*shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape)


def matmul(w, a, b, m, k, n):
    """a [m, k] x b [k, n] -> [m, n], from a zero-filled accumulator."""
    e, f, out = w.new("e"), w.new("f"), w.new()
    w.emit("%s = tensor.empty() : %s" % (e, t(m, n)))
    w.emit("%s = linalg.fill ins(%%zero : f32) outs(%s : %s) -> %s" % (f, e, t(m, n), t(m, n)))
    w.emit("%s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s" %
           (out, a, b, t(m, k), t(k, n), f, t(m, n), t(m, n)))
    return out


def batch_matmul(w, a, b, bt, m, k, n):
    e, f, out = w.new("e"), w.new("f"), w.new()
    w.emit("%s = tensor.empty() : %s" % (e, t(bt, m, n)))
    w.emit("%s = linalg.fill ins(%%zero : f32) outs(%s : %s) -> %s" % (f, e, t(bt, m, n), t(bt, m, n)))
    w.emit("%s = linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s" %
           (out, a, b, t(bt, m, k), t(bt, k, n), f, t(bt, m, n), t(bt, m, n)))
    return out


def elementwise(w, shape, inputs, body, maps=None):
    """A parallel linalg.generic over `shape`; body(args) -> lines, with the
    result named %r."""
    rank = len(shape)
    dims = ", ".join("d%d" % i for i in range(rank))
    ident = "affine_map<(%s) -> (%s)>" % (dims, dims)
    maps = maps or [ident] * len(inputs)
    e, out = w.new("e"), w.new()
    w.emit("%s = tensor.empty() : %s" % (e, t(*shape)))
    ins = ", ".join(v for v, _ in inputs)
    types = ", ".join(ty for _, ty in inputs)
    args = ", ".join("%%a%d: f32" % i for i in range(len(inputs)))
    w.emit('%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} ins(%s : %s) outs(%s : %s) {' %
           (out, ", ".join(maps + [ident]), ", ".join(['"parallel"'] * rank), ins, types, e, t(*shape)))
    w.emit("^bb0(%s, %%o: f32):" % args)
    for line in body:
        w.emit("  " + line)
    w.emit("  linalg.yield %r : f32")
    w.emit("} -> %s" % t(*shape))
    return out


def reduce_last(w, value, shape, combine, init):
    """Reduces the last dimension of `value` [.., n] -> [..]."""
    outer = shape[:-1]
    rank = len(shape)
    dims = ", ".join("d%d" % i for i in range(rank))
    kept = ", ".join("d%d" % i for i in range(rank - 1))
    e, f, out = w.new("e"), w.new("f"), w.new()
    w.emit("%s = tensor.empty() : %s" % (e, t(*outer)))
    w.emit("%s = linalg.fill ins(%s : f32) outs(%s : %s) -> %s" % (f, init, e, t(*outer), t(*outer)))
    w.emit('%s = linalg.generic {indexing_maps = [affine_map<(%s) -> (%s)>, affine_map<(%s) -> (%s)>], iterator_types = [%s]} ins(%s : %s) outs(%s : %s) {' %
           (out, dims, dims, dims, kept, ", ".join(['"parallel"'] * (rank - 1) + ['"reduction"']), value, t(*shape), f, t(*outer)))
    w.emit("^bb0(%a: f32, %acc: f32):")
    for line in combine:
        w.emit("  " + line)
    w.emit("  linalg.yield %r : f32")
    w.emit("} -> %s" % t(*outer))
    return out


def broadcast_last(rank):
    dims = ", ".join("d%d" % i for i in range(rank))
    kept = ", ".join("d%d" % i for i in range(rank - 1))
    return "affine_map<(%s) -> (%s)>" % (dims, kept)


def rmsnorm(w, x, m, n):
    sq = elementwise(w, [m, n], [(x, t(m, n))], ["%r = arith.mulf %a0, %a0 : f32"])
    ss = reduce_last(w, sq, [m, n], ["%r = arith.addf %a, %acc : f32"], "%zero")
    ident = "affine_map<(d0, d1) -> (d0, d1)>"
    return elementwise(w, [m, n], [(x, t(m, n)), (ss, t(m))], [
        "%s = arith.divf %%a1, %%dim_%d : f32" % ("%mean", n),
        "%eps_mean = arith.addf %mean, %eps : f32",
        "%inv = math.rsqrt %eps_mean : f32",
        "%r = arith.mulf %a0, %inv : f32"], maps=[ident, broadcast_last(2)])


def softmax(w, s, shape):
    mx = reduce_last(w, s, shape, ["%r = arith.maximumf %a, %acc : f32"], "%ninf")
    ident = "affine_map<(%s) -> (%s)>" % ((", ".join("d%d" % i for i in range(len(shape))),) * 2)
    ex = elementwise(w, shape, [(s, t(*shape)), (mx, t(*shape[:-1]))], [
        "%d = arith.subf %a0, %a1 : f32", "%r = math.exp %d : f32"],
        maps=[ident, broadcast_last(len(shape))])
    sm = reduce_last(w, ex, shape, ["%r = arith.addf %a, %acc : f32"], "%zero")
    return elementwise(w, shape, [(ex, t(*shape)), (sm, t(*shape[:-1]))],
                       ["%r = arith.divf %a0, %a1 : f32"],
                       maps=[ident, broadcast_last(len(shape))])


def reshape(w, value, src, dst, groups):
    out = w.new()
    op = "tensor.expand_shape" if len(dst) > len(src) else "tensor.collapse_shape"
    if op == "tensor.expand_shape":
        w.emit("%s = tensor.expand_shape %s %s output_shape [%s] : %s into %s" %
               (out, value, groups, ", ".join(map(str, dst)), t(*src), t(*dst)))
    else:
        w.emit("%s = tensor.collapse_shape %s %s : %s into %s" % (out, value, groups, t(*src), t(*dst)))
    return out


def transpose(w, value, src, perm):
    dst = [src[p] for p in perm]
    e, out = w.new("e"), w.new()
    w.emit("%s = tensor.empty() : %s" % (e, t(*dst)))
    w.emit("%s = linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [%s]" %
           (out, value, t(*src), e, t(*dst), ", ".join(map(str, perm))))
    return out


def attention(w, q, k_t, v, m, heads, kv_heads, d, keys, causal):
    """q [m, heads*d]; k_t [kv, d, keys]; v [kv, keys, d] -> [m, heads*d]."""
    group = heads // kv_heads
    q4 = reshape(w, q, [m, heads * d], [m, kv_heads, group, d], "[[0], [1, 2, 3]]")
    qt = transpose(w, q4, [m, kv_heads, group, d], [1, 2, 0, 3])
    q3 = reshape(w, qt, [kv_heads, group, m, d], [kv_heads, group * m, d], "[[0], [1, 2], [3]]")
    s = batch_matmul(w, q3, k_t, kv_heads, group * m, d, keys)
    shape = [kv_heads, group * m, keys]
    if causal:
        # Row i of the [group * m] rows is token i mod m; key j is token j.
        body = ["%i = linalg.index 1 : index", "%j = linalg.index 2 : index",
                "%%tok = arith.remui %%i, %%c%d : index" % m,
                "%future = arith.cmpi ugt, %j, %tok : index",
                "%scaled = arith.mulf %a0, %qk_scale : f32",
                "%r = arith.select %future, %ninf, %scaled : f32"]
    else:
        body = ["%r = arith.mulf %a0, %qk_scale : f32"]
    s = elementwise(w, shape, [(s, t(*shape))], body)
    p = softmax(w, s, shape)
    o = batch_matmul(w, p, v, kv_heads, group * m, keys, d)
    o4 = reshape(w, o, [kv_heads, group * m, d], [kv_heads, group, m, d], "[[0], [1, 2], [3]]")
    ot = transpose(w, o4, [kv_heads, group, m, d], [2, 0, 1, 3])
    return reshape(w, ot, [m, kv_heads, group, d], [m, heads * d], "[[0], [1, 2, 3]]")


def write(args, out):
    rng = np.random.default_rng(args.seed)
    hdim, ffn, heads, kvh = args.hidden, args.ffn, args.heads, args.kv_heads
    d = hdim // heads
    m, cache = args.tokens, args.cache
    kvd = kvh * d
    w = Writer()
    weights = {}

    def weight(name, shape):
        value = "%" + name
        w.emit("%s = arith.constant %s : %s" % (value, dense(
            rng.normal(0, 0.02, shape).astype(np.float32)), t(*shape)))
        weights[name] = shape
        return value

    args_text = ["%%x: %s" % t(m, hdim)]
    results = [t(m, hdim), t(m, kvd), t(m, kvd)]
    if cache:
        args_text += ["%%k_cache: %s" % t(kvh, d, cache), "%%v_cache: %s" % t(kvh, cache, d)]
    w.lines.append("func.func @layer(%s) -> (%s) {" % (", ".join(args_text), ", ".join(results)))
    w.emit("%zero = arith.constant 0.0 : f32")
    w.emit("%ninf = arith.constant -3.0e38 : f32")
    w.emit("%eps = arith.constant 1.0e-5 : f32")
    w.emit("%%dim_%d = arith.constant %d.0 : f32" % (hdim, hdim))
    w.emit("%%qk_scale = arith.constant %r : f32" % (1.0 / np.sqrt(d)))
    if not cache:
        w.emit("%%c%d = arith.constant %d : index" % (m, m))
    wq, wk, wv = weight("wq", [hdim, hdim]), weight("wk", [hdim, kvd]), weight("wv", [hdim, kvd])
    wo = weight("wo", [hdim, hdim])
    wg, wu = weight("wgate", [hdim, ffn]), weight("wup", [hdim, ffn])
    wd = weight("wdown", [ffn, hdim])

    xn = rmsnorm(w, "%x", m, hdim)
    q = matmul(w, xn, wq, m, hdim, hdim)
    k = matmul(w, xn, wk, m, hdim, kvd)
    v = matmul(w, xn, wv, m, hdim, kvd)
    if cache:
        k_t, v_all, keys = "%k_cache", "%v_cache", cache
    else:
        k3 = reshape(w, k, [m, kvd], [m, kvh, d], "[[0], [1, 2]]")
        k_t = transpose(w, k3, [m, kvh, d], [1, 2, 0])
        v3 = reshape(w, v, [m, kvd], [m, kvh, d], "[[0], [1, 2]]")
        v_all = transpose(w, v3, [m, kvh, d], [1, 0, 2])
        keys = m
    a = attention(w, q, k_t, v_all, m, heads, kvh, d, keys, causal=not cache)
    ao = matmul(w, a, wo, m, hdim, hdim)
    ident2 = "affine_map<(d0, d1) -> (d0, d1)>"
    h = elementwise(w, [m, hdim], [("%x", t(m, hdim)), (ao, t(m, hdim))],
                    ["%r = arith.addf %a0, %a1 : f32"])
    hn = rmsnorm(w, h, m, hdim)
    g = matmul(w, hn, wg, m, hdim, ffn)
    u = matmul(w, hn, wu, m, hdim, ffn)
    gu = elementwise(w, [m, ffn], [(g, t(m, ffn)), (u, t(m, ffn))], [
        "%neg = arith.negf %a0 : f32", "%ex = math.exp %neg : f32",
        "%one = arith.constant 1.0 : f32", "%den = arith.addf %one, %ex : f32",
        "%silu = arith.divf %a0, %den : f32", "%r = arith.mulf %silu, %a1 : f32"])
    dn = matmul(w, gu, wd, m, ffn, hdim)
    y = elementwise(w, [m, hdim], [(h, t(m, hdim)), (dn, t(m, hdim))],
                    ["%r = arith.addf %a0, %a1 : f32"])
    w.emit("return %s, %s, %s : %s" % (y, k, v, ", ".join(results)))
    w.lines.append("}")
    out.write("\n".join(w.lines) + "\n")
    return weights


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("output")
    parser.add_argument("--hidden", type=int, default=4096)
    parser.add_argument("--ffn", type=int, default=14336)
    parser.add_argument("--heads", type=int, default=32)
    parser.add_argument("--kv-heads", type=int, default=8)
    parser.add_argument("--tokens", type=int, default=1)
    parser.add_argument("--cache", type=int, default=4096)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.hidden % args.heads or args.heads % args.kv_heads:
        sys.exit("llama_layer.py: --hidden must be a multiple of --heads, "
                 "--heads of --kv-heads")
    with open(args.output, "w") as out:
        write(args, out)


if __name__ == "__main__":
    main()
