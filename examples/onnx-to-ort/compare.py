#!/usr/bin/env python3
"""compare.py REFERENCE.npy OUTDIR LABEL [MAX_REL_L2]: the relative L2
error of OUTDIR/output_0.npy against the reference, the top-1 agreement and
whether it is finite; exit code 1 if the error is above MAX_REL_L2."""

import sys

import numpy as np

ref = np.load(sys.argv[1]).astype(np.float64)
got = np.load(sys.argv[2] + "/output_0.npy").astype(np.float64)
err = np.linalg.norm(got - ref) / np.linalg.norm(ref)
same = float(np.mean(got.argmax(-1) == ref.argmax(-1)))
print(f"{sys.argv[3]}: rel_l2 {err:.2e} vs PyTorch FP32, top-1 agreement "
      f"{same:.0%}, finite {bool(np.all(np.isfinite(got)))}")
if len(sys.argv) > 4 and not err <= float(sys.argv[4]):
    print(f"FAIL: {sys.argv[3]}: rel_l2 {err:.2e} > {sys.argv[4]}")
    sys.exit(1)
