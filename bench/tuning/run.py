#!/usr/bin/env python3
# ===- run.py - amp-tune on every corpus model ------------------------------===#
#
# Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
#
# Runs `amp-tune --randomize-weights --json` on every corpus model, and on a
# ResNet-50 v1 NHWC at 224x224 written by resnet50_nhwc.py (weights drawn
# with --seed 7), for each tolerance, and writes a table (model x tolerance:
# input shapes, ops that can run in 16 bits, ops kept in FP32, ops in 16 bits
# after tuning, rel_l2 of the plain conversion and of the tuned model,
# trials, kernels compiled and reused, wall time) to
# bench/results/tuning.md, with the command, the machine and its load.
#
#   bench/tuning/run.py [--build build] [--before OLD/bin/amp-tune]
#                       [--tolerances rel_l2=1e-3,rel_l2=3e-4]
#                       [--models a,b] [--output FILE]
#
# With --before, each row is also run with another amp-tune (an older
# build), whose wall time is the "before" column; the rows say whether both
# made the same trials with the same errors.
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

# The generated model: (name, generator arguments, amp-tune options).
RESNET50_NHWC = ("resnet50-nhwc-224", ["--size", "224"], ["--seed=7"])


def tune(amp_tune, path, extra, tolerance):
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [amp_tune, path, "--randomize-weights",
               "--tolerance=" + tolerance, "--json", "--quiet", "-o",
               os.path.join(tmp, "tuned.mlir")] + extra
        start = time.monotonic()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.monotonic() - start
    if proc.returncode != 0:
        lines = [l for l in proc.stderr.splitlines() if "error" in l]
        return {"error": (lines or ["exit %d" % proc.returncode])[0],
                "wall": wall}
    data = json.loads(proc.stdout)
    data["wall"] = wall
    return data


def fmt(x):
    return "-" if x is None else "%.3g" % x


def mac_share(result):
    """The share of multiply-adds in 16 bits in the tuned conversion."""
    shares = (result or {}).get("share_macs", {})
    values = [v for k, v in shares.items() if k != "f32" and v is not None]
    return "-" if not values else "%.1f%%" % (100 * sum(values))


def cost_ratio(result):
    """Modeled time of the tuned conversion against FP32 (CostModel.h)."""
    cost = (result or {}).get("cost_us") or {}
    if not cost.get("fp32") or cost.get("tuned") is None:
        return "-"
    return "%.2fx" % (cost["tuned"] / cost["fp32"])


def trial_errors(result):
    return [(t["kept_fp32"], t["rel_l2"]) for t in result.get("trials", [])]


