#!/usr/bin/env python3
"""The model of the worked example in docs/onnx.md: a small residual CNN
written in PyTorch, exported to ONNX as a user would, with its sample
inputs and PyTorch's own outputs.

    model.py WORK

writes WORK/tinynet.onnx (opset 17), WORK/samples/*.npz (four calibration
batches, arrays named after the graph's input `image`), WORK/test.npy (a
batch none of them is) and WORK/torch.npy (PyTorch's FP32 logits on it).
Weights are seeded random values (no download), with batch norms given
non-trivial statistics, as a trained network has.
"""

import os
import sys

import numpy as np
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(x + self.bn2(self.conv2(y)))


class TinyNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1),
                                  nn.BatchNorm2d(32), nn.ReLU())
        self.blocks = nn.Sequential(Block(32), Block(32))
        self.head = nn.Linear(32, classes)

    def forward(self, image):
        x = self.blocks(self.stem(image))
        return self.head(x.mean(dim=(2, 3)))


def main():
    work = sys.argv[1]
    os.makedirs(os.path.join(work, "samples"), exist_ok=True)
    torch.manual_seed(0)
    model = TinyNet().eval()
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2.0)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.2, 0.2)
    rng = np.random.default_rng(1)
    for i in range(4):
        batch = rng.standard_normal((4, 3, 64, 64)).astype(np.float32)
        np.savez(os.path.join(work, "samples", f"batch{i}.npz"), image=batch)
    test = rng.standard_normal((4, 3, 64, 64)).astype(np.float32)
    np.save(os.path.join(work, "test.npy"), test)
    with torch.no_grad():
        np.save(os.path.join(work, "torch.npy"),
                model(torch.from_numpy(test)).numpy())
        torch.onnx.export(model, torch.from_numpy(test),
                          os.path.join(work, "tinynet.onnx"),
                          input_names=["image"], output_names=["logits"],
                          opset_version=17)


if __name__ == "__main__":
    main()
