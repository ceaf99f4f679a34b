#!/usr/bin/env python3
"""Writes deterministic mutants of the .onnx files in SEEDS into OUT:
truncations at several lengths and single-byte changes at several offsets,
the kinds of damage a fuzzer starts from."""

import os
import sys


def main(seeds, out):
    os.makedirs(out, exist_ok=True)
    for name in sorted(os.listdir(seeds)):
        path = os.path.join(seeds, name)
        if not name.endswith(".onnx") or not os.path.isfile(path):
            continue
        data = open(path, "rb").read()
        for k, frac in enumerate((0.1, 0.37, 0.5, 0.9)):
            with open(os.path.join(out, f"{name}.trunc{k}"), "wb") as f:
                f.write(data[: int(len(data) * frac)])
        for k in range(12):
            offset = (k * 7919) % max(len(data), 1)
            mutated = bytearray(data)
            mutated[offset] ^= 0xFF if k % 2 else 0x01
            with open(os.path.join(out, f"{name}.flip{k}"), "wb") as f:
                f.write(bytes(mutated))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
