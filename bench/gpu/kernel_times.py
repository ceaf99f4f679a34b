#!/usr/bin/env python3
"""Adds the GEMM kernels' own durations (kernel-times.txt, written by
bench/gpu/device-run.sh --profile: Nsight Compute's gpu__time_duration at
the GPU's own clocks, 3 launches per program) to gpu.json as
"kernel_times": one object per program and size with the median of its
launches,

  {"impl": "amp-mma-sync"|..., "dtype": "f16", "m": N, "n": N, "k": N,
   "kernel_us": median, "kernel_tflops": ...}

  kernel_times.py KERNEL_TIMES.txt GPU.json
"""

import json
import re
import statistics
import sys

# Program names in kernel-times.txt -> impl in gpu.json.
IMPLS = {"gemm-mma": "amp-mma-sync", "gemm-mma-noprefetch":
         "amp-mma-sync-noprefetch", "gemm-mma-k32": "amp-mma-sync-k32",
         "gemm-wgmma": "amp-wgmma", "cublas": "cublas"}
SCALE = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def parse(text):
    """{(impl, n): [microseconds, ...]}"""
    times, current = {}, None
    for line in text.splitlines():
        header = re.match(r"^== (\S+)-(\d+)$", line.strip())
        if header:
            impl = IMPLS.get(header.group(1))
            current = (impl, int(header.group(2))) if impl else None
            continue
        value = re.search(r"gpu__time_duration\.sum\s+(\S+)\s+([0-9.]+)",
                          line)
        if value and current:
            times.setdefault(current, []).append(
                float(value.group(2)) * SCALE[value.group(1)])
    return times


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: kernel_times.py KERNEL_TIMES.txt GPU.json")
    with open(sys.argv[1]) as f:
        times = parse(f.read())
    with open(sys.argv[2]) as f:
        result = json.load(f)
    rows = []
    for (impl, n), values in sorted(times.items()):
        us = statistics.median(values)
        rows.append({"impl": impl, "dtype": "f16", "m": n, "n": n, "k": n,
                     "kernel_us": round(us, 2),
                     "kernel_tflops": round(2.0 * n ** 3 / (us * 1e-6) / 1e12,
                                            1)})
    result["kernel_times"] = {
        "command": "ncu --clock-control none --metrics "
                   "gpu__time_duration.sum (bench/gpu/device-run.sh "
                   "--profile), median of 3 launches",
        "measurements": rows}
    with open(sys.argv[2], "w") as f:
        json.dump(result, f, indent=1)
    for row in rows:
        print("%-24s %5d %10.1f us %7.1f TFLOP/s" % (
            row["impl"], row["n"], row["kernel_us"], row["kernel_tflops"]))


if __name__ == "__main__":
    main()
