#!/usr/bin/env python3
"""The GPU differential check of amp-graphgen (--numerics): builds a
generated module for the CPU (FP32, the reference) and for the GPU with
amp-compile, runs the GPU program under amp-emulate with all checks on, and
compares the outputs on the same seeded inputs.

  amp-graphgen --numerics="fuzz/check-gpu.py --build build" ...
  fuzz/check-gpu.py --build build [--config sm_90a-bf16 | --all] MODULE

One configuration per module (chip sm_80 or sm_90a, precision f16, bf16 or
fp32), chosen from a hash of the module's text so that a campaign covers all
six; --config or --all choose explicitly.

Exit 0 when the outputs agree, or when the FP32 CPU build cannot be made (the
reference is missing: says nothing about the GPU path; "skip"), or when the
GPU path rejects the module with one of the documented "not supported"
errors (listed in UNSUPPORTED; "skip" too). Exit 1 on anything else: a GPU
compile error or crash, an emulator check failure (race, out of bounds,
async wait), a crash of the program, or an output off by more than the
precision's bound (relative L2 error above REL_L2 where the absolute error
is above ABS; see check-numerics.py for why both).
"""

import argparse
import hashlib
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIGS = ["sm_80-f16", "sm_90a-bf16", "sm_80-fp32", "sm_90a-f16",
           "sm_80-bf16", "sm_90a-fp32"]
REL_L2 = {"f16": 0.1, "bf16": 0.1, "fp32": 1e-3}
ABS = {"f16": 1e-2, "bf16": 1e-2, "fp32": 1e-4}
# GPU-path errors that mean "outside what the GPU path supports" (clear
# errors, not bugs).
UNSUPPORTED = ("is not supported on the GPU", "the GPU pipeline does not",
               "only whole-buffer code can run on the GPU")


def run(cmd, timeout=300):
    return subprocess.run(cmd, capture_output=True, text=True,
                          timeout=timeout)


def read_outputs(folder):
    with open(os.path.join(folder, "outputs.json")) as f:
        meta = json.load(f)
    outputs = []
    for o in meta["outputs"]:
        with open(os.path.join(folder, o["file"]), "rb") as f:
            data = f.read()
        code = "q" if o["dtype"] == "int64" else "f"
        outputs.append(struct.unpack("<%d%s" % (len(data) // struct.calcsize(
            code), code), data))
    return outputs


def compare(ref, got, precision):
    """Problems between two output lists (empty when they agree)."""
    problems = []
    if len(ref) != len(got):
        return ["%d outputs, expected %d" % (len(got), len(ref))]
    for i, (r, g) in enumerate(zip(ref, got)):
        if len(r) != len(g):
            problems.append("output %d: %d elements, expected %d" %
                            (i, len(g), len(r)))
            continue
        num = den = max_abs = 0.0
        for a, b in zip(r, g):
            if not (math.isfinite(a) and math.isfinite(b)):
                # Overflow of the narrow type where FP32 did not overflow
                # is a property of the data (check-numerics.py); a NaN or
                # inf the reference does not have in FP32 is not.
                if math.isfinite(a) and precision == "fp32":
                    problems.append("output %d: non-finite %r where the "
                                    "reference has %r" % (i, b, a))
                    break
                continue
            num += (a - b) ** 2
            den += a * a
            max_abs = max(max_abs, abs(a - b))
        rel = math.sqrt(num / den) if den > 0 else math.sqrt(num)
        if rel > REL_L2[precision] and max_abs > ABS[precision]:
            problems.append("output %d: rel_l2 %.3g, max_abs %.3g" %
                            (i, rel, max_abs))
    return problems


def check(args, module, config, work):
    chip, precision = config.split("-")
    compile_py = [sys.executable, os.path.join(ROOT, "tools", "amp-compile",
                                               "amp-compile.py"),
                  "--amp-opt", os.path.join(args.build, "bin", "amp-opt"),
                  "--runtime", os.path.join(args.build, "lib",
                                            "libamp_cuda_runtime.so")]
    cpu = os.path.join(work, "cpu")
    if not os.path.exists(os.path.join(cpu, "out", "outputs.json")):
        res = run(compile_py + [module, "-o", cpu, "--target", "cpu",
                                "--precision", "fp32"])
        if res.returncode != 0:
            print("skip: no FP32 CPU build (%s)" %
                  (res.stderr.strip().splitlines() or ["?"])[-1][:200])
            return 0
        res = run([os.path.join(cpu, "model"), "--iters", "1", "--warmup",
                   "0", "--seed", "7", "--quiet", "--outputs",
                   os.path.join(cpu, "out")])
        if res.returncode != 0:
            print("skip: the FP32 CPU build does not run")
            return 0
    gpu = os.path.join(work, config)
    res = run(compile_py + [module, "-o", gpu, "--chip", chip, "--precision",
                            precision, "--format", "isa"])
    if res.returncode != 0:
        if any(u in res.stderr for u in UNSUPPORTED):
            print("skip: %s: not supported on the GPU path" % config)
            return 0
        sys.stderr.write("%s: amp-compile failed:\n%s" % (config,
                                                          res.stderr[-3000:]))
        return 1
    res = run([os.path.join(args.build, "bin", "amp-emulate"),
               os.path.join(gpu, "model"), "--iters", "1", "--warmup", "0",
               "--seed", "7", "--quiet", "--outputs",
               os.path.join(gpu, "out")])
    if res.returncode != 0:
        sys.stderr.write("%s: the emulated run failed (exit %d):\n%s" % (
            config, res.returncode, (res.stdout + res.stderr)[-3000:]))
        return 1
    problems = compare(read_outputs(os.path.join(cpu, "out")),
                       read_outputs(os.path.join(gpu, "out")), precision)
    for p in problems:
        sys.stderr.write("%s: %s\n" % (config, p))
    if not problems:
        print("%s: match" % config)
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--config", choices=CONFIGS)
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--keep", help="keep the builds in this folder")
    parser.add_argument("module")
    args = parser.parse_args()
    args.build = os.path.abspath(args.build)
    with open(args.module, "rb") as f:
        digest = int(hashlib.sha256(f.read()).hexdigest(), 16)
    configs = (CONFIGS if args.all else
               [args.config or CONFIGS[digest % len(CONFIGS)]])
    work = args.keep or tempfile.mkdtemp(prefix="amp-check-gpu-")
    os.makedirs(work, exist_ok=True)
    try:
        return max(check(args, os.path.abspath(args.module), c, work)
                   for c in configs)
    except subprocess.TimeoutExpired as e:
        sys.stderr.write("timed out: %s\n" % " ".join(e.cmd)[:300])
        return 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
