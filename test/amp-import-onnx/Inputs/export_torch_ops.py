#!/usr/bin/env python3
"""Exports small torch modules that use the ops torch exports as Einsum,
Trilu, CumSum, TopK, GatherElements, ScatterND, LSTM and GRU into OUTDIR,
with seeded inputs and torch's outputs:

    export_torch_ops.py OUTDIR

writes NAME.onnx, NAME.inputs.npz (amp-run --inputs) and NAME.torch_K.npy
(output K) for each module.
"""

import os
import sys

import numpy as np
import torch


class Indexing(torch.nn.Module):
    """Attention-like scores (einsum), a running sum along the keys
    (cumsum) below the diagonal (tril) and the raw scores above it (triu),
    the top 3 of each row (topk) and the values at their indices
    (gather)."""

    def forward(self, q, k):
        s = torch.einsum("bhqd,bhkd->bhqk", q, k)
        t = torch.tril(torch.cumsum(s, dim=-1)) + torch.triu(s, diagonal=1)
        values, indices = torch.topk(t, 3, dim=-1)
        return values, torch.gather(q, -1, indices)


class Scatter(torch.nn.Module):
    """Rows of a copy replaced at run-time indices (index_put, exported as
    ScatterND)."""

    def forward(self, x, rows, u):
        y = x.clone()
        y[rows] = u
        return y


class Recurrent(torch.nn.Module):
    """A 2-layer bidirectional batch-first LSTM (with its final cell
    states) feeding a GRU (torch exports linear_before_reset=1) started
    from a given hidden state."""

    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(6, 8, num_layers=2, bidirectional=True,
                                  batch_first=True)
        self.gru = torch.nn.GRU(16, 5)

    def forward(self, x, h0):
        y, (_, c) = self.lstm(x)
        z, h = self.gru(y.transpose(0, 1), h0)
        return z, h, c


def export(name, module, inputs, out, opset):
    module.eval()
    with torch.no_grad():
        outputs = module(*inputs)
    if isinstance(outputs, torch.Tensor):
        outputs = (outputs,)
    torch.onnx.export(module, inputs, os.path.join(out, name + ".onnx"),
                      opset_version=opset)
    np.savez(os.path.join(out, name + ".inputs.npz"),
             *[x.numpy() for x in inputs])
    for k, y in enumerate(outputs):
        np.save(os.path.join(out, f"{name}.torch_{k}.npy"), y.numpy())


def main(out):
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    q = torch.randn(2, 4, 8, 16)
    k = torch.randn(2, 4, 8, 16)
    export("indexing", Indexing(), (q, k), out, opset=14)
    export("scatter", Scatter(),
           (torch.randn(6, 4), torch.tensor([4, 1, -1]), torch.randn(3, 4)),
           out, opset=14)
    x = torch.randn(3, 7, 6)
    h0 = torch.randn(1, 3, 5)
    export("recurrent", Recurrent(), (x, h0), out, opset=14)


if __name__ == "__main__":
    main(sys.argv[1])
