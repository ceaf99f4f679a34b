#!/usr/bin/env python3
"""Counts the casts and low-precision gray ops that --amp-mixed-precision
produces on the corpus with its two gray strategies:

  fewest-casts  (default) forward availability + backward demotion
  follow        TVM's local rule: every gray op whose inputs are low runs low

and writes a markdown table (bench/results/casts.md by default).

Usage: bench/casts/compare_strategies.py [--amp-opt build/bin/amp-opt]
       [--target f16] [--out bench/results/casts.md]
"""

import argparse
import glob
import json
import os
import platform
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def totals(amp_opt, model, target, strategy):
    cmd = [amp_opt, model, "-o", os.devnull,
           f"--amp-mixed-precision=target-type={target} "
           f"gray-strategy={strategy} report=-"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return json.loads(out)["totals"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--amp-opt", default=os.path.join(ROOT, "build/bin/amp-opt"))
    parser.add_argument("--target", default="f16")
    parser.add_argument("--out", default=os.path.join(ROOT, "bench/results/casts.md"))
    args = parser.parse_args()

    models = sorted(glob.glob(os.path.join(ROOT, "third_party/corpus/*/*.mlir")))
    rows, sum_f, sum_t = [], 0, 0
    for model in models:
        few = totals(args.amp_opt, model, args.target, "fewest-casts")
        fol = totals(args.amp_opt, model, args.target, "follow")
        sum_f += few["casts_inserted"]
        sum_t += fol["casts_inserted"]
        name = os.path.relpath(model, os.path.join(ROOT, "third_party/corpus"))
        rows.append(f"| {name} | {few['green']} | {fol['casts_inserted']} | "
                    f"{few['casts_inserted']} | {fol['gray_low']}/{fol['gray']} | "
                    f"{few['gray_low']}/{few['gray']} |")

    lines = [
        "# Casts inserted: fewest-casts vs. TVM's local rule",
        "",
        f"Target {args.target}. `follow` runs every gray op whose float inputs are",
        "low in low precision (TVM's ToMixedPrecision rule); `fewest-casts` (the",
        "default) keeps such an op in FP32 when its results are only read in FP32",
        "and that needs no more casts. Casts counted in the converted IR.",
        "",
        "Command: `python3 bench/casts/compare_strategies.py`  ",
        f"Machine: {platform.machine()} {platform.system()}, "
        f"{os.cpu_count()} cores (counts do not depend on the machine).",
        "",
        "| model | green ops | casts (follow) | casts (fewest-casts) "
        "| gray low (follow) | gray low (fewest-casts) |",
        "|---|---|---|---|---|---|",
        *rows,
        f"| **total** | | **{sum_t}** | **{sum_f}** | | |",
        "",
    ]
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
