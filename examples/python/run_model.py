#!/usr/bin/env python3
"""Run a model built by `amp-compile --shared` from Python.

    PYTHONPATH=build/python python3 examples/python/run_model.py out [SIZE]

Sets every dynamic size of the inputs to SIZE (default: its minimum), feeds
seeded inputs, prints what was built and the sum of each output. With
PyTorch installed, runs the same inputs as torch tensors too and checks
that both give the same numbers. docs/runtime.md explains the module.
"""
import sys

import numpy as np

import amp


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    size = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    model = amp.load(sys.argv[1])
    print("built:", model.summary)
    print("on:", model.device)
    rng = np.random.default_rng(0)
    inputs = []
    for info in model.inputs:
        shape = [d if d >= 0 else (size or lo)
                 for d, lo in zip(info.shape, info.min)]
        print("input %s: %s %s" % (info.name, info.dtype, shape))
        inputs.append(rng.uniform(-1, 1, shape).astype(np.float32))
    outputs = model.run(*inputs)
    for info, y in zip(model.outputs, outputs):
        print("output %s: shape %s, sum %.6g" % (info.name, list(y.shape),
                                                 float(y.sum())))
    try:
        import torch
    except ImportError:
        return
    again = model.run(*[torch.from_numpy(x) for x in inputs])
    same = all(np.array_equal(a, b.numpy()) for a, b in zip(outputs, again))
    print("torch inputs: %s outputs, %s" % (type(again[0]).__name__,
                                            "same" if same else "DIFFERENT"))


if __name__ == "__main__":
    main()
