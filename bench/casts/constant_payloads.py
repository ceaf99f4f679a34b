#!/usr/bin/env python3
"""Risky math on constants (issue 43, part 4): every corpus model converted
with fold-constant-payloads=false (the pass of 10557cd) and true (the
default), f16.

Per model and setting, from the pass's JSON report: the red linalg.generic
ops (an inference batch norm as torch-mlir writes it was one), the casts,
and the bytes the casts, the gray ops and the red ops move (as the pass's
cost model counts them: 4 or 2 bytes per element read or written, a cast 6);
the ops in 16 bits. With --accuracy, the relative L2 error against FP32 of
the models with batch norms, through amp-run (random weights, seeds 0 to
--seeds - 1).

Writes its tables into bench/results/casts.md as the section "## Risky
math on constants" (replacing it; compare_strategies.py keeps it), or to
--out.

Usage: bench/casts/constant_payloads.py [--build build] [--accuracy]
       [--seeds 4] [--out FILE]
"""

import argparse
import glob
import json
import os
import platform
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SETTINGS = {"before": "fold-constant-payloads=false", "after": ""}
SECTION = "## Risky math on constants (fold-constant-payloads)"
INTRO = """Every corpus model in f16, before (`fold-constant-payloads=false`, the
pass of 10557cd) and after (the default): the parts of payloads that read
only constants are evaluated ahead of time (docs/mixed-precision.md), so an
inference batch norm, `(x - mean) * rsqrt(var + eps) * gamma + beta` in one
generic, is `(x - mean) * scale + beta` and gray. Red generics: the
`linalg.generic` ops that stay FP32 by color. Bytes as the cost model counts
them (casts 6 per element; gray and red ops 4 per element read or written
in FP32, 2 in 16 bits); 'all three' is what the elementwise ops and casts
move together. The accuracy rows: relative L2 error of the converted model
against FP32 (amp-run, random weights, seeds 0 to 3; amp-run's overall
metric).
"""
BATCH_NORM_MODELS = ["linalg/resnet18.mlir", "linalg/resnet50.mlir",
                     "linalg/mobilenet_v2.mlir", "linalg/efficientnet_b0.mlir"]


def report(amp_opt, model, options):
    cmd = [amp_opt, model, "-o", os.devnull,
           f"--amp-mixed-precision=report=- {options}".strip()]
    return json.loads(subprocess.run(cmd, capture_output=True, text=True,
                                     check=True).stdout)


def rel_l2(amp_run, model, options, seed):
    cmd = [amp_run, model, "--randomize-weights", "--runs", "1", "--json",
           f"--seed={seed}",
           f"--pipeline=amp-mixed-precision{{{options}}}"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        return None
    return json.loads(run.stdout)["overall"]["rel_l2_err"]


def kb(n):
    return f"{n / 1024:.0f} KB"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--accuracy", action="store_true")
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--out", help="write the markdown here instead")
    args = parser.parse_args()
    amp_opt = os.path.join(args.build, "bin/amp-opt")
    amp_run = os.path.join(args.build, "bin/amp-run")
    corpus = os.path.join(ROOT, "third_party/corpus")
    lines = [
        "| model | red generics | casts | cast bytes | gray-op bytes | "
        "red-op bytes | all three | ops in 16 bits |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for model in sorted(glob.glob(os.path.join(corpus, "*/*.mlir"))):
        name = os.path.relpath(model, corpus)
        cells = {}
        for setting, options in SETTINGS.items():
            d = report(amp_opt, model, options)
            t = d["totals"]
            red = sum(1 for o in d["ops"] if o.get("color") == "red" and
                      o["op"] == "linalg.generic")
            total = t["cast_bytes"] + t["gray_bytes"] + t["red_bytes"]
            low = t["green"] + t["gray_low"]
            cells[setting] = (red, t["casts_inserted"], t["cast_bytes"],
                              t["gray_bytes"], t["red_bytes"], total, low,
                              t["ops"])
        b, a = cells["before"], cells["after"]
        if b == a:
            lines.append(f"| {name} | {a[0]} | {a[1]} | {kb(a[2])} | "
                         f"{kb(a[3])} | {kb(a[4])} | {kb(a[5])} | "
                         f"{a[6]}/{a[7]} | (unchanged)")
            continue
        lines.append(
            f"| {name} | {b[0]} → **{a[0]}** | {b[1]} → {a[1]} | "
            f"{kb(b[2])} → {kb(a[2])} | {kb(b[3])} → {kb(a[3])} | "
            f"{kb(b[4])} → {kb(a[4])} | {kb(b[5])} → **{kb(a[5])}** | "
            f"{b[6]}/{b[7]} → {a[6]}/{a[7]} |")
    if args.accuracy:
        lines += ["", "| model | seed | rel L2 before | rel L2 after | "
                  "after / before |", "|---|---|---|---|---|"]
        for name in BATCH_NORM_MODELS:
            model = os.path.join(corpus, name)
            for seed in range(args.seeds):
                before = rel_l2(amp_run, model, SETTINGS["before"], seed)
                after = rel_l2(amp_run, model, SETTINGS["after"], seed)
                ratio = (f"{after / before:.2f}" if before and after
                         else "n/a")
                fmt = (lambda e: "n/a" if e is None else f"{e:.3e}")
                lines.append(f"| {name} | {seed} | {fmt(before)} | "
                             f"{fmt(after)} | {ratio} |")
    lines += ["", f"Command: `python3 bench/casts/constant_payloads.py"
              f"{' --accuracy --seeds ' + str(args.seeds) if args.accuracy else ''}`"
              f" ({platform.machine()} {platform.system()}; the counts do not "
              "depend on the machine)."]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
        return
    results = os.path.join(ROOT, "bench/results/casts.md")
    with open(results) as f:
        old = f.read()
    marker = old.find("\n" + SECTION)
    head = old if marker < 0 else old[:marker]
    with open(results, "w") as f:
        f.write(head.rstrip("\n") + "\n\n" + SECTION + "\n\n" + INTRO + "\n"
                + text)


if __name__ == "__main__":
    main()
