#!/usr/bin/env python3
"""Imports one-node models of the forms the ONNX node tests do not cover
(Einsum equations, LSTM/GRU options, run-time ScatterND, TopK ties and
NaNs), runs them with amp-run and compares with NumPy references of ONNX's
definitions:

    check_reference.py IMPORTER RUNNER WORKDIR

prints "NAME: ok" per case (floats within 1e-5 relative to the largest
expected magnitude, integers exactly) and exits 1 if one is not.
"""

import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

IMPORTER, RUNNER, WORK = sys.argv[1:4]
rng = np.random.default_rng(3)
DTYPES = {np.float32: TensorProto.FLOAT, np.int64: TensorProto.INT64,
          np.int32: TensorProto.INT32}
failures = []


def vi(name, array):
    return helper.make_tensor_value_info(name, DTYPES[array.dtype.type],
                                         list(array.shape))


def check(name, node, inputs, expected, opset=16, inits=None):
    """Runs `node` on `inputs` (a dict; `inits` are initializers) and
    compares its outputs y0, y1..."""
    graph = helper.make_graph(
        [node], "g", [vi(n, a) for n, a in inputs.items()],
        [vi(f"y{i}", e) for i, e in enumerate(expected)],
        [numpy_helper.from_array(a, n) for n, a in (inits or {}).items()])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    base = os.path.join(WORK, name.replace(" ", "_"))
    onnx.save(model, base + ".onnx")
    np.savez(base + ".npz", *inputs.values())
    for cmd in ([IMPORTER, base + ".onnx", "-o", base + ".mlir"],
                [RUNNER, base + ".mlir", "--inputs=" + base + ".npz",
                 "--runs=1", "--save-outputs=" + base + ".out"]):
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode != 0:
            failures.append(name)
            print(f"{name}: FAIL: {result.stderr.strip()[-300:]}")
            return
    for i, e in enumerate(expected):
        a = np.load(os.path.join(base + ".out", f"output_{i}.npy"))
        if np.issubdtype(e.dtype, np.integer):
            ok = a.shape == e.shape and np.array_equal(a, e)
        else:
            finite = np.isfinite(e)
            scale = max(float(np.max(np.abs(e[finite]), initial=0)), 1e-30)
            with np.errstate(invalid="ignore"):
                close = np.abs(a.astype(np.float64) - e) <= 1e-5 * scale
            same = (a == e) | (np.isnan(a) & np.isnan(e))
            ok = a.shape == e.shape and bool(np.all(close | same))
        if not ok:
            failures.append(name)
            print(f"{name}: FAIL: output {i} differs")
            return
    print(f"{name}: ok")


def rand(*shape, dtype=np.float32, scale=0.7):
    return (rng.standard_normal(shape) * scale).astype(dtype)


def einsum_cases():
    cases = [("...ij,...jk->...ik", [(3, 1, 4, 5), (2, 5, 6)], np.float32),
             ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)], np.float32),
             ("bij,bjk->bki", [(2, 3, 4), (2, 4, 5)], np.int64),
             ("bhqd,bkhd->bhqk", [(2, 3, 4, 5), (2, 6, 3, 5)], np.float32),
             ("...ii->...", [(2, 3, 3)], np.float32),
             ("aab,bc->ac", [(3, 3, 4), (4, 2)], np.int32),
             ("i,j", [(3,), (4,)], np.float32)]
    for eq, shapes, dtype in cases:
        xs = [rand(*s, scale=3).astype(dtype) for s in shapes]
        node = helper.make_node("Einsum", [f"x{i}" for i in range(len(xs))],
                                ["y0"], equation=eq)
        check("einsum " + eq, node, {f"x{i}": x for i, x in enumerate(xs)},
              [np.einsum(eq, *xs).astype(dtype)], opset=13)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


ACTIVATIONS = {"Sigmoid": sigmoid, "Tanh": np.tanh,
               "Relu": lambda x: np.maximum(x, 0)}


def gru_reference(x, w, r, b, h0, acts, clip, lbr, reverse):
    f, g = ACTIVATIONS[acts[0]], ACTIVATIONS[acts[1]]
    c = (lambda v: np.clip(v, -clip, clip)) if clip else (lambda v: v)
    wz, wr, wh = np.split(w[0], 3)
    rz, rr, rh = np.split(r[0], 3)
    wbz, wbr, wbh, rbz, rbr, rbh = np.split(b[0], 6)
    h, ys = h0[0], [None] * x.shape[0]
    steps = range(x.shape[0])
    for t in reversed(steps) if reverse else steps:
        z = f(c(x[t] @ wz.T + h @ rz.T + wbz + rbz))
        rg = f(c(x[t] @ wr.T + h @ rr.T + wbr + rbr))
        if lbr:
            hh = g(c(x[t] @ wh.T + rg * (h @ rh.T + rbh) + wbh))
        else:
            hh = g(c(x[t] @ wh.T + (rg * h) @ rh.T + rbh + wbh))
        h = (1 - z) * hh + z * h
        ys[t] = h
    return np.stack(ys)[:, None], h[None]


