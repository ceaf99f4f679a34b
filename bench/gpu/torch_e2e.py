#!/usr/bin/env python3
"""PyTorch references for the end-to-end benchmarks of bench/gpu/run.sh.

The same corpus model written in PyTorch, with the same weights (the corpus
models' splat constants, or the weights among the inputs) and the same
inputs (saved by amp's FP32 executable with --save-inputs), run in eager
FP32 and under torch.autocast(float16). Prints one JSON line per variant:

  {"model": ..., "impl": "torch-eager-fp32"|"torch-autocast-f16",
   "ms": median per-call synchronized time,
   "rel_l2_vs_fp32": against amp's FP32 outputs on the same inputs}

The FP32 eager line's error says whether the PyTorch model is the corpus
model (it should be at the level of summation order, about 1e-6). On CUDA,
each variant is also timed replayed from a CUDA graph (torch.cuda.graph,
impl "...-graph"), the fair reference for amp's executables run with
--graph: host launch overhead removed on both sides.

  torch_e2e.py MODEL --signature SIG.json --inputs DIR --reference DIR
               [--iters N] [--device cuda|cpu]

--device cpu runs the FP32 line only (autocast to float16 is a CUDA
feature): test/GPU/torch-models.test checks the models against amp's CPU
build that way where PyTorch is installed.

Models: mlp (third_party/corpus/linalg/mlp-3layers.mlir), ffn
(third_party/corpus/tosa/next-ffn.mlir, a SwiGLU feed-forward block), cnn
(third_party/corpus/linalg/resnet50-bottleneck-block.mlir) and attention
(third_party/corpus/linalg/multi-head-attention.mlir).
"""

import argparse
import json
import os
import sys

import torch

from timing import median_ms_per_call


def mlp(inputs):
    """mlp_3layers: three times matmul, bias, ReLU; splat weights."""
    (x,) = inputs
    device = x.device
    layers = []
    for w, b in ((0.01, 0.4), (0.02, 0.5), (0.03, 0.6)):
        layers.append((torch.full((1024, 1024), w, device=device),
                       torch.full((1024,), b, device=device)))

    def run(x):
        for weight, bias in layers:
            x = torch.relu(x @ weight + bias)
        return (x,)
    return run, (x,)


def ffn(inputs):
    """kernel of next-ffn: silu(x W1) * (x2 W3), times W4, plus a residual."""
    x, w1, x2, w3, w4, residual = inputs

    def run(x, w1, x2, w3, w4, residual):
        h = x @ w1
        gate = h * torch.sigmoid(h)
        up = x2.reshape(1, 1536) @ w3
        y = (gate * up) @ w4
        return (residual + y.reshape(1, 1, 1536),)
    return run, (x, w1, x2, w3, w4, residual)


def cnn(inputs):
    """resnet50_bottleneck_block: 1x1, 3x3 (zero padding 1) and 1x1
    convolutions, each with bias and ReLU, NHWC, splat weights; plus the
    input (skip connection); the result is the first 8 channels of pixel
    (0, 0). The second input is the output buffer the model copies into."""
    x = inputs[0]
    device = x.device

    def conv(out_channels, in_channels, size, weight, bias):
        return (torch.full((out_channels, in_channels, size, size), weight,
                           device=device),
                torch.full((out_channels,), bias, device=device))
    w1, b1 = conv(512, 2048, 1, 0.00332225906, 0.00331125828)
    w2, b2 = conv(512, 512, 3, 0.00325732888, 0.00324675324)
    w3, b3 = conv(2048, 512, 1, 0.00319488812, 0.00318471342)
    conv2d = torch.nn.functional.conv2d

    def run(x):
        h = x.permute(0, 3, 1, 2)  # NHWC -> NCHW
        y = torch.relu(conv2d(h, w1, b1))
        y = torch.relu(conv2d(y, w2, b2, padding=1))
        y = torch.relu(conv2d(y, w3, b3))
        s = (h + y).permute(0, 2, 3, 1)
        return (s[0:1, 0, 0, 0:8].reshape(1, 8),)
    return run, (x,)


