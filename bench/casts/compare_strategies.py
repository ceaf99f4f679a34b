#!/usr/bin/env python3
"""Compares the gray strategies of --amp-mixed-precision on every corpus
model, for f16 and bf16:

  min-bytes     (default) exact minimum cut, costs in bytes
  fewest-casts  the previous default: forward availability + backward demotion
  follow        TVM's local rule: every gray op whose inputs are low runs low
                (init tensors are never converted, as in TVM)

Per model and strategy: casts inserted, bytes the casts move, bytes the gray
ops move (both as the pass's cost model counts them: 4 or 2 bytes per element
read or written), the share of ops in 16 bits, and, with --accuracy, the
relative L2 error of the converted model against FP32 through amp-run
(random weights and inputs, seed 0). Writes a markdown table
(bench/results/casts.md by default).

Usage: bench/casts/compare_strategies.py [--build build] [--accuracy]
       [--out bench/results/casts.md]
"""

import argparse
import glob
import json
import os
import platform
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STRATEGIES = ["min-bytes", "fewest-casts", "follow"]
# The heading of the section bench/casts/constant_payloads.py writes.
KEPT_SECTION = "## Risky math on constants"
TARGETS = ["f16", "bf16"]


def totals(amp_opt, model, target, strategy):
    cmd = [amp_opt, model, "-o", os.devnull,
           f"--amp-mixed-precision=target-type={target} "
           f"gray-strategy={strategy} report=-"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return json.loads(out)["totals"]


def accuracy(amp_run, model, target, strategy):
    cmd = [amp_run, model, "--randomize-weights", "--runs", "1", "--json",
           f"--pipeline=amp-mixed-precision{{target-type={target} "
           f"gray-strategy={strategy}}}"]
    try:
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=90)
    except subprocess.TimeoutExpired:
        return None
    if run.returncode != 0:
        return None
    try:
        return json.loads(run.stdout)["overall"]["rel_l2_err"]
    except (ValueError, KeyError):
        return None


def fmt_bytes(n):
    for unit, size in (("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--accuracy", action="store_true",
                        help="also measure accuracy with amp-run (slow)")
    parser.add_argument("--accuracy-targets", default="f16,bf16",
                        help="targets whose accuracy --accuracy measures")
    parser.add_argument("--out", default=os.path.join(ROOT, "bench/results/casts.md"))
    args = parser.parse_args()
    amp_opt = os.path.join(args.build, "bin/amp-opt")
    amp_run = os.path.join(args.build, "bin/amp-run")

    models = sorted(glob.glob(os.path.join(ROOT, "third_party/corpus/*/*.mlir")))
    sections = []
    not_minimal = []
    for target in TARGETS:
        rows = []
        sums = {s: [0, 0, 0] for s in STRATEGIES}
        for model in models:
            name = os.path.relpath(model, os.path.join(ROOT, "third_party/corpus"))
            cells = []
            moved = {}
            for strategy in STRATEGIES:
                t = totals(amp_opt, model, target, strategy)
                share = (t["green"] + t["gray_low"]) / max(t["ops"], 1)
                moved[strategy] = t["cast_bytes"] + t["gray_bytes"]
                sums[strategy][0] += t["casts_inserted"]
                sums[strategy][1] += t["cast_bytes"]
                sums[strategy][2] += t["gray_bytes"]
                cell = (f"{t['casts_inserted']} / {fmt_bytes(t['cast_bytes'])} / "
                        f"{fmt_bytes(t['gray_bytes'])} / {share:.0%}")
                if args.accuracy and target in args.accuracy_targets.split(","):
                    err = accuracy(amp_run, model, target, strategy)
                    cell += " / " + ("n/a" if err is None else f"{err:.1e}")
                cells.append(cell)
            if any(moved["min-bytes"] > moved[s] for s in STRATEGIES):
                not_minimal.append(f"{name} ({target})")
            rows.append(f"| {name} | " + " | ".join(cells) + " |")
        rows.append("| **total** | " + " | ".join(
            f"**{sums[s][0]} / {fmt_bytes(sums[s][1])} / {fmt_bytes(sums[s][2])}**"
            for s in STRATEGIES) + " |")
        header = "| model | " + " | ".join(STRATEGIES) + " |"
        sections += [f"## {target}", "", header,
                     "|---|" + "---|" * len(STRATEGIES), *rows, ""]

    cell_doc = "casts / cast bytes / gray-op bytes / ops in 16 bits"
    if args.accuracy:
        cell_doc += (" / rel. L2 error vs FP32 (amp-run, random weights, seed 0;"
                     " measured for " + args.accuracy_targets + ")")
    lines = [
        "# Gray strategies: casts and bytes moved",
        "",
        "Every corpus model (`third_party/corpus`, the same as",
        "`/work/shared/corpus`), converted with each gray strategy:",
        "`min-bytes` (the default: an exact minimum cut, costs in bytes),",
        "`fewest-casts` (the previous default: two sweeps counting casts) and",
        "`follow` (TVM's local rule; init tensors are never converted, as in",
        "TVM). Bytes as the pass's cost model counts them: a cast reads and",
        "writes every element (6 bytes), a gray op moves 4 bytes per element it",
        "reads or writes in FP32 and 2 in 16 bits; green and red ops move the",
        "same in every strategy and are not counted. Ops in 16 bits: green and",
        "gray ops in the target type over all ops that take part.",
        "",
        f"Each cell: {cell_doc}.",
        "",
        "Command: `python3 bench/casts/compare_strategies.py"
        + (f" --accuracy --accuracy-targets={args.accuracy_targets}"
           if args.accuracy else "") + "`  ",
        f"Machine: {platform.machine()} {platform.system()} (counts do not",
        "depend on the machine).",
        "",
        *sections,
        ("min-bytes moves the fewest bytes (casts + gray ops) on every model "
         "and target." if not not_minimal else
         "min-bytes does NOT move the fewest bytes on: " + ", ".join(not_minimal)
         + "."),
        "",
    ]
    # Sections other scripts write (constant_payloads.py) are kept.
    kept = ""
    if os.path.exists(args.out):
        with open(args.out) as f:
            old = f.read()
        marker = old.find("\n" + KEPT_SECTION)
        if marker >= 0:
            kept = old[marker:]
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + kept)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
