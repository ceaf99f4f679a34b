#!/usr/bin/env python3
"""rel_l2.py ACTUAL.npy EXPECTED.npy BOUND: prints the relative L2 error of
ACTUAL against EXPECTED and exits 1 if it is above BOUND (or shapes
differ)."""

import sys

import numpy as np

actual = np.load(sys.argv[1]).astype(np.float64)
expected = np.load(sys.argv[2]).astype(np.float64)
bound = float(sys.argv[3])
if actual.shape != expected.shape:
    sys.exit(f"shape {actual.shape} != {expected.shape}")
err = np.linalg.norm(actual - expected) / max(np.linalg.norm(expected), 1e-30)
print(f"rel_l2 {err:.3g} {'<=' if err <= bound else '>'} {bound:g}")
sys.exit(0 if err <= bound else 1)
