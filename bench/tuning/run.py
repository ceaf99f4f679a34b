#!/usr/bin/env python3
# ===- run.py - amp-tune on every corpus model ------------------------------===#
#
# Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
#
# Runs `amp-tune --randomize-weights --json` on every corpus model for each
# tolerance and writes a table (model x tolerance: ops that can run in 16
# bits, ops kept in FP32, ops in 16 bits after tuning, rel_l2 of the plain
# conversion and of the tuned model, trials, wall time) to
# bench/results/tuning.md, with the command and the machine.
#
#   bench/tuning/run.py [--build build] [--tolerances rel_l2=1e-3,rel_l2=3e-4]
#                       [--models a,b] [--output FILE]
#
# Only the Python standard library is used; amp-tune does the work.
#
# ===------------------------------------------------------------------------===#

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench", "accuracy"))
from accuracy import MODELS, machine  # noqa: E402  (the same models, options and machine line)


def tune(build, path, extra, tolerance):
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [os.path.join(build, "bin", "amp-tune"), path,
               "--randomize-weights", "--tolerance=" + tolerance, "--json",
               "--quiet", "-o", os.path.join(tmp, "tuned.mlir")] + extra
        start = time.monotonic()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.monotonic() - start
    if proc.returncode != 0:
        lines = [l for l in proc.stderr.splitlines() if "error" in l]
        return {"error": (lines or ["exit %d" % proc.returncode])[0]}
    data = json.loads(proc.stdout)
    data["wall"] = wall
    return data


def fmt(x):
    return "-" if x is None else "%.3g" % x


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--tolerances", default="rel_l2=1e-3,rel_l2=3e-4")
    parser.add_argument("--models", default="")
    parser.add_argument("--output", default="")
    args = parser.parse_args()
    tolerances = args.tolerances.split(",")
    chosen = set(args.models.split(",")) if args.models else None
    rows = []
    for name, rel, extra, _ in MODELS:
        if chosen and name not in chosen:
            continue
        path = os.path.join(ROOT, "third_party", "corpus", rel)
        for tolerance in tolerances:
            r = tune(args.build, path, extra, tolerance)
            if "error" in r:
                rows.append("| %s | %s | error: %s |||||||" %
                            (name, tolerance, r["error"]))
            else:
                trials = r["trials"]
                plain = trials[0]["rel_l2"]
                chosen_trial = [t for t in trials if t["meets"] and
                                t["kept_fp32"] == r["kept_fp32"]]
                tuned = chosen_trial[-1]["rel_l2"] if chosen_trial else None
                rows.append("| %s | %s | %d | %d | %d | %s | %s | %d | %.1f |" % (
                    name, tolerance, r["candidates"], r["kept_fp32"],
                    r["ops_16bit"], fmt(plain), fmt(tuned), len(trials),
                    r["wall"]))
            print(rows[-1], file=sys.stderr, flush=True)
    out = []
    out.append("# amp-tune on the corpus\n")
    out.append("Machine: %s. Date: %s. Command: "
               "`bench/tuning/run.py --tolerances %s`: `amp-tune MODEL "
               "--randomize-weights --tolerance=T --json` per model and "
               "tolerance (one random sample, the default f16 conversion, "
               "trials compiled at -O0, up to 8 greedy trials after the "
               "bisection).\n" % (
                   machine(), datetime.date.today().isoformat(),
                   args.tolerances))
    out.append("Columns: *candidates*, the ops the plain conversion runs in "
               "16 bits; *kept*, the ops amp-tune annotates to stay in FP32; "
               "*16-bit after*, the candidates still in 16 bits in the tuned "
               "conversion (keeping one op in FP32 can pull neighbours that "
               "follow it along); *rel_l2 plain / tuned*, the largest "
               "relative L2 error over the outputs; *trials* includes the "
               "measuring run; *seconds*, wall time of the whole amp-tune "
               "run (parsing, reference, probes, trials).\n")
    out.append("| model | tolerance | candidates | kept | 16-bit after | "
               "rel_l2 plain | rel_l2 tuned | trials | seconds |")
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    out.extend(rows)
    text = "\n".join(out) + "\n"
    target = args.output or (os.path.join(ROOT, "bench", "results",
                                          "tuning.md") if not chosen else "")
    if target:
        with open(target, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
