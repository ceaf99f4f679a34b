#!/usr/bin/env python3
"""Hard cases for a float remainder (C's fmod), and the check.

    remf-cases.py write DIR     DIR/input0.bin, input1.bin: 512 (x, y) pairs
    remf-cases.py check DIR...  each DIR/output0.bin against numpy.fmod,
                                bit for bit (NaN for NaN)

The pairs: quotients from below 1 to 2^270 (the long division's longest
loops), negative operands, subnormals, zeros, infinities and NaNs, and
random pairs.
"""

import os
import sys

import numpy as np

N = 512


def cases():
    rng = np.random.default_rng(3)
    f32 = np.float32
    special = [
        (5.5, 2.0), (-5.5, 2.0), (5.5, -2.0), (-5.5, -2.0), (1.0, 3.0),
        (3e38, 1e-45), (-3e38, 7e-45), (3.4028235e38, 1.1754944e-38),
        (1e-45, 1e-45), (3e-45, 2e-45), (1.1754942e-38, 1e-45),
        (0.0, 1.0), (-0.0, 1.0), (1.0, 0.0), (0.0, 0.0),
        (np.inf, 1.0), (-np.inf, 2.0), (1.0, np.inf), (-3.0, -np.inf),
        (np.nan, 1.0), (1.0, np.nan), (np.inf, np.inf), (16777217.0, 3.0),
        (1e10, 0.1), (-1e20, 3.3), (7.0, 7.0), (-7.0, 7.0), (2.0**127, 3.0),
    ]
    x = [f32(a) for a, _ in special]
    y = [f32(b) for _, b in special]
    # Random magnitudes over the whole range, both signs.
    while len(x) < N:
        ex, ey = rng.integers(-149, 128, 2)
        x.append(f32(rng.choice([-1, 1]) * rng.uniform(1, 2) * 2.0 ** ex))
        y.append(f32(rng.choice([-1, 1]) * rng.uniform(1, 2) * 2.0 ** ey))
    with np.errstate(all="ignore"):
        return np.array(x, np.float32), np.array(y, np.float32)


def main():
    if sys.argv[1] == "write":
        os.makedirs(sys.argv[2], exist_ok=True)
        x, y = cases()
        x.tofile(os.path.join(sys.argv[2], "input0.bin"))
        y.tofile(os.path.join(sys.argv[2], "input1.bin"))
        return 0
    x, y = cases()
    with np.errstate(all="ignore"):
        want = np.fmod(x, y)
    bad = 0
    for d in sys.argv[2:]:
        got = np.fromfile(os.path.join(d, "output0.bin"), np.float32)
        same = (got.view(np.uint32) == want.view(np.uint32)) | \
            (np.isnan(got) & np.isnan(want))
        for i in np.flatnonzero(~same)[:5]:
            print(f"FAIL {d}: fmod({x[i]!r}, {y[i]!r}) = {got[i]!r}, "
                  f"expected {want[i]!r}")
        bad += int(np.count_nonzero(~same))
        print(f"{os.path.basename(d)}: {np.count_nonzero(same)}/{N} exact")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
