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
    "**mlp-3layers, resnet18 (f16)**: one of the 3 matmuls and 3 of the 21 "
    "convolutions stay in FP32: among a million random weights, a few are "
    "below f16's smallest subnormal (6e-8), and the pass keeps the "
    "consumers of a constant that does not fit f16 in FP32 even when only "
    "such tiny values would flush to zero (`report=` says \"constant out of "
    "range\"). bf16 has the range of FP32 and converts them all.",
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
    wanted = set(filter(None, args.models.split(",")))
    targets = args.targets.split(",")
    rows = []
    for name, path, extra, in_check in MODELS:
        if wanted and name not in wanted:
            continue
        for target in targets:
            cmd = [amp_run, os.path.join(ROOT, "third_party", "corpus", path),
                   "--randomize-weights", "--json", f"--runs={args.runs}",
                   f"--pipeline=amp-mixed-precision{{target-type={target}}}"
                   ] + extra
            start = time.time()
            proc = subprocess.run(cmd, capture_output=True, text=True)
            elapsed = time.time() - start
            if proc.returncode != 0:
                print(f"{name} {target}: amp-run failed:\n{proc.stderr}",
                      file=sys.stderr)
                rows.append((name, target, None, elapsed, in_check))
                continue
            report = json.loads(proc.stdout)
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
    if not wanted:
        lines += ["", "Notes:", ""] + [f"- {note}" for note in NOTES]
    output = args.output
    if output is None and not wanted:
        output = os.path.join(ROOT, "bench", "results", "accuracy.md")
    if output is None:
        print("\n".join(lines))
    else:
        with open(output, "w") as f:
            f.write("\n".join(lines) + "\n")
        print(f"wrote {output}")
    return 0 if all(r[2] is not None for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
