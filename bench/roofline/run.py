#!/usr/bin/env python3
"""Whole models on the GPU path, measured on amp's emulator: launches, DRAM
bytes, Tensor Core work and a roofline bound per model, and the outputs
checked against the FP32 CPU build on the same inputs.

    bench/roofline/run.py [--build build] [--out DIR]
        [--models a,b,...] [--chips sm_80,sm_90a] [--precisions f16,bf16,fp32]
        [--prebuilt DIR] [--report FILE.md] [--json FILE.json] [--check]

For each corpus model (third_party/corpus; weights randomized with seed 7,
as `amp-run --randomize-weights --seed 7` would) it builds the FP32 CPU
reference and the GPU program of each chip and precision with amp-compile
(PTX, no toolkit needed), runs the GPU program once under
`amp-emulate --profile` (all checks on) on the reference's seeded inputs,
and compares the outputs with amp-compare. The launch budget of issue 31 is
1.25 x (contractions + reductions + poolings) + 2, the counts taken from the
model's linalg form.

With --prebuilt DIR, GPU programs are not built but taken from
DIR/<chip>-<precision>/<model>/model (how the "before" column of
bench/results/roofline.md was measured: programs built by an earlier
commit, run under this emulator). --check exits 1 when an output does not
match or a model is over its launch budget.

The emulator's numbers are counts, not times: the bound is
max(DRAM sectors / bandwidth, Tensor Core MACs / rate, SIMT flops / rate)
per launch plus a launch cost (see docs/emulator.md).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

# Entry points of models with several public functions.
ENTRIES = {
    "resnet50-bottleneck-block": "resnet50_bottleneck_block",
    "next-attention": "kernel", "next-ffn": "kernel", "next-mhsa-qkv": "kernel",
    "next-norm": "kernel", "next-rope": "kernel", "next-tosa-matmul": "kernel",
}
# Relative L2 error allowed against the FP32 CPU build.
BOUNDS = {"f16": 2e-2, "bf16": 5e-2, "fp32": 1e-4}


def corpus_models():
    models = {}
    for family in ("linalg", "tosa"):
        folder = os.path.join(ROOT, "third_party", "corpus", family)
        for name in sorted(os.listdir(folder)):
            if name.endswith(".mlir"):
                models[name[:-5]] = os.path.join(folder, name)
    return models


def run(cmd, log, timeout=None, env=None):
    start = time.time()
    result = subprocess.run(cmd, capture_output=True, text=True,
                            timeout=timeout, env=env)
    with open(log, "a") as f:
        f.write("$ " + " ".join(cmd) + "\n" + result.stdout + result.stderr)
    return result, time.time() - start


def count_layers(build, model, entry, log):
    """Contractions, reductions and poolings of the model's linalg form."""
    amp_opt = os.path.join(build, "bin", "amp-opt")
    prepare = "amp-prepare-model" + ("{entry=%s}" % entry if entry else "")
    pipeline = ("--pass-pipeline=builtin.module(%s,func.func(tosa-to-linalg-"
                "named,tosa-to-linalg),inline,symbol-dce)" % prepare)
    result, _ = run([amp_opt, model, pipeline,
                     "--mlir-elide-elementsattrs-if-larger=4",
                     "--mlir-elide-resource-strings-if-larger=4"], log)
    text = result.stdout
    contractions = len(re.findall(
        r"linalg\.(?:batch_)?matmul\b|linalg\.(?:depthwise_)?conv_\w+",
        text))
    poolings = len(re.findall(r"linalg\.pooling_\w+", text))
    reductions = len(re.findall(r"linalg\.reduce\b", text))
    for match in re.finditer(r"linalg\.generic \{[^}]*iterator_types = "
                             r"\[([^\]]*)\]", text):
        if "reduction" in match.group(1):
            reductions += 1
    return contractions, reductions, poolings


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default="/tmp/amp-roofline")
    parser.add_argument("--models", default="")
    parser.add_argument("--chips", default="sm_80,sm_90a")
    parser.add_argument("--precisions", default="f16")
    parser.add_argument("--prebuilt", default="")
    parser.add_argument("--report", default="")
    parser.add_argument("--json", default="")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--timeout", type=int, default=3600)
    args = parser.parse_args()

    build = os.path.abspath(args.build)
    compile_py = os.path.join(ROOT, "tools", "amp-compile", "amp-compile.py")
    compare_py = os.path.join(ROOT, "scripts", "amp-compare.py")
    emulate = os.path.join(build, "bin", "amp-emulate")
    amp_compile = [sys.executable, compile_py,
                   "--amp-opt", os.path.join(build, "bin", "amp-opt"),
                   "--runtime", os.path.join(build, "lib",
                                             "libamp_cuda_runtime.so")]
    models = corpus_models()
    if args.models:
        wanted = args.models.split(",")
        unknown = [m for m in wanted if m not in models]
        if unknown:
            sys.exit("run.py: unknown models: " + ", ".join(unknown))
        models = {m: models[m] for m in wanted}
    os.makedirs(args.out, exist_ok=True)
    rows = []
    failed = False
    for name, path in models.items():
        entry = ENTRIES.get(name)
        entry_args = ["--entry", entry] if entry else []
        folder = os.path.join(args.out, name)
        os.makedirs(folder, exist_ok=True)
        log = os.path.join(folder, "log.txt")
        open(log, "w").close()
        contractions, reductions, poolings = count_layers(build, path, entry,
                                                          log)
        budget = 1.25 * (contractions + reductions + poolings) + 2
        # The FP32 CPU reference.
        cpu = os.path.join(folder, "cpu")
        res, _ = run(amp_compile + [path, "-o", cpu, "--target", "cpu",
                                    "--precision", "fp32",
                                    "--randomize-weights", "--seed", "7"] +
                     entry_args, log)
        ref = os.path.join(cpu, "out")
        os.makedirs(ref, exist_ok=True)
        if res.returncode == 0:
            res, _ = run([os.path.join(cpu, "model"), "--iters", "1",
                          "--warmup", "0", "--seed", "7", "--quiet",
                          "--outputs", ref], log)
        if res.returncode != 0:
            print("%s: the CPU reference failed (see %s)" % (name, log))
            failed = True
            continue
        for chip in args.chips.split(","):
            for precision in args.precisions.split(","):
                tag = "%s-%s" % (chip, precision)
                row = {"model": name, "chip": chip, "precision": precision,
                       "contractions": contractions,
                       "reductions": reductions, "poolings": poolings,
                       "budget": budget}
                if args.prebuilt:
                    gpu = os.path.join(args.prebuilt, tag, name)
                    compile_s = 0
                else:
                    gpu = os.path.join(folder, tag)
                    res, compile_s = run(
                        amp_compile + [path, "-o", gpu, "--chip", chip,
                                       "--precision", precision, "--format",
                                       "isa", "--randomize-weights", "--seed",
                                       "7"] + entry_args, log)
                    if res.returncode != 0:
                        row["error"] = "compile"
                        rows.append(row)
                        failed = True
                        print("%s %s: compile failed (see %s)" %
                              (name, tag, log))
                        continue
                out = os.path.join(folder, tag + "-out")
                os.makedirs(out, exist_ok=True)
                profile = os.path.join(folder, tag + "-profile.json")
                try:
                    res, run_s = run([emulate, "--profile=" + profile,
                                      os.path.join(gpu, "model"), "--iters",
                                      "1", "--warmup", "0", "--seed", "7",
                                      "--quiet", "--outputs", out], log,
                                     timeout=args.timeout)
                except subprocess.TimeoutExpired:
                    row["error"] = "timeout"
                    rows.append(row)
                    failed = True
                    print("%s %s: timed out" % (name, tag))
                    continue
                if res.returncode != 0:
                    row["error"] = "run"
                    rows.append(row)
                    failed = True
                    print("%s %s: the emulated run failed (see %s)" %
                          (name, tag, log))
                    continue
                with open(profile) as f:
                    prof = json.load(f)
                cmp, _ = run([sys.executable, compare_py, ref, out,
                              "--max-rel-l2", str(BOUNDS[precision])], log)
                rel = [float(m) for m in
                       re.findall(r"rel_l2 ([0-9.e+-]+)", cmp.stdout)]
                total = prof["total"]
                row.update({
                    "launches": total["launches"],
                    "kernels": [k["name"] for k in prof["kernels"]],
                    "bytes": total["bytes_read"] + total["bytes_written"],
                    "tensor_macs": sum(total["tensor_macs"].values()),
                    "simt_flops": total["simt_flops"],
                    "bound_us": total["bound_us"],
                    "rel_l2": max(rel) if rel else None,
                    "match": cmp.returncode == 0,
                    "compile_s": round(compile_s, 1),
                    "emulate_s": round(run_s, 1),
                })
                rows.append(row)
                within = total["launches"] <= budget
                if not row["match"] or (args.check and not within):
                    failed = True
                print("%-26s %-12s launches %4d (budget %5.1f%s)  bound "
                      "H100 %9.1f us  H200 %9.1f us  rel_l2 %s  %s" % (
                          name, tag, total["launches"], budget,
                          "" if within else ", OVER",
                          total["bound_us"]["H100 SXM"],
                          total["bound_us"]["H200"],
                          "%.2g" % row["rel_l2"] if rel else "-",
                          "match" if row["match"] else "MISMATCH"),
                      flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    if args.report:
        with open(args.report, "w") as f:
            f.write("| model | chip | precision | launches | budget | DRAM MB "
                    "| TC GMAC | bound H100 us | bound H200 us | rel L2 |\n")
            f.write("|---|---|---|---|---|---|---|---|---|---|\n")
            for r in rows:
                if "error" in r:
                    f.write("| %s | %s | %s | %s | | | | | | |\n" % (
                        r["model"], r["chip"], r["precision"], r["error"]))
                    continue
                f.write("| %s | %s | %s | %d | %.1f | %.2f | %.3f | %.1f | "
                        "%.1f | %s |\n" % (
                            r["model"], r["chip"], r["precision"],
                            r["launches"], r["budget"], r["bytes"] / 1e6,
                            r["tensor_macs"] / 1e9,
                            r["bound_us"]["H100 SXM"], r["bound_us"]["H200"],
                            "%.2g" % r["rel_l2"]
                            if r["rel_l2"] is not None else "-"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
