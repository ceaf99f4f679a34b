#!/usr/bin/env python3
"""The ONNX node tests through amp-convert-onnx and ONNX Runtime.

    export_conformance.py [--ops Conv,Relu] [--markdown out.md] [--check]

For every node test (Debian's libonnx-testdata) whose op amp-import-onnx
supports and that imports: amp-convert-onnx writes the f16 file; it must
pass ONNX's full checker and the promises of check_graph.py (every node
kept, no Cast chains, value_info complete), and run in ONNX Runtime's CPU
provider with outputs within f16's bound of the test's expected ones
(|a - e| <= 4e-3 |e| + 4e-3 max|e|: two f16 roundings of every value,
relative to the output's scale). A test whose model does not import is
skipped (conformance.py reports those), as is one with bfloat16 inputs or
outputs (onnxruntime-node has no bfloat16 tensors). --check exits 1 on a
failure.
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "test", "amp-convert-onnx", "Inputs"))
import conformance  # noqa: E402


def close_enough(actual, expected):
    """None if `actual` (from the f16 file) matches, else why not."""
    if actual.shape != expected.shape:
        return f"shape {actual.shape} instead of {expected.shape}"
    if expected.dtype.kind != "f":
        if not np.array_equal(actual.astype(expected.dtype), expected):
            return "integer or bool outputs differ"
        return None
    a, e = actual.astype(np.float64), expected.astype(np.float64)
    if not np.array_equal(np.isnan(a), np.isnan(e)):
        return "NaNs differ"
    finite = np.isfinite(e)
    scale = np.max(np.abs(e[finite])) if np.any(finite) else 0.0
    ok = ~finite | (np.abs(a - e) <= 4e-3 * np.abs(e) + 4e-3 * scale)
    ok |= a == e
    if not np.all(ok):
        err = np.max(np.abs(a - e)[~ok])
        return f"{int(np.sum(~ok))} of {e.size} values off (max abs err {err:.3g})"
    return None


def save_inputs(inputs, work):
    paths = []
    for k, value in enumerate(inputs):
        path = os.path.join(work, f"input_{k}.npy")
        np.save(path, value)
        paths.append(path)
    return paths


def run_test(test_dir, args, work):
    """'skip', or (passed, reason)."""
    model_path = os.path.join(test_dir, "model.onnx")
    model = onnx.load(model_path)
    try:
        inputs, expected = conformance.load_inputs(test_dir, model)
    except Exception:  # noqa: BLE001 - sequences and optionals
        return "skip"
    if conformance.import_model(args.importer, model_path,
                                os.path.join(work, "m.mlir")):
        return "skip"
    # onnxruntime-node's tensors have no bfloat16: such tests cannot be fed.
    if any(v.type.tensor_type.elem_type == onnx.TensorProto.BFLOAT16
           for v in list(model.graph.input) + list(model.graph.output)):
        return "skip-bf16"
    out = os.path.join(work, "f16.onnx")
    result = subprocess.run([args.converter, model_path, "-o", out, "--quiet"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        return False, "convert: " + result.stderr.strip()[-160:]
    check = subprocess.run([sys.executable, os.path.join(
        ROOT, "test", "amp-convert-onnx", "Inputs", "check_graph.py"),
        model_path, out], capture_output=True, text=True)
    if check.returncode != 0:
        return False, "check: " + (check.stdout + check.stderr).strip()[-160:]
    outdir = os.path.join(work, "out")
    env = dict(os.environ, NODE_PATH=args.ort_modules)
    ort = subprocess.run(["node", os.path.join(ROOT, "scripts", "ort-run.js"),
                          out, outdir] + save_inputs(inputs, work),
                         capture_output=True, text=True, env=env)
    if ort.returncode != 0:
        # The original may not run in ORT either (no kernel for its types).
        orig = subprocess.run(["node", os.path.join(ROOT, "scripts", "ort-run.js"),
                               model_path, outdir] + save_inputs(inputs, work),
                              capture_output=True, text=True, env=env)
        if orig.returncode != 0:
            return "skip-ort"
        return False, "ort: " + ort.stderr.strip()[-160:]
    for k, exp in enumerate(expected):
        why = close_enough(np.load(os.path.join(outdir, f"output_{k}.npy")), exp)
        if why:
            return False, f"output {k}: {why}"
    return True, ""


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--importer", default=os.path.join(ROOT, "build/bin/amp-import-onnx"))
    p.add_argument("--converter", default=os.path.join(ROOT, "build/bin/amp-convert-onnx"))
    p.add_argument("--testdata", default=conformance.TESTDATA)
    p.add_argument("--ort-modules", default=os.path.join(
        ROOT, ".deps", "onnxruntime", "node_modules"))
    p.add_argument("--ops", help="comma-separated ops (default: all supported)")
    p.add_argument("--markdown")
    p.add_argument("--check", action="store_true")
    args = p.parse_args()

    ops = conformance.supported_ops(args.importer)
    wanted = set(args.ops.split(",")) if args.ops else ops
    counts = {"pass": 0, "fail": 0, "skip": 0, "skip-bf16": 0, "skip-ort": 0}
    failures = []
    with tempfile.TemporaryDirectory() as work:
        for name in sorted(os.listdir(args.testdata)):
            test_dir = os.path.join(args.testdata, name)
            if not os.path.isdir(test_dir):
                continue
            op = conformance.test_op(test_dir, ops)
            if op not in wanted:
                continue
            result = run_test(test_dir, args, work)
            if result in ("skip", "skip-bf16", "skip-ort"):
                counts[result] += 1
                continue
            passed, reason = result
            counts["pass" if passed else "fail"] += 1
            print(("PASS" if passed else "FAIL") + f": {op}: {name}" +
                  ("" if passed else f": {reason}"), flush=True)
            if not passed:
                failures.append((op, name, reason))
    total = counts["pass"] + counts["fail"]
    summary = (f"{counts['pass']}/{total} imported node tests export, check "
               f"and run in ORT within f16's bound ({counts['skip']} do not "
               f"import; {counts['skip-bf16']} with bfloat16 inputs or outputs, "
               f"which onnxruntime-node cannot feed, not run; "
               f"{counts['skip-ort']} whose FP32 original ORT cannot run either)")
    print("\n" + summary)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(summary + "\n\n| op | test | why |\n|---|---|---|\n")
            for op, name, reason in failures:
                f.write(f"| {op} | {name} | {reason.replace('|', '/')} |\n")
    if args.check and failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
