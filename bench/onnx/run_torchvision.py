#!/usr/bin/env python3
"""torchvision (and a BERT-style encoder) through amp-import-onnx and amp-run.

    run_torchvision.py WORKDIR [--models resnet50,...] [--markdown out.md]

Exports each model with export_torchvision.py (seeded random weights,
nothing downloaded) unless WORKDIR already has it, imports it with
amp-import-onnx, runs it with amp-run on the exported input and reports:
the relative L2 error of amp-run's FP32 output against torch's, and of the
--amp-mixed-precision output (f16 and bf16, f32 accumulation) against
amp-run's FP32 output, with argmax agreement.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import export_torchvision  # noqa: E402


def run_amp(runner, mlir, inputs, pipeline, opt, save=None):
    cmd = [runner, mlir, "--inputs=" + inputs, "--runs=1", "--json",
           f"-O{opt}", "--pipeline=" + pipeline]
    if save:
        cmd.append("--save-outputs=" + save)
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(result.stderr.strip().splitlines()[-1])
    return json.loads(result.stdout)


def rel_l2(a, b):
    a = a.astype(np.float64).ravel()
    b = b.astype(np.float64).ravel()
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-30))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("work")
    parser.add_argument("--models", default=",".join(export_torchvision.MODELS))
    parser.add_argument("--importer", default=os.path.join(ROOT, "build/bin/amp-import-onnx"))
    parser.add_argument("--runner", default=os.path.join(ROOT, "build/bin/amp-run"))
    parser.add_argument("--markdown")
    parser.add_argument("--amp-opt", default=os.path.join(ROOT, "build/bin/amp-opt"))
    parser.add_argument("--imports-only", action="store_true",
                        help="only import every model and convert it with "
                        "amp-opt (no execution); kept in WORK/imports.json")
    parser.add_argument("--report-only", action="store_true",
                        help="only write the markdown from WORK/results.json")
    parser.add_argument("-O", dest="opt", type=int, default=1,
                        help="amp-run's LLVM optimization level (compiling "
                        "the big models dominates; default 1)")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    # Results so far (WORK/results.json): a long run can be resumed.
    cache_path = os.path.join(args.work, "results.json")
    cache = {}
    if os.path.exists(cache_path):
        with open(cache_path) as f:
            cache = {r["model"]: r for r in json.load(f)}
    rows = []
    imports_path = os.path.join(args.work, "imports.json")
    if args.imports_only:
        with open(imports_path, "w") as f:
            json.dump(import_rows(args, args.models.split(",")), f, indent=1)
    imports = []
    if os.path.exists(imports_path):
        with open(imports_path) as f:
            imports = json.load(f)
    if args.report_only or args.imports_only:
        names = args.models.split(",")
        done = [cache[n] for n in names if n in cache]
        if args.markdown:
            write_markdown(args.markdown, done,
                           [n for n in names if n not in cache], imports)
        return
    for name in args.models.split(","):
        if name in cache and "error" not in cache[name]:
            rows.append(cache[name])
            continue
        onnx_path = os.path.join(args.work, name + ".onnx")
        if not os.path.exists(onnx_path):
            export_torchvision.export(name, args.work, 17)
        mlir = os.path.join(args.work, name + ".mlir")
        start = time.time()
        imp = subprocess.run([args.importer, "--quiet", onnx_path, "-o", mlir],
                             capture_output=True, text=True)
        import_s = time.time() - start
        row = {"model": name, "import_s": import_s}
        if imp.returncode != 0:
            row["error"] = "import: " + imp.stderr.strip().splitlines()[0]
            rows.append(row)
            print(row, flush=True)
            continue
        inputs = os.path.join(args.work, name + ".input.npy")
        save = os.path.join(args.work, name + ".amp")
        try:
            f16 = run_amp(args.runner, mlir, inputs, "amp-mixed-precision",
                          args.opt, save)
            bf16 = run_amp(args.runner, mlir, inputs,
                           "amp-mixed-precision{target-type=bf16}", args.opt)
        except RuntimeError as e:
            row["error"] = "amp-run: " + str(e)
            rows.append(row)
            print(row, flush=True)
            continue
        ours = np.load(os.path.join(save, "output_0.npy"))
        theirs = np.load(os.path.join(args.work, name + ".torch.npy"))
        if float(np.std(theirs)) == 0.0:
            # A constant output (a head initialized to zero) shows no error:
            # no row from it.
            row["error"] = "degenerate: torch's output is constant"
            rows.append(row)
            print(row, flush=True)
            continue
        row["fp32_vs_torch"] = rel_l2(ours, theirs)
        row["argmax_torch"] = bool(np.argmax(ours) == np.argmax(theirs))
        for key, report in (("f16", f16), ("bf16", bf16)):
            overall = report.get("overall", report["outputs"][0])
            row[key] = overall["rel_l2_err"]
            row[key + "_argmax"] = overall["argmax_agree"]
        row["fp32_ms"] = f16.get("fp32_ms")
        rows.append(row)
        print(row, flush=True)
        cache[name] = row
        with open(cache_path, "w") as f:
            json.dump(list(cache.values()), f, indent=1)
        if args.markdown:  # After every model: a long run leaves a table.
            write_markdown(args.markdown, rows, imports=imports)
    if args.markdown:
        write_markdown(args.markdown, rows, imports=imports)


def pending_note(work, names):
    """A line naming the requested models without results yet."""
    return ("Not measured yet (the run is resumable: WORK/results.json keeps "
            "what is done): " + ", ".join(names) + ".") if names else ""


def import_rows(args, names):
    """Import time, op count and whether --amp-mixed-precision takes the
    result, for every model (fast: no execution)."""
    rows = []
    for name in names:
        onnx_path = os.path.join(args.work, name + ".onnx")
        if not os.path.exists(onnx_path):
            export_torchvision.export(name, args.work, 17)
        mlir = os.path.join(args.work, name + ".mlir")
        start = time.time()
        imp = subprocess.run([args.importer, "--quiet", onnx_path, "-o", mlir],
                             capture_output=True, text=True)
        row = {"model": name, "import_s": time.time() - start,
               "imported": imp.returncode == 0}
        if imp.returncode == 0:
            with open(mlir) as f:
                text = f.read()
            row["ops"] = len(re.findall(r"= (tosa|linalg|tensor)\.", text))
            start = time.time()
            amp = subprocess.run([args.amp_opt, "--amp-mixed-precision", mlir,
                                  "-o", os.devnull], capture_output=True, text=True)
            row["amp_opt_s"] = time.time() - start
            row["converted"] = amp.returncode == 0
        rows.append(row)
        print(row, flush=True)
    return rows


def fmt(v):
    return "n/a" if v is None else f"{v:.2e}"


def write_markdown(path, rows, pending=(), imports=()):
    lines = [
        "# torchvision models through amp-import-onnx",
        "",
        "torchvision 0.14 classifiers and a 2-layer BERT-style encoder "
        "(bench/onnx/export_torchvision.py: seeded random weights, opset 17, "
        "batch 1), imported with amp-import-onnx and run on the CPU by "
        "amp-run on the exported input. `FP32 vs torch`: relative L2 error "
        "of amp-run's FP32 output against torch's; `f16`/`bf16`: relative L2 "
        "error of the `--amp-mixed-precision` output (f32 accumulation) "
        "against amp-run's FP32 output; argmax: same class. All on the CPU "
        "(amp-run compiles both versions with LLVM at -O1 by default; the "
        "numbers do not depend on it). The corpus models' numbers are in "
        "[accuracy.md](accuracy.md).",
        "",
        "Reproduce: `bench/onnx/run_torchvision.py /tmp/tv --markdown "
        "bench/results/onnx-torchvision.md`",
        "",
        "| model | import (s) | FP32 vs torch | argmax | f16 rel L2 | f16 argmax | bf16 rel L2 | bf16 argmax |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['model']} | {r['import_s']:.1f} | {r['error']} | | | | | |")
            continue
        lines.append(
            f"| {r['model']} | {r['import_s']:.1f} | {fmt(r['fp32_vs_torch'])} | "
            f"{'yes' if r['argmax_torch'] else 'no'} | {fmt(r['f16'])} | "
            f"{'yes' if r['f16_argmax'] else 'no'} | {fmt(r['bf16'])} | "
            f"{'yes' if r['bf16_argmax'] else 'no'} |")
    if pending:
        lines += ["", pending_note(None, list(pending))]
    if imports:
        lines += ["", "## Import and conversion of every model", "",
                  "amp-import-onnx's time and output size (TOSA, linalg and "
                  "tensor ops), and whether `amp-opt --amp-mixed-precision` "
                  "takes the result as it is (`--imports-only`).", "",
                  "| model | imports | import (s) | ops | --amp-mixed-precision | amp-opt (s) |",
                  "|---|---|---|---|---|---|"]
        for r in imports:
            lines.append(
                f"| {r['model']} | {'yes' if r['imported'] else 'no'} | "
                f"{r['import_s']:.1f} | {r.get('ops', '')} | "
                f"{'yes' if r.get('converted') else 'no'} | "
                f"{r.get('amp_opt_s', 0):.1f} |")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