def attention(inputs):
    """multi_head_attention (a BERT self-attention layer): batch 32, 8
    tokens of 128 features, 2 heads of 64; query scaled by 1/8, a zero mask,
    softmax over the keys, the output projection with its bias; the result
    is the first 8 features of token 0 of batch 0. Splat weights. The second
    input is the output buffer the model copies into."""
    x = inputs[0]
    device = x.device

    def full(shape, value):
        return torch.full(shape, value, device=device)
    wq, bq = full((128, 128), 1.6), full((2, 64), 1.5)
    wk, bk = full((128, 128), 1.4), full((2, 64), 1.3)
    wv, bv = full((128, 128), 1.8), full((2, 64), 1.7)
    wo, bo = full((128, 128), 1.2), full((128,), 1.1)
    mask = full((32, 1, 8, 8), 0.0)

    def run(x):
        rows = x.reshape(256, 128)
        q = ((rows @ wq).reshape(32, 8, 2, 64) + bq) * 0.125
        k = (rows @ wk).reshape(32, 8, 2, 64) + bk
        v = (rows @ wv).reshape(32, 8, 2, 64) + bv
        q, k, v = (t.permute(0, 2, 1, 3) for t in (q, k, v))
        p = torch.softmax(q @ k.transpose(-1, -2) + mask, dim=-1)
        context = (p @ v).permute(0, 2, 1, 3).reshape(256, 128)
        out = (context @ wo).reshape(32, 8, 128) + bo
        return (out[0:1, 0, 0:8].reshape(1, 8),)
    return run, (x,)


MODELS = {"mlp": mlp, "ffn": ffn, "cnn": cnn, "attention": attention}


def load(folder, names, shapes, device):
    tensors = []
    for name, shape in zip(names, shapes):
        data = open(os.path.join(folder, name), "rb").read()
        t = torch.frombuffer(bytearray(data), dtype=torch.float32)
        tensors.append(t.reshape(shape).to(device))
    return tensors


def rel_l2(test, ref):
    return ((test.float() - ref).norm() / ref.norm().clamp_min(1e-30)).item()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model", choices=sorted(MODELS))
    parser.add_argument("--signature", required=True)
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--reference", required=True)
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    args = parser.parse_args()
    device = torch.device(args.device)
    with open(args.signature) as f:
        signature = json.load(f)
    in_shapes = [entry["shape"] for entry in signature["inputs"]]
    inputs = load(args.inputs, ["input%d.bin" % i for i in
                                range(len(in_shapes))], in_shapes, device)
    with open(os.path.join(args.reference, "outputs.json")) as f:
        manifest = json.load(f)["outputs"]
    reference = load(args.reference, [o["file"] for o in manifest],
                     [o["shape"] for o in manifest], device)
    run, operands = MODELS[args.model](inputs)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    variants = [("torch-eager-fp32", False)]
    if args.device == "cuda":
        variants.append(("torch-autocast-f16", True))
    sync = torch.cuda.synchronize if args.device == "cuda" else lambda: None
    for impl, autocast in variants:
        def call():
            with torch.no_grad():
                if not autocast:
                    return run(*operands)
                with torch.autocast("cuda", dtype=torch.float16):
                    return run(*operands)
        outputs = call()
        ms = median_ms_per_call(call, args.iters, sync)
        error = max(rel_l2(o, r) for o, r in zip(outputs, reference))
        print(json.dumps({"model": args.model, "impl": impl,
                          "ms": ms,
                          "rel_l2_vs_fp32": error,
                          "torch": torch.__version__}))
        sys.stdout.flush()
        if args.device != "cuda":
            continue
        try:
            graph, static = capture_graph(call)
            ms = median_ms_per_call(graph.replay, args.iters, sync)
            error = max(rel_l2(o, r) for o, r in zip(static, reference))
            print(json.dumps({"model": args.model, "impl": impl + "-graph",
                              "ms": ms, "rel_l2_vs_fp32": error,
                              "torch": torch.__version__}))
        except RuntimeError as e:  # a model that cannot be captured
            print("%s: no CUDA graph: %s" % (impl, e), file=sys.stderr)
        sys.stdout.flush()


def capture_graph(call):
    """`call` captured into a CUDA graph (after warmup on a side stream, as
    PyTorch's documentation prescribes) and its static outputs."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            call()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static = call()
    graph.replay()
    torch.cuda.synchronize()
    return graph, static


if __name__ == "__main__":
    main()
