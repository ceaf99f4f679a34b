#!/usr/bin/env python3
"""Export torchvision classifiers and a BERT-style encoder to ONNX.

    export_torchvision.py OUTDIR [--models resnet50,vit_b_16] [--opset 17]

Nothing is downloaded: every model is built with weights=None and seeded
random weights (torch's default initialization with torch.manual_seed(0);
batch-norm statistics are randomized too, so that they matter, and weight
matrices initialized to zero, ViT's head, get random values). For each
model NAME it writes NAME.onnx, NAME.input.npy (a seeded random input) and
NAME.torch.npy (torch's FP32 output on that input), for
bench/onnx/run_torchvision.py to compare with amp-run's. The ONNX files are build
products: never commit them.
"""

import argparse
import os
import sys
import warnings

import numpy as np
import torch

MODELS = {
    # name: (constructor arguments, input shape)
    "resnet50": ({}, (1, 3, 224, 224)),
    "mobilenet_v3_large": ({}, (1, 3, 224, 224)),
    "efficientnet_b0": ({}, (1, 3, 224, 224)),
    "convnext_tiny": ({}, (1, 3, 224, 224)),
    "densenet121": ({}, (1, 3, 224, 224)),
    "googlenet": ({"aux_logits": False, "init_weights": True}, (1, 3, 224, 224)),
    "inception_v3": ({"aux_logits": False, "init_weights": True}, (1, 3, 299, 299)),
    "regnet_y_400mf": ({}, (1, 3, 224, 224)),
    "vit_b_16": ({}, (1, 3, 224, 224)),
    "swin_t": ({}, (1, 3, 224, 224)),
    "bert_encoder": (None, (1, 32)),
}


class EncoderLayer(torch.nn.Module):
    """Post-norm self-attention + GELU feed-forward (BERT's layer)."""

    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.qkv = torch.nn.Linear(hidden, 3 * hidden)
        self.out = torch.nn.Linear(hidden, hidden)
        self.norm1 = torch.nn.LayerNorm(hidden)
        self.ff1 = torch.nn.Linear(hidden, 4 * hidden)
        self.ff2 = torch.nn.Linear(4 * hidden, hidden)
        self.norm2 = torch.nn.LayerNorm(hidden)

    def forward(self, x, mask):
        b, s, h = x.shape
        d = h // self.heads
        q, k, v = self.qkv(x).split(h, dim=-1)
        q = q.reshape(b, s, self.heads, d).transpose(1, 2)
        k = k.reshape(b, s, self.heads, d).transpose(1, 2)
        v = v.reshape(b, s, self.heads, d).transpose(1, 2)
        scores = q @ k.transpose(-1, -2) / (d ** 0.5) + mask
        ctx = torch.softmax(scores, dim=-1) @ v
        ctx = ctx.transpose(1, 2).reshape(b, s, h)
        x = self.norm1(x + self.out(ctx))
        return self.norm2(x + self.ff2(torch.nn.functional.gelu(self.ff1(x))))


class BertEncoder(torch.nn.Module):
    """A 2-layer BERT-style encoder: token and position embeddings, an
    attention mask from the padding token 0, post-norm layers, a pooler.
    Input: token ids [batch, seq]."""

    def __init__(self, vocab=1000, hidden=128, heads=4, layers=2, seq=32):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, hidden)
        self.position = torch.nn.Embedding(seq, hidden)
        self.norm = torch.nn.LayerNorm(hidden)
        self.layers = torch.nn.ModuleList(
            [EncoderLayer(hidden, heads) for _ in range(layers)])
        self.pool = torch.nn.Linear(hidden, hidden)

    def forward(self, ids):
        positions = torch.arange(ids.shape[1]).unsqueeze(0)
        x = self.norm(self.embed(ids) + self.position(positions))
        mask = (ids == 0).float().unsqueeze(1).unsqueeze(2) * -10000.0
        for layer in self.layers:
            x = layer(x, mask)
        return torch.tanh(self.pool(x[:, 0]))


def build(name):
    args, _ = MODELS[name]
    if args is None:
        return BertEncoder()
    import torchvision  # only for its models: bert_encoder needs none
    return getattr(torchvision.models, name)(weights=None, **args)


def randomize_batch_norm(model, gen):
    for m in model.modules():
        if isinstance(m, torch.nn.modules.batchnorm._BatchNorm):
            n = m.running_mean.shape[0]
            m.running_mean.copy_(torch.rand(n, generator=gen) * 0.2 - 0.1)
            m.running_var.copy_(torch.rand(n, generator=gen) * 0.5 + 0.75)


def randomize_zero_weights(model, gen):
    """Weight matrices that the default initialization leaves all zero
    (ViT's classification head) get seeded N(0, 0.02) values: with them, the
    output is a constant and no comparison can show an error."""
    for p in model.parameters():
        if p.dim() >= 2 and not bool(p.any()):
            p.copy_(torch.randn(p.shape, generator=gen) * 0.02)


def export(name, out, opset):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    model = build(name).eval()
    with torch.no_grad():
        randomize_batch_norm(model, gen)
        randomize_zero_weights(model, gen)
        shape = MODELS[name][1]
        if name == "bert_encoder":
            x = torch.randint(0, 1000, shape, generator=gen)
        else:
            x = torch.rand(shape, generator=gen) * 2 - 1
        y = model(x)
    # Exported with gradients enabled: torch 1.13's fused attention fast path
    # (aten::_native_multi_head_attention, which has no ONNX export) is only
    # taken without them.
    path = os.path.join(out, name + ".onnx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, (x,), path, opset_version=opset,
                          input_names=["input"], output_names=["output"],
                          do_constant_folding=True)
    np.save(os.path.join(out, name + ".input.npy"), x.numpy())
    np.save(os.path.join(out, name + ".torch.npy"), y.numpy())
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--opset", type=int, default=17)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(max(1, os.cpu_count() // 2))
    for name in args.models.split(","):
        if name not in MODELS:
            sys.exit(f"export_torchvision.py: unknown model {name}; "
                     f"known: {', '.join(MODELS)}")
        print("exported", export(name, args.out, args.opset), flush=True)


if __name__ == "__main__":
    main()
