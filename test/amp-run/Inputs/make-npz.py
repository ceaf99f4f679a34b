#!/usr/bin/env python3
"""Writes NumPy .npy/.npz files without NumPy, for amp-run's tests.

    make-npz.py OUT.npz [--deflate] NAME=DTYPE:SHAPE:FILL ...
    make-npz.py OUT.npy DTYPE:SHAPE:FILL

DTYPE: f4, f8, f2, i8, i4, i1, b1. SHAPE: 4x16 (or "scalar"). FILL:
  iota            0, 1, 2, ...
  const=V         every element V
  uniform=LO,HI,SEED  uniform values (a fixed linear congruential generator)
"""
import struct
import sys
import zipfile

FORMATS = {"f4": "<f", "f8": "<d", "f2": "<e", "i8": "<q", "i4": "<i",
           "i1": "<b", "b1": "<?"}
DESCR = {"f4": "<f4", "f8": "<f8", "f2": "<f2", "i8": "<i8", "i4": "<i4",
         "i1": "|i1", "b1": "|b1"}


def values(count, fill):
    if fill == "iota":
        return list(range(count))
    if fill.startswith("const="):
        return [float(fill[6:])] * count
    if fill.startswith("uniform="):
        lo, hi, seed = fill[8:].split(",")
        lo, hi, state = float(lo), float(hi), int(seed) or 1
        out = []
        for _ in range(count):
            state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
            out.append(lo + (hi - lo) * ((state >> 11) / 2.0**53))
        return out
    sys.exit("unknown fill " + fill)


def npy(spec):
    dtype, shape_text, fill = spec.split(":")
    shape = [] if shape_text == "scalar" else [int(d) for d in shape_text.split("x")]
    count = 1
    for d in shape:
        count *= d
    data = values(count, fill)
    if dtype[0] in "ib":
        data = [int(v) if dtype != "b1" else bool(v) for v in data]
    body = b"".join(struct.pack(FORMATS[dtype], v) for v in data)
    shape_repr = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        DESCR[dtype], shape_repr)
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + body


def main():
    out, args = sys.argv[1], sys.argv[2:]
    if out.endswith(".npy"):
        with open(out, "wb") as f:
            f.write(npy(args[0]))
        return
    method = zipfile.ZIP_STORED
    if args and args[0] == "--deflate":
        method, args = zipfile.ZIP_DEFLATED, args[1:]
    with zipfile.ZipFile(out, "w", method) as z:
        for arg in args:
            name, spec = arg.split("=", 1)
            z.writestr(name + ".npy", npy(spec))


main()
