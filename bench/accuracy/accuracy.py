#!/usr/bin/env python3
# ===- accuracy.py - Accuracy of amp's conversion on the corpus -------------===#
#
# Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
#
# Runs every corpus model through `amp-run --randomize-weights --json` for
# each target type and writes a table (model x target: rel_l2, max_rel,
# cosine, argmax agreement, fp32_ms, amp_ms) to bench/results/accuracy.md,
# with the command and the machine.
#
#   bench/accuracy/accuracy.py [--build build] [--runs 5] [--models a,b]
#                              [--targets f16,bf16] [--output FILE]
#
# A run of every model writes bench/results/accuracy.md; with --models the
# table goes to stdout unless --output is given.
#
# FP8 targets (f8E4M3FN, f8E5M2; with "+channel", per-channel weight scales;
# with "+bf16", fallback-type=bf16) are calibrated first: `amp-run
# --calibrate` on the same random weights and other random inputs
# (--input-seed=1), then `amp-mixed-precision{target-type=... ranges=...}`
# runs on the inputs of seed 0 like the other targets. A run of every model
# with FP8 targets only replaces the "## FP8" section of accuracy.md.
#
# Only the Python standard library is used; amp-run does the work.
#
# ===------------------------------------------------------------------------===#

import argparse
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (name, path under third_party/corpus, extra amp-run options, in make check)
MODELS = [
    ("mlp-3layers", "linalg/mlp-3layers.mlir", [], True),
    ("multi-head-attention", "linalg/multi-head-attention.mlir", [], True),
    ("resnet50-bottleneck-block", "linalg/resnet50-bottleneck-block.mlir",
     ["--entry=resnet50_bottleneck_block"], True),
    ("resnet18", "linalg/resnet18.mlir", [], True),
    ("mobilenet_v2", "linalg/mobilenet_v2.mlir", [], True),
    ("efficientnet_b0", "linalg/efficientnet_b0.mlir", [], False),
    ("resnet50", "linalg/resnet50.mlir", [], False),
    ("vgg16", "linalg/vgg16.mlir", [], False),
    ("llama-decoder-layer", "tosa/llama-decoder-layer.mlir", [], True),
    ("next-attention", "tosa/next-attention.mlir", [], True),
    ("next-ffn", "tosa/next-ffn.mlir", [], True),
    ("next-mhsa-qkv", "tosa/next-mhsa-qkv.mlir", [], True),
    ("next-norm", "tosa/next-norm.mlir", [], True),
    ("next-rope", "tosa/next-rope.mlir", [], True),
    ("next-tosa-matmul", "tosa/next-tosa-matmul.mlir", [], True),
]


# What to know when reading a row; written below the table.
NOTES = [
    "**Tiny weights**: among a million random weights a few are below "
    "f16's smallest subnormal (6e-8). They are negligible next to the "
    "largest weight of their tensor, so they flush to zero and every "
    "matmul and convolution runs in f16 (before this rule, one matmul of "
    "mlp-3layers and 3 convolutions of resnet18 stayed FP32).",
    "**mobilenet_v2**: the largest error. Its 17 depthwise convolutions "
    "(3x3 per channel, fan-in 9) round their inputs without the averaging "
    "of long dot products; keeping them in FP32 "
    "(`amp-mixed-precision{red=linalg.depthwise_conv_2d_nchw_chw}`) brings "
    "f16 from 7.5e-3 to 4.2e-3, keeping the first convolution "
    "(`skip-layers=0`) to 5.5e-3.",
    "**next-norm, next-rope**: no contraction, so nothing runs in low "
    "precision and the outputs are bit-identical.",
    "**llama-decoder-layer**: its i64 input is an attention mask, added to "
    "the scores as `(1 - mask) * -1e4`; amp-run's default integer inputs "
    "(0 or 1) are valid masks. With values up to 7 the term reaches 6e4, "
    "where f16's spacing is 32, and the error was 0.40 in f16 and bf16 "
    "alike.",
    "**Times**: naive loops on a shared 2-core VM, with 16-bit arithmetic "
    "emulated in f32, so they show the cost of casts, not the speed of a "
    "GPU. next-ffn and next-tosa-matmul take their weights as arguments, "
    "which the converted model casts to 16 bits at every call (a weight "
    "constant would be folded once): their amp_ms is higher.",
]


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (f"{platform.system()} {platform.machine()}, {os.cpu_count()} "
            f"cores ({cpu}), no GPU used")


def fmt(value, digits=3):
    if value is None:
        return "nan/inf"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return f"{value:.{digits}g}"


FP8_TYPES = ("f8E4M3FN", "f8E5M2")

