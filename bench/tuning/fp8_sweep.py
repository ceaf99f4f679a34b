#!/usr/bin/env python3
# ===- fp8_sweep.py - amp-tune across FP8, 16 bits and FP32 on the corpus ---===#
#
# Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------------===#
"""Three-level tuning (FP8, 16 bits, FP32) of the corpus models with FP8 contractions.

    fp8_sweep.py WORK [--build build] [--tolerances 1e-2,3e-2] [--report-only]

For each model: `amp-run --randomize-weights --input-seed=1 --calibrate`
(ranges from inputs other than the evaluation's), then, per tolerance,
`amp-tune --randomize-weights --precisions=f8E4M3FN,f16 --ranges=...
--tolerance=rel_l2=T --json`. Prints a markdown table of the shares of
multiply-adds per precision (WORK keeps every JSON; --report-only rebuilds
the table from them).
"""

import argparse
import json
import os
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (corpus path, extra arguments)
MODELS = [
    ("linalg/mlp-3layers.mlir", []),
    ("linalg/multi-head-attention.mlir", []),
    ("linalg/resnet50-bottleneck-block.mlir", ["--entry=resnet50_bottleneck_block"]),
    ("tosa/next-ffn.mlir", []),
    ("tosa/next-attention.mlir", []),
    ("tosa/next-mhsa-qkv.mlir", []),
    ("linalg/resnet18.mlir", []),
    ("tosa/llama-decoder-layer.mlir", []),
]


def run_model(args, rel, extra, tolerance):
    name = os.path.splitext(os.path.basename(rel))[0]
    model = os.path.join(ROOT, "third_party", "corpus", rel)
    ranges = os.path.join(args.work, name + ".ranges.json")
    if not os.path.exists(ranges):
        subprocess.run([os.path.join(args.build, "bin", "amp-run"), model,
                        "--randomize-weights", "--input-seed=1",
                        "--calibrate=" + ranges] + extra,
                       check=True, capture_output=True)
    out = os.path.join(args.work, f"{name}-{tolerance}.json")
    start = time.time()
    proc = subprocess.run([os.path.join(args.build, "bin", "amp-tune"), model,
                           "--randomize-weights", "--precisions=f8E4M3FN,f16",
                           "--ranges=" + ranges, "--quiet", "--json",
                           f"--tolerance=rel_l2={tolerance}",
                           "-o", os.path.join(args.work, f"{name}-{tolerance}.mlir")]
                          + extra, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"amp-tune failed on {name}: {proc.stderr[-2000:]}")
    with open(out, "w") as f:
        f.write(proc.stdout)
    print(f"{name} {tolerance}: {time.time() - start:.1f} s", flush=True)


def table(args):
    lines = ["| model | tolerance | rel_l2 | FP8 contractions | moved to f16 | "
             "kept FP32 | MACs | FP8 | f16 | FP32 | trials | seconds |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for rel, _ in MODELS:
        name = os.path.splitext(os.path.basename(rel))[0]
        for tolerance in args.tolerances.split(","):
            path = os.path.join(args.work, f"{name}-{tolerance}.json")
            if not os.path.exists(path) or os.path.getsize(path) == 0:
                continue
            with open(path) as f:
                r = json.load(f)
            share = r["share_macs"]
            fp8_ops = r["fp8_ops"]
            stay = sum(1 for o in fp8_ops if not o["moved_to_16bit"])
            pct = lambda key: f"{100 * (share.get(key) or 0):.1f}%"
            lines.append(
                f"| {name} | rel_l2={tolerance} | {r['rel_l2']:.3g} | "
                f"{stay} / {len(fp8_ops)} | {r['moved_to_16bit']} | "
                f"{r['kept_fp32']} | {r['macs']['total']:,} | {pct('f8E4M3FN')} | "
                f"{pct('f16')} | {pct('f32')} | {len(r['trials'])} | "
                f"{r['seconds']:.1f} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("work")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--tolerances", default="1e-2,3e-2")
    parser.add_argument("--report-only", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    if not args.report_only:
        for rel, extra in MODELS:
            for tolerance in args.tolerances.split(","):
                run_model(args, rel, extra, tolerance)
    print(table(args))


if __name__ == "__main__":
    main()
