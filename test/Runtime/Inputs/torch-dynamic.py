"""torch-dynamic.py export OUT.onnx | check MODEL_DIR REFERENCE.npz

export: a small CNN written in PyTorch (conv-BN-ReLU, a residual block,
pooling, a classifier), exported by torch.onnx.export with a dynamic batch
(dynamic_axes), seeded weights; writes the model and the reference outputs
torch computes at batch 1, 3 and 17 (OUT.npz).
check: runs the amp build through `import amp` on the same inputs, as torch
tensors, and prints the relative L2 distance to torch's outputs."""
import sys

import numpy as np
import torch

torch.manual_seed(0)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 3, padding=1),
                                        torch.nn.BatchNorm2d(16),
                                        torch.nn.ReLU())
        self.block = torch.nn.Sequential(torch.nn.Conv2d(16, 16, 3, padding=1),
                                         torch.nn.BatchNorm2d(16),
                                         torch.nn.ReLU(),
                                         torch.nn.Conv2d(16, 16, 3, padding=1))
        self.fc = torch.nn.Linear(16, 10)

    def forward(self, x):
        h = self.stem(x)
        h = torch.relu(h + self.block(h))
        return self.fc(h.mean(dim=(2, 3)))


SIZES = (1, 3, 17)


def inputs():
    rng = np.random.default_rng(5)
    return {b: rng.uniform(-1, 1, (b, 3, 12, 12)).astype(np.float32)
            for b in SIZES}


if sys.argv[1] == "export":
    net = Net().eval()
    for m in net.modules():  # non-trivial BN statistics
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.1, 0.1)
            m.running_var.uniform_(0.5, 1.5)
    torch.onnx.export(net, torch.zeros(2, 3, 12, 12), sys.argv[2],
                      input_names=["image"], output_names=["logits"],
                      dynamic_axes={"image": {0: "batch"},
                                    "logits": {0: "batch"}}, opset_version=17)
    with torch.no_grad():
        ref = {"b%d" % b: net(torch.from_numpy(x)).numpy()
               for b, x in inputs().items()}
    np.savez(sys.argv[2].replace(".onnx", ".npz"), **ref)
else:
    import amp
    m = amp.load(sys.argv[2])
    ref = np.load(sys.argv[3])
    for b, x in inputs().items():
        y = m(torch.from_numpy(x))
        want = ref["b%d" % b]
        rel = np.linalg.norm(y.numpy() - want) / np.linalg.norm(want)
        print("batch %d: %s %s rel_l2 %s" % (b, type(y).__name__,
                                             tuple(y.shape),
                                             "ok" if rel < 1e-2 else
                                             "HIGH (%.2e)" % rel))
