#!/usr/bin/env python3
"""Inputs for a model, and the comparison of two runs' outputs.

    outputs.py inputs MODEL.onnx DIR [--seed N] [--float-range LO,HI]
        writes DIR/input_<i>.npy for each graph input (floats uniform in
        [LO, HI), by default [-1, 1); integers in [0, 8)) and
        DIR/inputs.npz (arr_0, ...).
    outputs.py from-pb TESTDIR DIR
        converts an ONNX test's input_<i>.pb and output_<i>.pb (TensorProto)
        into DIR/input_<i>.npy and DIR/output_<i>.npy.
    outputs.py compare REF_DIR DIR --max-rel-l2 X [--name LABEL]
        compares DIR/output_<i>.npy with REF_DIR's: prints the relative L2
        error of each and exits 1 if one is above X or not finite.
"""

import argparse
import glob
import os
import sys

import numpy as np
import onnx


def make_inputs(args):
    model = onnx.load(args.model, load_external_data=False)
    inits = {i.name for i in model.graph.initializer}
    rng = np.random.default_rng(args.seed)
    os.makedirs(args.dir, exist_ok=True)
    arrays = []
    for info in model.graph.input:
        if info.name in inits:
            continue
        t = info.type.tensor_type
        shape = [d.dim_value if d.dim_value > 0 else 1 for d in t.shape.dim]
        dtype = onnx.helper.tensor_dtype_to_np_dtype(t.elem_type) \
            if hasattr(onnx.helper, "tensor_dtype_to_np_dtype") else \
            onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[t.elem_type]
        if np.issubdtype(dtype, np.floating):
            lo, hi = (float(v) for v in args.float_range.split(","))
            a = rng.uniform(lo, hi, shape).astype(dtype)
        else:
            a = rng.integers(0, 8, shape).astype(dtype)
        np.save(os.path.join(args.dir, f"input_{len(arrays)}.npy"), a)
        arrays.append(a)
    np.savez(os.path.join(args.dir, "inputs.npz"), *arrays)


def from_pb(args):
    from onnx import numpy_helper
    os.makedirs(args.dir, exist_ok=True)
    for path in sorted(glob.glob(os.path.join(args.testdir, "*.pb"))):
        tensor = onnx.TensorProto()
        with open(path, "rb") as f:
            tensor.ParseFromString(f.read())
        name = os.path.basename(path)[:-3] + ".npy"
        np.save(os.path.join(args.dir, name), numpy_helper.to_array(tensor))


def compare(args):
    refs = sorted(glob.glob(os.path.join(args.ref, "output_*.npy")))
    if not refs:
        print(f"FAIL: no outputs in {args.ref}")
        return 1
    worst = 0.0
    for ref_path in refs:
        name = os.path.basename(ref_path)
        ref = np.load(ref_path).astype(np.float64)
        got = np.load(os.path.join(args.dir, name)).astype(np.float64)
        if ref.shape != got.shape:
            print(f"FAIL: {name}: shape {got.shape}, expected {ref.shape}")
            return 1
        if not np.all(np.isfinite(got)):
            print(f"FAIL: {name}: not finite")
            return 1
        err = np.linalg.norm(got - ref) / max(np.linalg.norm(ref), 1e-30)
        worst = max(worst, err)
        print(f"{args.name} {name} rel_l2={err:.3e}")
    if worst > args.max_rel_l2:
        print(f"FAIL: {args.name}: rel_l2 {worst:.3e} > {args.max_rel_l2}")
        return 1
    print(f"{args.name}: ok")
    return 0


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("inputs")
    p.add_argument("model")
    p.add_argument("dir")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--float-range", default="-1,1")
    p = sub.add_parser("from-pb")
    p.add_argument("testdir")
    p.add_argument("dir")
    p = sub.add_parser("compare")
    p.add_argument("ref")
    p.add_argument("dir")
    p.add_argument("--max-rel-l2", type=float, required=True)
    p.add_argument("--name", default="outputs")
    args = parser.parse_args()
    if args.command == "inputs":
        make_inputs(args)
        return 0
    if args.command == "from-pb":
        from_pb(args)
        return 0
    return compare(args)


if __name__ == "__main__":
    sys.exit(main())