# What to know when reading the FP8 rows; written below their table.
FP8_NOTES = [
    "**Scales**: weights (constants) are scaled by 448/amax (E4M3FN) or "
    "57344/amax (E5M2) of their own values at compile time; activations and "
    "weight arguments by the same over the range `amp-run --calibrate` "
    "observed (on other random inputs, `--input-seed=1`) times the default "
    "range margin 2. Contractions accumulate in f32; everything else runs "
    "as the 16-bit plan decides (fallback-type f16, or bf16 for `+bf16`).",
    "**CPU numerics**: FP8 is emulated exactly (`--amp-expand-fp8`: integer "
    "round-to-nearest-even, the same as cvt.rn.satfinite for in-range "
    "values), so the errors are those of FP8 itself. The times are not a "
    "GPU's: contractions decode their FP8 inputs to f32 once per call "
    "(`--amp-cpu-decode-fp8`) and run as f32 loops, after the narrowing of "
    "every activation.",
    "**FP8 / green ops**: the contractions that run in FP8 among the ops the "
    "plan colors green in the whole module (`amp-opt ... report=`); the rest "
    "run in the fallback type: depthwise convolutions have no FP8 form, and "
    "an activation without a calibrated or proven range has no scale.",
]


def parse_target(target):
    """(pipeline options, is_fp8) of a --targets entry."""
    parts = target.split("+")
    if parts[0] not in FP8_TYPES:
        return f"target-type={target}", False
    options = [f"target-type={parts[0]}"]
    for extra in parts[1:]:
        if extra == "channel":
            options.append("weight-scales=per-channel")
        elif extra == "bf16":
            options.append("fallback-type=bf16")
        else:
            sys.exit(f"unknown FP8 target option '{extra}' in {target}")
    return " ".join(options), True


def calibrate(amp_run, model, extra, directory, name):
    """Runs amp-run --calibrate on other random inputs; returns the file."""
    ranges = os.path.join(directory, f"{name}.ranges.json")
    if os.path.exists(ranges):
        return ranges
    cmd = [amp_run, model, "--randomize-weights", "--input-seed=1",
           f"--calibrate={ranges}"] + extra
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"{name}: calibration failed:\n{proc.stderr}", file=sys.stderr)
        return None
    return ranges


