#!/usr/bin/env python3
"""Instructions executed by --amp-mixed-precision against --canonicalize/--cse.

The companion of run.py for a noisy machine: CPU seconds of one run scatter by
tens of percent on a shared VM, instruction counts do not (the same binary and
input give the same count, whatever else the machine does). For each model
family (gen_model.py) at one size, runs amp-compile-bench under valgrind's
callgrind, counting only the instructions of the pass manager's run (the
pass, or the baseline, without parsing or verification), and prints the
ratios. Counts are not time: a cache miss costs more than an instruction, so
run.py remains the measurement of record; this one says whether a change
made the pass do less work.

Usage:
  bench/compile/instructions.py --build build [--ops 20000]
                                [--families mlp,conv,transformer]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PIPELINES = {
    "pass": "builtin.module(func.func(amp-mixed-precision))",
    "canonicalize": "builtin.module(func.func(canonicalize))",
    "cse": "builtin.module(func.func(cse))",
}


def count(tool, model, pipeline, work):
    """Instructions of mlir::PassManager::run for one pipeline, and the
    number of ops of the model."""
    out = os.path.join(work, "callgrind.out")
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
         "--toggle-collect=mlir::PassManager::run*", tool, model,
         "--pipeline=" + pipeline],
        capture_output=True, text=True, check=True)
    match = re.search(r"Collected : (\d+)", result.stderr)
    if not match:
        sys.exit("no instruction count in valgrind's output:\n" + result.stderr)
    return int(match.group(1)), json.loads(result.stdout)["ops"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--ops", type=int, default=20000)
    parser.add_argument("--families", default="mlp,conv,transformer")
    args = parser.parse_args()
    tool = os.path.join(args.build, "bin", "amp-compile-bench")
    print("| family | ops | pass Ir | canonicalize Ir | cse Ir | "
          "pass/canon | pass/cse | pass Ir/op |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for family in args.families.split(","):
            model = os.path.join(work, f"{family}.mlir")
            subprocess.run([sys.executable, os.path.join(HERE, "gen_model.py"),
                            "--family", family, "--ops", str(args.ops),
                            "-o", model], check=True,
                           stderr=subprocess.DEVNULL)
            ir, ops = {}, 0
            for name, pipeline in PIPELINES.items():
                ir[name], ops = count(tool, model, pipeline, work)
            print(f"| {family} | {ops} | {ir['pass']:,} | "
                  f"{ir['canonicalize']:,} | {ir['cse']:,} | "
                  f"{ir['pass'] / ir['canonicalize']:.2f} | "
                  f"{ir['pass'] / ir['cse']:.2f} | "
                  f"{ir['pass'] / ops:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