def lstm_reference(x, w, r, b, h0, c0, p, acts, clip, reverse):
    f, g, hf = (ACTIVATIONS[a] for a in acts)
    cl = (lambda v: np.clip(v, -clip, clip)) if clip else (lambda v: v)
    wi, wo, wf, wc = np.split(w[0], 4)
    ri, ro, rf, rc = np.split(r[0], 4)
    bs = np.split(b[0], 8)
    pi, po, pf = np.split(p[0], 3)
    h, c, ys = h0[0], c0[0], [None] * x.shape[0]
    steps = range(x.shape[0])
    for t in reversed(steps) if reverse else steps:
        i = f(cl(x[t] @ wi.T + h @ ri.T + pi * c + bs[0] + bs[4]))
        fg = f(cl(x[t] @ wf.T + h @ rf.T + pf * c + bs[2] + bs[6]))
        cand = g(cl(x[t] @ wc.T + h @ rc.T + bs[3] + bs[7]))
        c = fg * c + i * cand
        o = f(cl(x[t] @ wo.T + h @ ro.T + po * c + bs[1] + bs[5]))
        h = o * hf(c)
        ys[t] = h
    return np.stack(ys)[:, None], h[None], c[None]


def recurrent_cases():
    s, n, i, hs = 4, 2, 3, 5
    for acts, clip, lbr, reverse, layout in [
            (["Sigmoid", "Tanh"], None, 0, True, 0),
            (["Sigmoid", "Relu"], 0.8, 1, False, 1),
            (["Sigmoid", "Tanh"], 0.3, 0, False, 0)]:
        x, w, r = rand(s, n, i), rand(1, 3 * hs, i), rand(1, 3 * hs, hs)
        b, h0 = rand(1, 6 * hs), rand(1, n, hs)
        y, yh = gru_reference(x, w, r, b, h0, acts, clip, lbr, reverse)
        attrs = dict(hidden_size=hs, activations=acts, linear_before_reset=lbr,
                     direction="reverse" if reverse else "forward",
                     layout=layout)
        if clip:
            attrs["clip"] = clip
        if layout:
            x, h0 = x.transpose(1, 0, 2), h0.transpose(1, 0, 2)
            y, yh = y.transpose(2, 0, 1, 3), yh.transpose(1, 0, 2)
        node = helper.make_node("GRU", ["x", "w", "r", "b", "", "h0"],
                                ["y0", "y1"], **attrs)
        check(f"gru {'-'.join(acts)} clip={clip} lbr={lbr} "
              f"reverse={int(reverse)} layout={layout}", node,
              dict(x=x, w=w, r=r, b=b, h0=h0), [y, yh])
    for acts, clip, reverse in [(["Sigmoid", "Tanh", "Tanh"], 0.5, True),
                                (["Sigmoid", "Relu", "Tanh"], None, False)]:
        x, w, r = rand(s, n, i), rand(1, 4 * hs, i), rand(1, 4 * hs, hs)
        b, h0, c0, p = rand(1, 8 * hs), rand(1, n, hs), rand(1, n, hs), \
            rand(1, 3 * hs)
        expected = lstm_reference(x, w, r, b, h0, c0, p, acts, clip, reverse)
        attrs = dict(hidden_size=hs, activations=acts,
                     direction="reverse" if reverse else "forward")
        if clip:
            attrs["clip"] = clip
        node = helper.make_node("LSTM",
                                ["x", "w", "r", "b", "", "h0", "c0", "p"],
                                ["y0", "y1", "y2"], **attrs)
        check(f"lstm {'-'.join(acts)} clip={clip} reverse={int(reverse)}",
              node, dict(x=x, w=w, r=r, b=b, h0=h0, c0=c0, p=p),
              list(expected))


def scatter_cases():
    for shape, idx_shape, reduction in [((4, 5, 6), (3, 1), "none"),
                                        ((4, 5, 6), (2, 3, 2), "add"),
                                        ((4, 5, 6), (7, 2), "mul"),
                                        ((5, 4), (6, 1), "none")]:
        data = rand(*shape)
        k = idx_shape[-1]
        idx = np.stack([rng.integers(-shape[j], shape[j], idx_shape[:-1])
                        for j in range(k)], -1).astype(np.int64)
        upd = rand(*(idx_shape[:-1] + shape[k:]))
        out = data.copy()
        for t in np.ndindex(idx.shape[:-1]):
            if reduction == "none":
                out[tuple(idx[t])] = upd[t]  # the last duplicate wins
            elif reduction == "add":
                out[tuple(idx[t])] += upd[t]
            else:
                out[tuple(idx[t])] *= upd[t]
        node = helper.make_node("ScatterND", ["d", "i", "u"], ["y0"],
                                reduction=reduction)
        check(f"scatternd {reduction} {'x'.join(map(str, idx_shape))}", node,
              dict(d=data, i=idx, u=upd), [out])


def topk_cases():
    x = np.array([[3, 1, 3, np.nan, 2, 1], [0, -np.inf, 5, 5, np.nan, 5]],
                 np.float32)
    for largest in (1, 0):
        # NaN counts as the greatest value; ties keep index order.
        key = np.where(np.isnan(x), np.inf, x)
        keyed = [sorted(range(6), key=lambda j: (-key[r, j] if largest else
                                                 key[r, j], j))[:4]
                 for r in range(2)]
        indices = np.array(keyed, np.int64)
        values = np.take_along_axis(x, indices, 1)
        node = helper.make_node("TopK", ["x", "k"], ["y0", "y1"],
                                largest=largest)
        check(f"topk largest={largest} ties and NaN", node, dict(x=x),
              [values, indices], inits=dict(k=np.array([4], np.int64)))


def main():
    os.makedirs(WORK, exist_ok=True)
    einsum_cases()
    recurrent_cases()
    scatter_cases()
    topk_cases()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