def fp8_coverage(amp_opt, model, options, directory, name):
    """(FP8 contractions, green ops) of the conversion of `model` with the
    pipeline options `options`, from its report; None if it cannot run."""
    report = os.path.join(directory, f"{name}.report.json")
    cmd = [amp_opt, model, "-o", os.devnull,
           f"--amp-mixed-precision={options} report={report}"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return None
    with open(report) as f:
        data = json.load(f)
    green = sum(1 for op in data["ops"] if op["color"] == "green")
    return data["totals"].get("fp8", 0), green


def replace_section(path, heading, lines):
    """Replaces the section `heading` of the Markdown file `path` (up to the
    next heading of the same level) by `lines`, or appends it."""
    with open(path) as f:
        old = f.read().split("\n")
    start = next((i for i, l in enumerate(old) if l == heading), None)
    if start is None:
        new = old + ([""] if old and old[-1] else []) + lines
    else:
        end = next((i for i in range(start + 1, len(old))
                    if old[i].startswith("## ")), len(old))
        new = old[:start] + lines + ([""] + old[end:] if end < len(old)
                                     else [])
    with open(path, "w") as f:
        f.write("\n".join(new).rstrip("\n") + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--models", default="")
    parser.add_argument("--targets", default="f16,bf16")
    parser.add_argument("--output", default=None,
                        help="default: bench/results/accuracy.md for a run "
                        "of every model, stdout for --models")
    args = parser.parse_args()

    amp_run = os.path.join(args.build, "bin", "amp-run")
    amp_opt = os.path.join(args.build, "bin", "amp-opt")
    wanted = set(filter(None, args.models.split(",")))
    targets = args.targets.split(",")
    all_fp8 = all(parse_target(t)[1] for t in targets)
    calibration = tempfile.TemporaryDirectory(prefix="amp-accuracy-")
    rows = []
    for name, path, extra, in_check in MODELS:
        if wanted and name not in wanted:
            continue
        model = os.path.join(ROOT, "third_party", "corpus", path)
        for target in targets:
            options, fp8 = parse_target(target)
            start = time.time()
            if fp8:
                ranges = calibrate(amp_run, model, extra, calibration.name,
                                   name)
                if ranges is None:
                    rows.append((name, target, None, time.time() - start,
                                 in_check))
                    continue
                options += f" ranges={ranges}"
                coverage = fp8_coverage(amp_opt, model, options,
                                        calibration.name, name)
            else:
                coverage = None
            cmd = [amp_run, model,
                   "--randomize-weights", "--json", f"--runs={args.runs}",
                   f"--pipeline=amp-mixed-precision{{{options}}}"
                   ] + extra
            proc = subprocess.run(cmd, capture_output=True, text=True)
            elapsed = time.time() - start
            if proc.returncode != 0:
                print(f"{name} {target}: amp-run failed:\n{proc.stderr}",
                      file=sys.stderr)
                rows.append((name, target, None, elapsed, in_check))
                continue
            report = json.loads(proc.stdout)
            report["fp8_coverage"] = coverage
            rows.append((name, target, report, elapsed, in_check))
            o = report["overall"]
            print(f"{name:28} {target:5} rel_l2 {fmt(o['rel_l2_err'])} "
                  f"max_rel {fmt(o['max_rel_err'])} cosine "
                  f"{fmt(o['cosine'], 6)} argmax "
                  f"{fmt(o['argmax_agree_rate'], 4)} fp32 "
                  f"{report['fp32_ms']:.2f} ms amp {report['amp_ms']:.2f} ms "
                  f"({elapsed:.0f} s)", flush=True)

    command = "bench/accuracy/accuracy.py " + " ".join(
        shlex.quote(a) for a in sys.argv[1:])
    lines = [
        "# Accuracy of amp-mixed-precision on the corpus",
        "",
        "Every model runs in FP32 and converted by `amp-mixed-precision` "
        "(default options but the target type) on the CPU, on the same "
        "seeded random inputs, with random weights "
        "(`amp-run --randomize-weights`, seed 0); the numbers are the "
        "`overall` metrics of [amp-run](../../docs/amp-run.md). `argmax` is "
        "the fraction of rows (last dimension) whose argmax agrees; times are "
        "the median of the runs, on a shared machine, so only their ratio "
        "means something.",
        "",
        f"- command: `{command.strip()}`",
        f"- machine: {machine()}",
        f"- date: {datetime.date.today().isoformat()}",
        f"- runs per version: {args.runs}",
        "",
        "| model | target | rel_l2 | max_rel | cosine | argmax | nonfinite "
        "| fp32_ms | amp_ms | in make check | amp-run time (s) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, target, report, elapsed, in_check in rows:
        check = "yes" if in_check else "bench only"
        if report is None:
            lines.append(f"| {name} | {target} | failed | | | | | | | "
                         f"{check} | {elapsed:.0f} |")
            continue
        o = report["overall"]
        lines.append(
            f"| {name} | {target} | {fmt(o['rel_l2_err'])} "
            f"| {fmt(o['max_rel_err'])} | {fmt(o['cosine'], 6)} "
            f"| {fmt(o['argmax_agree_rate'], 4)} | {o['nonfinite']} "
            f"| {report['fp32_ms']:.2f} | {report['amp_ms']:.2f} "
            f"| {check} | {elapsed:.0f} |")
    if all_fp8:
        # The FP8 section: its own heading, the command, the rows, with the
        # number of contractions that run in FP8 among the green ops.
        heading = "## FP8"
        table = [
            "| model | target | rel_l2 | max_rel | cosine | argmax | "
            "nonfinite | FP8 / green ops | fp32_ms | amp_ms | in make check "
            "| amp-run time (s) |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for name, target, report, elapsed, in_check in rows:
            check = "yes" if in_check else "bench only"
            if report is None:
                table.append(f"| {name} | {target} | failed | | | | | | | | "
                             f"{check} | {elapsed:.0f} |")
                continue
            o = report["overall"]
            coverage = report.get("fp8_coverage")
            cov = f"{coverage[0]} / {coverage[1]}" if coverage else "?"
            table.append(
                f"| {name} | {target} | {fmt(o['rel_l2_err'])} "
                f"| {fmt(o['max_rel_err'])} | {fmt(o['cosine'], 6)} "
                f"| {fmt(o['argmax_agree_rate'], 4)} | {o['nonfinite']} "
                f"| {cov} | {report['fp32_ms']:.2f} | {report['amp_ms']:.2f} "
                f"| {check} | {elapsed:.0f} |")
        lines = [
            heading,
            "",
            "`amp-mixed-precision{target-type=f8E4M3FN|f8E5M2 ranges=...}` "
            "(docs/fp8.md): green contractions with FP8 inputs and FP32 "
            "accumulation, everything else as the 16-bit plan decides. "
            "Same models, weights and evaluation inputs as above.",
            "",
            f"- command: `{command.strip()}`",
            f"- machine: {machine()}",
            f"- date: {datetime.date.today().isoformat()}",
            f"- runs per version: {args.runs}",
            "",
        ] + table + ["", "Notes:", ""] + [f"- {n}" for n in FP8_NOTES]
    elif not wanted:
        lines += ["", "Notes:", ""] + [f"- {note}" for note in NOTES]
    output = args.output
    if output is None and not wanted:
        output = os.path.join(ROOT, "bench", "results", "accuracy.md")
    if output is not None and all_fp8 and not wanted and args.output is None:
        replace_section(output, heading, lines)
        print(f"updated the FP8 section of {output}")
    elif output is None:
        print("\n".join(lines))
    else:
        with open(output, "w") as f:
            f.write("\n".join(lines) + "\n")
        print(f"wrote {output}")
    return 0 if all(r[2] is not None for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
