"""Drives `import amp` for test/Runtime/python.test and python-torch.test:
python-check.py GPU_MODEL CPU_MODEL [--torch]"""
import sys
import threading

import numpy as np

import amp

gpu = amp.load(sys.argv[1])
cpu = amp.load(sys.argv[2])
use_torch = "--torch" in sys.argv
print("inputs:", gpu.inputs)
print("device:", gpu.device)


def rel_l2(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-30)


rng = np.random.default_rng(3)
for batch in (1, 3, 17, 64):
    x = rng.uniform(-1, 1, (batch, 32)).astype(np.float32)
    want = cpu(x)
    got = gpu(x)
    again = gpu(x)  # the second call at this size: captured, then replayed
    ok = rel_l2(got, want) < 1e-2 and np.array_equal(got, again)
    if use_torch:
        import torch
        t = gpu(torch.from_numpy(x))
        ok = ok and isinstance(t, torch.Tensor) and \
            np.array_equal(t.numpy(), again)
        # a non-contiguous view (the first 32 columns of wider rows) is
        # made contiguous by the module
        wide = torch.from_numpy(np.concatenate([x, -x], axis=1))
        ok = ok and np.array_equal(gpu(wide[:, :32]).numpy(), again)
    print("batch %d: %s %s rel_l2 %s" % (batch, got.shape, got.dtype,
                                         "ok" if ok else "HIGH"))
print("stats:", gpu.stats())

for bad in (np.zeros((65, 32), np.float32), np.zeros((2, 32))):
    try:
        gpu(bad)
    except amp.AmpError as e:
        print("error: %s: %s" % (e.status, e))
try:
    amp.load(sys.argv[1] + "/nope")
except amp.AmpError as e:
    print("error: %s: %s" % (e.status, e))
for call in (lambda: amp.load(sys.argv[1], device="gpu"),
             lambda: gpu(np.zeros((2, 32), np.float32),
                         np.zeros((2, 32), np.float32)),
             lambda: gpu(np.zeros((2, 32), np.complex64))):
    try:
        call()
    except (ValueError, TypeError) as e:
        print("error: %s: %s" % (type(e).__name__, e))

# One context per thread: concurrent callers get the same numbers.
x = rng.uniform(-1, 1, (5, 32)).astype(np.float32)
want = gpu(x)
results = []
threads = [threading.Thread(target=lambda: results.append(gpu(x)))
           for _ in range(3)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("threads:", "ok" if len(results) == 3 and
      all(np.array_equal(r, want) for r in results) else "DIFFERENT")
