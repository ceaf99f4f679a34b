#!/usr/bin/env python3
"""ONNX node-test conformance of amp-import-onnx + amp-run (FP32, CPU).

    conformance.py [--ops Conv,Relu] [--markdown out.md] [--check]

For every node test of Debian's libonnx-testdata whose operator
amp-import-onnx supports, imports model.onnx, runs the result with amp-run
on the test's own inputs (test_data_set_0/input_<i>.pb) and compares the FP32
outputs with the expected ones (output_<i>.pb): integers and bools exactly,
floats with |actual - expected| <= 1e-5 * |expected| + 1e-6 (NaNs where the
expectation has NaNs). A test belongs to an op if its model has exactly that
one node; the "_expanded" variants (the op written as a function of other
ops) count for the op they expand.

--check exits 1 if a test fails that is not listed in KNOWN_UNSUPPORTED
(cases docs/onnx.md lists as unsupported), so a lit test can run a subset.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

TESTDATA = "/usr/share/libonnx-testdata/data/node"
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Tests that fail on purpose: an attribute value or type docs/onnx.md lists
# as unsupported. The reason is what the report prints.
KNOWN_UNSUPPORTED = {
    r"test_.*_(uint8|uint16|uint32|uint64|int16|string)(_|$)":
        "unsigned/int16/string tensors are unsupported",
    r"test_cast_.*(STRING|FLOAT16|BFLOAT16|DOUBLE)":
        "casts to/from strings, f16, bf16, f64 are unsupported in conformance runs",
    r"test_resize_.*cubic": "Resize mode cubic is unsupported",
    r"test_resize_tf_crop_and_resize": "tf_crop_and_resize is unsupported",
    r"test_resize_.*(antialias|keep_aspect|axes)": "opset 18 Resize",
    r"test_maxpool_with_argmax": "MaxPool's Indices output is unsupported",
    r"test_(maxpool|averagepool|avgpool)_?3d": "3-D pooling is unsupported",
    r"test_maxpool.*dilation": "MaxPool dilations are unsupported",
    r"test_conv.*3d": "3-D convolutions are unsupported",
    r"test_.*training": "training mode is unsupported",
    r"test_batchnorm_.*training": "training mode is unsupported",
    r"test_dropout_default_mask|test_dropout_random": "training-mode Dropout",
    r"test_(reduce_.*|pow)_.*(int|bool)": "integer Pow/ReduceMean",
    r"test_range_.*_expanded": "the expansion uses Loop (control flow)",
    r"test_pow_types_float$": "integer base with a float exponent",
    r"test_castlike_.*(STRING|FLOAT16|BFLOAT16|DOUBLE)": "casts to/from strings, f16, bf16, f64 are unsupported in conformance runs",
}


def supported_ops(importer):
    out = subprocess.run([importer, "--list-ops"], capture_output=True,
                         text=True, check=True).stdout
    return {line.split()[0] for line in out.splitlines() if line.strip()}


def test_op(test_dir, ops):
    """The op a node test checks, or None: the model's only node, or for an
    "_expanded" test, the only node of the test it expands."""
    name = os.path.basename(test_dir)
    if name.endswith("_expanded"):
        test_dir = test_dir[: -len("_expanded")]
    try:
        model = onnx.load(os.path.join(test_dir, "model.onnx"))
    except Exception:  # noqa: BLE001 - unreadable models are not ours
        return None
    nodes = model.graph.node
    return nodes[0].op_type if len(nodes) == 1 else None


def known_reason(name, why):
    for pattern, reason in KNOWN_UNSUPPORTED.items():
        if re.search(pattern, name, re.IGNORECASE):
            return reason
    if "supports opsets 6 to 17" in why:
        return "opset outside 6-17"
    if "with unsupported operators" in why:
        return "an operator outside the supported list"
    if "zero-size" in why:
        return "zero-size tensors are unsupported"
    if "is not a tensor" in why or "inputs are not tensors" in why:
        return "sequences and optionals are unsupported"
    return None


def load_inputs(test_dir, model):
    data_dir = os.path.join(test_dir, "test_data_set_0")
    init = {t.name for t in model.graph.initializer}
    inputs = [i for i in model.graph.input if i.name not in init]
    arrays = []
    for k in range(len(inputs)):
        tensor = onnx.TensorProto()
        path = os.path.join(data_dir, f"input_{k}.pb")
        if not os.path.exists(path):
            break
        with open(path, "rb") as f:
            tensor.ParseFromString(f.read())
        arrays.append(numpy_helper.to_array(tensor))
    outputs = []
    k = 0
    while os.path.exists(os.path.join(data_dir, f"output_{k}.pb")):
        tensor = onnx.TensorProto()
        with open(os.path.join(data_dir, f"output_{k}.pb"), "rb") as f:
            tensor.ParseFromString(f.read())
        outputs.append(numpy_helper.to_array(tensor))
        k += 1
    return arrays, outputs


def compare(actual, expected):
    """None if they match, else why not."""
    if actual.shape != expected.shape:
        return f"shape {actual.shape} instead of {expected.shape}"
    if expected.dtype == np.bool_ or np.issubdtype(expected.dtype, np.integer):
        if not np.array_equal(actual.astype(expected.dtype), expected):
            bad = int(np.sum(actual.astype(expected.dtype) != expected))
            return f"{bad} of {expected.size} values differ"
        return None
    a = actual.astype(np.float64)
    e = expected.astype(np.float64)
    nan_e, nan_a = np.isnan(e), np.isnan(a)
    if not np.array_equal(nan_e, nan_a):
        return "NaNs differ"
    ok = nan_e | (np.abs(a - e) <= 1e-5 * np.abs(e) + 1e-6) | (a == e)
    if not np.all(ok):
        err = np.max(np.abs(a - e)[~ok])
        return f"{int(np.sum(~ok))} of {e.size} values off (max abs err {err:.3g})"
    return None


def freeze_inputs(model, inputs, keep):
    """A copy of `model` whose graph inputs from index `keep` on are
    initializers holding the test's values (ONNX node tests pass shape
    operands, axes and scales as inputs; exported models have them as
    constants, which amp-import-onnx requires)."""
    frozen = onnx.ModelProto()
    frozen.CopyFrom(model)
    init = {t.name for t in frozen.graph.initializer}
    graph_inputs = [i for i in frozen.graph.input if i.name not in init]
    for info, value in list(zip(graph_inputs, inputs))[keep:]:
        frozen.graph.initializer.append(numpy_helper.from_array(value, info.name))
        frozen.graph.input.remove(info)
    return frozen


def import_model(importer, path, mlir):
    result = subprocess.run([importer, "--quiet", "--entry=main", path, "-o", mlir],
                            capture_output=True, text=True)
    if result.returncode == 0:
        return None
    lines = [l for l in result.stderr.splitlines() if "error" in l]
    msg = lines[0] if lines else result.stderr.strip()[:200]
    msg = msg.split(": error: ", 1)[-1]
    return msg.replace(path + ": ", "")


def run_test(test_dir, importer, runner, work):
    """(passed, reason, note)."""
    model = onnx.load(os.path.join(test_dir, "model.onnx"))
    try:
        inputs, expected = load_inputs(test_dir, model)
    except Exception:  # noqa: BLE001 - sequences and optionals
        return False, "the test's inputs are not tensors", ""
    mlir = os.path.join(work, "model.mlir")
    note = ""
    error = import_model(importer, os.path.join(test_dir, "model.onnx"), mlir)
    # Shape operands given as graph inputs: freeze all but the first input,
    # then all of them.
    for keep in (1, 0):
        if not error or "known at import time" not in error:
            break
        if len(inputs) <= keep:
            continue
        path = os.path.join(work, "frozen.onnx")
        onnx.save(freeze_inputs(model, inputs, keep), path)
        error = import_model(importer, path, mlir)
        if not error:
            inputs = inputs[:keep]
            note = "inputs after the first frozen" if keep else "all inputs frozen"
    if error:
        return False, "import: " + error[:160], note
    npz = os.path.join(work, "inputs.npz")
    np.savez(npz, *inputs)
    out_dir = os.path.join(work, "out")
    shutil.rmtree(out_dir, ignore_errors=True)
    cmd = [runner, mlir, "--entry=main", "--runs=1", "-O1",
           "--pipeline=canonicalize", "--save-outputs=" + out_dir]
    if inputs:
        cmd.append("--inputs=" + npz)
    try:
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return False, "amp-run: timeout", note
    if result.returncode != 0:
        lines = [l for l in result.stderr.splitlines() if "error" in l]
        msg = lines[0] if lines else result.stderr.strip()[-200:]
        msg = msg.replace(mlir, "model.mlir")
        return False, "amp-run: " + msg[:160], note
    for k, exp in enumerate(expected):
        path = os.path.join(out_dir, f"output_{k}.npy")
        if not os.path.exists(path):
            return False, f"output {k} missing", note
        why = compare(np.load(path), exp)
        if why:
            return False, f"output {k}: {why}", note
    return True, "", note


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--importer", default=os.path.join(ROOT, "build/bin/amp-import-onnx"))
    parser.add_argument("--runner", default=os.path.join(ROOT, "build/bin/amp-run"))
    parser.add_argument("--testdata", default=TESTDATA)
    parser.add_argument("--ops", help="comma-separated ops (default: all supported)")
    parser.add_argument("--whole-models", action="store_true",
                        help="run every test of --testdata whatever its ops "
                        "(for the pytorch-converted and pytorch-operator "
                        "suites), grouped by test name prefix")
    parser.add_argument("--markdown", help="write the report here")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 on a failure not in KNOWN_UNSUPPORTED")
    args = parser.parse_args()

    ops = supported_ops(args.importer)
    wanted = set(args.ops.split(",")) if args.ops else ops
    unknown = wanted - ops
    if unknown:
        sys.exit(f"conformance.py: not supported by amp-import-onnx: {sorted(unknown)}")
    by_op = {}
    for name in sorted(os.listdir(args.testdata)):
        test_dir = os.path.join(args.testdata, name)
        if not os.path.isdir(test_dir):
            continue
        if args.whole_models:
            if os.path.exists(os.path.join(test_dir, "model.onnx")):
                group = re.sub(r"^test_(operator_)?", "", name).split("_")[0]
                by_op.setdefault(group, []).append(test_dir)
            continue
        op = test_op(test_dir, ops)
        if op in wanted:
            by_op.setdefault(op, []).append(test_dir)

    results = {}
    unexpected = []
    frozen = 0
    with tempfile.TemporaryDirectory() as work:
        for op in sorted(by_op):
            for test_dir in by_op[op]:
                name = os.path.basename(test_dir)
                passed, reason, note = run_test(test_dir, args.importer,
                                                args.runner, work)
                known = None if passed else known_reason(name, reason)
                results.setdefault(op, []).append((name, passed, reason, known))
                frozen += bool(note) and passed
                status = "PASS" if passed else ("XFAIL" if known else "FAIL")
                print(f"{status}: {op}: {name}" + ("" if passed else f": {reason}"),
                      flush=True)
                if not passed and not known:
                    unexpected.append(name)

    total = sum(len(v) for v in results.values())
    passed = sum(1 for v in results.values() for r in v if r[1])
    print(f"\n{passed}/{total} node tests passed over {len(results)} ops; "
          f"{len(unexpected)} unexpected failures")
    if args.markdown:
        write_markdown(args.markdown, results, passed, total, ops, frozen,
                       args.testdata if args.whole_models else None)
    if args.check and unexpected:
        sys.exit(1)


def write_markdown(path, results, passed, total, ops, frozen, suite=None):
    if suite:
        lines = [
            f"# ONNX `{os.path.basename(suite.rstrip('/'))}` tests through amp-import-onnx",
            "",
            f"Every test of `{suite}` (whole small models, opset 6 to 9 "
            "mostly), imported and run by amp-run in FP32 with the tests' "
            "inputs, against their expected outputs (same tolerance as the "
            "node tests). Grouped by the test name's first word.",
            "",
            f"Reproduce: `bench/onnx/conformance.py --whole-models --testdata {suite} --markdown ...`",
            "",
            f"**{passed} / {total} tests pass.**",
            "",
            "| group | passed / total | failures |",
            "|---|---|---|",
        ]
        for op in sorted(results):
            rows = results[op]
            ok = sum(1 for r in rows if r[1])
            fails = [f"`{n}`: " + (f"XFAIL ({known})" if known else reason)
                     for n, p, reason, known in rows if not p]
            lines.append(f"| {op} | {ok} / {len(rows)} | {'<br>'.join(fails)} |")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return
    lines = [
        "# ONNX node-test conformance of amp-import-onnx",
        "",
        "Debian's `libonnx-testdata` (ONNX 1.12) node tests of every operator "
        "amp-import-onnx supports, imported and run on the CPU in FP32 by "
        "`amp-run` with the tests' own inputs, compared with their expected "
        "outputs (floats: |a - e| <= 1e-5 |e| + 1e-6; integers exactly).",
        "",
        "Reproduce: `bench/onnx/conformance.py --markdown bench/results/onnx-conformance.md`",
        "",
        f"**{passed} / {total} node tests pass** ({len(results)} ops with tests; "
        f"{len(ops)} ops supported). {frozen} of the passing tests give "
        "shape operands (Reshape's shape, axes, pads, scales, ...) as graph "
        "inputs; amp-import-onnx needs them at import time, so the harness "
        "makes them initializers with the test's values, as exported models "
        "have them. XFAIL marks a case docs/onnx.md lists as unsupported.",
        "",
        "| op | passed / total | failures |",
        "|---|---|---|",
    ]
    for op in sorted(results):
        rows = results[op]
        ok = sum(1 for r in rows if r[1])
        fails = [f"`{n}`: " + (f"XFAIL ({known})" if known else reason)
                 for n, p, reason, known in rows if not p]
        lines.append(f"| {op} | {ok} / {len(rows)} | {'<br>'.join(fails)} |")
    untested = sorted(ops - set(results))
    lines += ["", "Supported ops without node tests of their own in ONNX 1.12's "
              "test data (covered by the expanded tests of other ops or by the "
              "lit tests): " + ", ".join(untested) + "."]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