def commit_of(path):
    """The commit and state of the checkout that holds `path`."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        head = subprocess.run(["git", "-C", folder, "rev-parse", "--short",
                               "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", folder, "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True,
                               text=True).stdout.strip()
        return head + (" (with local changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--before", default="",
                        help="an older amp-tune to compare with")
    parser.add_argument("--tolerances", default="rel_l2=1e-3,rel_l2=3e-4")
    parser.add_argument("--models", default="")
    parser.add_argument("--output", default="")
    args = parser.parse_args()
    amp_tune = os.path.join(args.build, "bin", "amp-tune")
    tolerances = args.tolerances.split(",")
    chosen = set(args.models.split(",")) if args.models else None

    generated = tempfile.TemporaryDirectory()
    models = [(name, os.path.join(ROOT, "third_party", "corpus", rel), extra)
              for name, rel, extra, _ in MODELS]
    name, gen_args, extra = RESNET50_NHWC
    path = os.path.join(generated.name, name + ".mlir")
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "tuning",
                                                 "resnet50_nhwc.py"),
                    "-o", path] + gen_args, check=True)
    models.append((name, path, extra))

    load_start = os.getloadavg()
    started = time.monotonic()
    rows = []
    for name, path, extra in models:
        if chosen and name not in chosen:
            continue
        for tolerance in tolerances:
            before = tune(args.before, path, extra, tolerance) \
                if args.before else None
            r = tune(amp_tune, path, extra, tolerance)
            before_s = "-" if before is None else "%.1f" % before["wall"]
            if before is not None and "error" in before:
                before_s += " (error)"
            if "error" in r:
                cells = [name, "", tolerance, "error: " + r["error"]] + \
                    [""] * 10 + [before_s, "%.1f" % r["wall"]]
                rows.append("| " + " | ".join(cells) + " |")
            else:
                trials = r["trials"]
                plain = trials[0]["rel_l2"]
                tuned = r.get("rel_l2")
                same = "-"
                if before is not None and "error" not in before:
                    same = "yes" if trial_errors(before) == trial_errors(r) \
                        else "no"
                good = before if before is not None and "error" not in before \
                    else None
                rows.append(
                    "| %s | %s | %s | %d | %d | %d | %s | %s | %s | %s | %s | "
                    "%d | %d / %d | %s | %s | %.1f |" % (
                        name, ", ".join(r.get("inputs", [])), tolerance,
                        r["candidates"], r["kept_fp32"], r["ops_16bit"],
                        fmt(plain), fmt(tuned), mac_share(good),
                        mac_share(r), cost_ratio(r), len(trials),
                        r.get("kernels_compiled", 0),
                        r.get("kernels_reused", 0), same, before_s,
                        r["wall"]))
            print(rows[-1], file=sys.stderr, flush=True)
    load_end = os.getloadavg()
    total = time.monotonic() - started

    out = []
    out.append("# amp-tune on the corpus\n")
    out.append(
        "Machine: %s. Date: %s. amp-tune at commit %s%s. Load average (1, 5, "
        "15 min) %.1f, %.1f, %.1f at the start and %.1f, %.1f, %.1f at the "
        "end (%.0f s in all): the machine was shared, so the times are upper "
        "bounds. Command: `bench/tuning/run.py --tolerances %s%s`: "
        "`amp-tune MODEL --randomize-weights --tolerance=T --json` per model "
        "and tolerance (one random sample, the default f16 conversion, up to "
        "8 greedy trials after the bisection; up to 64 impact trials since "
        "the cost model).\n" % (
            machine(), datetime.date.today().isoformat(), commit_of(amp_tune),
            "" if not args.before else
            ", before: amp-tune at commit %s" % commit_of(args.before),
            *load_start, *load_end, total, args.tolerances,
            "" if not args.before else " --before OLD/bin/amp-tune"))
    out.append(
        "Columns: *input*, the shapes of the entry's arguments; "
        "*candidates*, the ops the plain conversion runs in 16 bits; "
        "*kept*, the ops amp-tune annotates to stay in FP32; *16-bit after*, "
        "the candidates still in 16 bits in the tuned conversion (keeping "
        "one op in FP32 can pull neighbours that follow it along); *rel_l2 "
        "plain / tuned*, the largest relative L2 error over the outputs; "
        "*16-bit MACs*, the share of the entry's multiply-adds in 16 bits "
        "in the tuned conversion, by the amp-tune before and after; "
        "*modeled*, the tuned conversion's time by amp-tune's cost model "
        "against FP32 (an H100 roofline with epilogues fused, "
        "docs/calibration-and-tuning.md); "
        "*trials* includes the measuring run; *kernels*, compiled / found "
        "compiled in the kernel cache; *same*, whether the run before made "
        "the same trials with the same errors, digit for digit; *before* and "
        "*after*, wall time of the whole amp-tune run in seconds (parsing, "
        "reference, probes, trials).\n")
    out.append("| model | input | tolerance | candidates | kept | "
               "16-bit after | rel_l2 plain | rel_l2 tuned | 16-bit MACs "
               "before | 16-bit MACs after | modeled | trials | "
               "kernels | same | before (s) | after (s) |")
    out.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
               "---:|---|---:|---:|")
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
