#!/usr/bin/env python3
"""The GPU benchmarks of bench/gpu/run.sh, in one run: GEMMs and end to end.

Runs the executables bench/gpu/build.sh made (amp's mma.sync, wgmma and FP32
paths, f16 and bf16 inputs with f32 accumulation) and, on the same GPU in
the same run, cuBLAS through torch.matmul (torch_gemm.py) and a Triton
matmul (triton_gemm.py), each in its own process so that one missing or
failing reference leaves the others. Writes a markdown report and a JSON
file with one object per measurement:

  {"impl": "amp-mma-sync"|"amp-wgmma"|"amp-fp32"|"cublas"|"triton",
   "dtype": "f16"|"bf16"|"f32", "m": N, "n": N, "k": N, "tflops": T, ...}
  {"model": ..., "impl": "amp-fp32"|"amp-mixed", "ms": ...,
   "rel_l2_vs_fp32": ...}
  {"model": ..., "impl": "amp-fp32-graph"|"amp-mixed-graph", "ms": ...,
   "rel_l2_vs_eager": ...}   (the executable run with --graph: one call
                             captured into a CUDA graph and replayed)

plus top-level "device", "driver", "commit" and "command". Timing, for amp
and the references alike: the median of --iters calls after warmup, each
call timed with a wall clock and ended by a stream synchronize (launch
overhead and, for amp, output allocation included); the references also
report back-to-back CUDA event time ("event_ms").
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SIZES = [1024, 2048, 4096, 8192]
# The end-to-end models torch_e2e.py writes in PyTorch.
TORCH_MODELS = ("mlp", "attention", "ffn", "cnn")
MEDIAN = re.compile(r"^time_ms: min [0-9.]+ median ([0-9.]+) ", re.M)


def tflops(n, ms):
    return 2.0 * n ** 3 / (ms * 1e-3) / 1e12 if ms and ms > 0 else None


# Seconds an amp executable may run. Every one of them finishes in a few
# seconds on an H100; a kernel that hangs (a lost mbarrier phase) must not
# eat the GPU session, so after a timeout the larger sizes of the same
# implementation are skipped.
AMP_TIMEOUT = 60


def run_amp(path, iters, warmup, extra=()):
    """Median milliseconds of an amp executable, or None (with a note)."""
    if not os.path.exists(path):
        return None, "missing"
    try:
        proc = subprocess.run([path, "--iters", str(iters), "--warmup",
                               str(warmup), "--quiet", *extra],
                              capture_output=True, text=True,
                              timeout=AMP_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % AMP_TIMEOUT
    match = MEDIAN.search(proc.stdout)
    if proc.returncode != 0 or not match:
        return None, (proc.stdout + proc.stderr).strip()[-300:]
    return float(match.group(1)), ""


def run_reference(script, dtype, sizes):
    """JSON lines of torch_gemm.py / triton_gemm.py, by size; or a note."""
    try:
        proc = subprocess.run([sys.executable, os.path.join(HERE, script),
                               "--dtype", dtype, *map(str, sizes)],
                              capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return {}, "timed out"
    rows = {}
    for line in proc.stdout.splitlines():
        try:
            row = json.loads(line)
            rows[row["n"]] = row
        except (ValueError, KeyError):
            pass
    note = "" if proc.returncode == 0 else (proc.stderr.strip()[-300:] or
                                            "exit %d" % proc.returncode)
    return rows, note


def compare(reference, test):
    """amp-compare's metrics of the worst output of `test` against
    `reference` (folders of outputs), or {}."""
    with tempfile.NamedTemporaryFile(suffix=".json") as path:
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts",
                                                     "amp-compare.py"),
                        reference, test, "--max-rel-l2", "1",
                        "--min-cosine", "0", "--json", path.name],
                       capture_output=True)
        try:
            with open(path.name) as f:
                return max(json.load(f), key=lambda d: d["rel_l2"])
        except (OSError, ValueError):
            return {}


def smi(query):
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=" + query,
                              "--format=csv,noheader"], capture_output=True,
                             text=True, timeout=30).stdout.strip()
        return out.splitlines()[0] if out else "unknown"
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(HERE, "prebuilt"))
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--report", required=True)
    parser.add_argument("--json", required=True)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    bin_dir = os.path.abspath(args.bin)

    def read(name):
        try:
            with open(os.path.join(bin_dir, name)) as f:
                return f.read().strip()
        except OSError:
            return "unknown"

    device = smi("name")
    result = {"device": device, "driver": smi("driver_version"),
              "clocks": smi("clocks.sm,clocks.max.sm,clocks.mem"),
              "commit": read("COMMIT"), "format": read("FORMAT"),
              "command": "bench/gpu/run.sh --iters %d" % args.iters,
              "timing": "median of per-call synchronized wall-clock times",
              "measurements": [], "notes": []}
    measurements = result["measurements"]
    notes = result["notes"]

    def save():
        # After each section, so that a run cut short keeps what it measured.
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
        write_report(result, args.report, sizes)

    # GEMMs.
    references = {}
    for dtype in ("f16", "bf16"):
        for impl, script in (("cublas", "torch_gemm.py"),
                             ("triton", "triton_gemm.py")):
            rows, note = run_reference(script, dtype, sizes)
            references[(impl, dtype)] = rows
            if note:
                notes.append("%s %s: %s" % (impl, dtype, note))
    save()
    hung = set()
    for n in sizes:
        for dtype in ("f16", "bf16"):
            suffix = "" if dtype == "f16" else "-bf16"
            for impl, exe in (("amp-mma-sync", "gemm-mma%s-%d"),
                              ("amp-wgmma", "gemm-wgmma%s-%d")):
                if (impl, dtype) in hung:
                    notes.append("%s %s %d: skipped (a smaller size timed "
                                 "out)" % (impl, dtype, n))
                    continue
                ms, note = run_amp(os.path.join(bin_dir, exe % (suffix, n)),
                                   args.iters, 5)
                if note.startswith("timed out"):
                    hung.add((impl, dtype))
                if ms is None:
                    notes.append("%s %s %d: %s" % (impl, dtype, n, note))
                    continue
                measurements.append({"impl": impl, "dtype": dtype, "m": n,
                                     "n": n, "k": n, "tflops": tflops(n, ms),
                                     "ms": ms})
            for impl in ("cublas", "triton"):
                row = references[(impl, dtype)].get(n)
                if row:
                    entry = {"impl": impl, "dtype": dtype, "m": n, "n": n,
                             "k": n, "tflops": tflops(n, row["sync_ms"]),
                             "ms": row["sync_ms"],
                             "event_tflops": tflops(n, row["event_ms"])}
                    for key in ("rel_l2_vs_f32", "config", "torch", "triton"):
                        if key in row:
                            entry[key] = row[key]
                    measurements.append(entry)
        # mma.sync variants, f16: the earlier kernel (K tiles of 32, 3
        # stages) and the default tiling without the fragment prefetch.
        for variant in ("k32", "noprefetch"):
            ms, note = run_amp(os.path.join(bin_dir, "gemm-mma-%s-%d" % (
                variant, n)), args.iters, 5)
            if ms is not None:
                measurements.append({"impl": "amp-mma-sync-" + variant,
                                     "dtype": "f16", "m": n, "n": n, "k": n,
                                     "tflops": tflops(n, ms), "ms": ms})
            elif note != "missing":
                notes.append("amp-mma-sync-%s f16 %d: %s" % (variant, n, note))
        fp32_iters = 5 if n >= 8192 else args.iters
        if ("amp-fp32", "f32") in hung:
            notes.append("amp-fp32 %d: skipped (a smaller size timed out)" % n)
            continue
        ms, note = run_amp(os.path.join(bin_dir, "gemm-fp32-%d" % n),
                           fp32_iters, 1)
        if note.startswith("timed out"):
            hung.add(("amp-fp32", "f32"))
        if ms is None:
            notes.append("amp-fp32 %d: %s" % (n, note))
        else:
            measurements.append({"impl": "amp-fp32", "dtype": "f32", "m": n,
                                 "n": n, "k": n, "tflops": tflops(n, ms),
                                 "ms": ms})

        save()

    # End to end: FP32 original vs mixed precision on the same inputs.
    work = tempfile.mkdtemp(prefix="amp-e2e.")
    for model in ("mlp", "attention", "ffn", "cnn"):
        times = {}
        for variant in ("fp32", "mixed"):
            outputs = os.path.join(work, "%s-%s" % (model, variant))
            os.makedirs(outputs, exist_ok=True)
            extra = ["--seed", "1", "--outputs", outputs]
            if variant == "fp32":
                # The inputs, for the PyTorch version of the model.
                os.makedirs(os.path.join(work, model + "-inputs"),
                            exist_ok=True)
                extra += ["--save-inputs", os.path.join(work,
                                                        model + "-inputs")]
            exe = os.path.join(bin_dir, "e2e-%s-%s" % (model, variant))
            ms, note = run_amp(exe, args.iters, 5, extra)
            if ms is None:
                notes.append("e2e %s %s: %s" % (model, variant, note))
            times[variant] = ms
            # The same executable replaying one captured call (CUDA graph):
            # the launches' host cost removed; its outputs must be those of
            # the ordinary calls.
            replayed = outputs + "-graph"
            os.makedirs(replayed, exist_ok=True)
            ms, note = run_amp(exe, args.iters, 5,
                               ["--seed", "1", "--outputs", replayed,
                                "--graph"])
            if ms is None:
                notes.append("e2e %s %s --graph: %s" % (model, variant, note))
                continue
            same = compare(outputs, replayed)
            measurements.append({"model": model, "impl": "amp-%s-graph" %
                                 variant, "ms": ms,
                                 "rel_l2_vs_eager": same.get("rel_l2"),
                                 "max_abs_vs_eager": same.get("max_abs")})
        if times.get("fp32") is None or times.get("mixed") is None:
            continue
        metrics = compare(os.path.join(work, model + "-fp32"),
                          os.path.join(work, model + "-mixed"))
        measurements.append({"model": model, "impl": "amp-fp32",
                             "ms": times["fp32"]})
        if model in TORCH_MODELS:
            try:
                proc = subprocess.run(
                    [sys.executable, os.path.join(HERE, "torch_e2e.py"), model,
                     "--signature", os.path.join(bin_dir,
                                                 "e2e-%s-fp32.json" % model),
                     "--inputs", os.path.join(work, model + "-inputs"),
                     "--reference", os.path.join(work, model + "-fp32"),
                     "--iters", str(args.iters)],
                    capture_output=True, text=True, timeout=120)
                for line in proc.stdout.splitlines():
                    try:
                        measurements.append(json.loads(line))
                    except ValueError:
                        pass
                if proc.returncode != 0:
                    notes.append("torch %s: %s" % (
                        model, proc.stderr.strip()[-300:]))
            except subprocess.TimeoutExpired:
                notes.append("torch %s: timed out" % model)
        else:
            notes.append("torch %s: no PyTorch version of this model yet "
                         "(torch_e2e.py has %s)" % (
                             model, ", ".join(sorted(TORCH_MODELS))))
        measurements.append({"model": model, "impl": "amp-mixed",
                             "ms": times["mixed"],
                             "rel_l2_vs_fp32": metrics.get("rel_l2"),
                             "cosine_vs_fp32": metrics.get("cosine"),
                             "max_abs_vs_fp32": metrics.get("max_abs")})
        save()

    save()
    with open(args.report) as f:
        print(f.read())
    return 0


def write_report(result, path, sizes):
    rows = result["measurements"]

    def find(**key):
        for row in rows:
            if all(row.get(k) == v for k, v in key.items()):
                return row
        return None

    def fmt(value, spec="%.1f"):
        return spec % value if value is not None else "-"

    with open(path, "w") as f:
        f.write("# GPU benchmarks\n\n")
        for key in ("device", "driver", "clocks", "commit", "format",
                    "command", "timing"):
            f.write("- %s: %s\n" % (key, result[key]))
        for dtype in ("f16", "bf16"):
            f.write("\n## GEMM M=N=K, %s x %s -> f32 (TFLOP/s)\n\n" % (
                dtype, dtype))
            f.write("| N | amp mma.sync | amp wgmma | cuBLAS | Triton | "
                    "amp FP32 | mma.sync / cuBLAS | wgmma / cuBLAS |\n")
            f.write("|---|---|---|---|---|---|---|---|\n")
            for n in sizes:
                mma = find(impl="amp-mma-sync", dtype=dtype, m=n)
                wg = find(impl="amp-wgmma", dtype=dtype, m=n)
                cb = find(impl="cublas", dtype=dtype, m=n)
                tr = find(impl="triton", dtype=dtype, m=n)
                fp = find(impl="amp-fp32", m=n)
                t = lambda row: row["tflops"] if row else None
                ratio = lambda a, b: (fmt(a / b, "%.2f") if a and b else "-")
                f.write("| %d | %s | %s | %s | %s | %s | %s | %s |\n" % (
                    n, fmt(t(mma), "%.4g"), fmt(t(wg), "%.4g"),
                    fmt(t(cb), "%.4g"), fmt(t(tr), "%.4g"),
                    fmt(t(fp), "%.4g"), ratio(t(mma), t(cb)),
                    ratio(t(wg), t(cb))))
        f.write("\n## mma.sync variants, f16 (TFLOP/s; ratio to cuBLAS)\n\n"
                "| N | default: K tile 64, 4 stages, fragment prefetch | "
                "same without prefetch | earlier: K tile 32, 3 stages | "
                "cuBLAS |\n|---|---|---|---|---|\n")
        for n in sizes:
            variants = [find(impl=impl, dtype="f16", m=n) for impl in (
                "amp-mma-sync", "amp-mma-sync-noprefetch", "amp-mma-sync-k32",
                "cublas")]
            if not variants[1] and not variants[2]:
                continue
            cb = variants[3]["tflops"] if variants[3] else None
            cell = lambda row: ("-" if not row else "%.4g (%s)" % (
                row["tflops"], fmt(row["tflops"] / cb, "%.2f") if cb
                else "-"))
            f.write("| %d | %s | %s | %s | %s |\n" % (
                n, cell(variants[0]), cell(variants[1]), cell(variants[2]),
                fmt(cb, "%.4g")))
        f.write("\n## End to end: FP32 original vs --amp-mixed-precision "
                "(f16), chip=sm_90a\n\n")
        f.write("| model | amp FP32 ms | amp mixed ms | speed-up | rel. L2 "
                "vs FP32 | cosine | torch FP32 ms | torch autocast ms | "
                "autocast rel. L2 | amp mixed / autocast time |\n"
                "|---|---|---|---|---|---|---|---|---|---|\n")
        for model in ("mlp", "attention", "ffn", "cnn"):
            a = find(model=model, impl="amp-fp32")
            b = find(model=model, impl="amp-mixed")
            if not a or not b:
                f.write("| %s | - | - | - | - | - | - | - | - | - |\n" % model)
                continue
            te = find(model=model, impl="torch-eager-fp32")
            ta = find(model=model, impl="torch-autocast-f16")
            f.write("| %s | %.3f | %.3f | %.2fx | %s | %s | %s | %s | %s | %s "
                    "|\n" % (
                        model, a["ms"], b["ms"], a["ms"] / b["ms"],
                        fmt(b.get("rel_l2_vs_fp32"), "%.3g"),
                        fmt(b.get("cosine_vs_fp32"), "%.6f"),
                        fmt(te["ms"] if te else None, "%.3f"),
                        fmt(ta["ms"] if ta else None, "%.3f"),
                        fmt(ta.get("rel_l2_vs_fp32") if ta else None, "%.3g"),
                        fmt(b["ms"] / ta["ms"] if ta else None, "%.2f")))
        f.write("\nrel. L2 is against amp's FP32 outputs on the same seeded "
                "inputs (torch's FP32 line checks that the PyTorch model is "
                "the corpus model).\n")
        f.write("\n## End to end, replayed from CUDA graphs (amp --graph, "
                "torch.cuda.graph)\n\n"
                "| model | amp FP32 ms | amp mixed ms | speed-up | mixed vs "
                "eager mixed (rel. L2) | torch FP32 ms | torch autocast ms | "
                "amp mixed / autocast time |\n"
                "|---|---|---|---|---|---|---|---|\n")
        for model in ("mlp", "attention", "ffn", "cnn"):
            a = find(model=model, impl="amp-fp32-graph")
            b = find(model=model, impl="amp-mixed-graph")
            te = find(model=model, impl="torch-eager-fp32-graph")
            ta = find(model=model, impl="torch-autocast-f16-graph")
            ms = lambda row: row["ms"] if row else None
            f.write("| %s | %s | %s | %s | %s | %s | %s | %s |\n" % (
                model, fmt(ms(a), "%.3f"), fmt(ms(b), "%.3f"),
                fmt(a["ms"] / b["ms"] if a and b else None, "%.2fx"),
                fmt(b.get("rel_l2_vs_eager") if b else None, "%.3g"),
                fmt(ms(te), "%.3f"), fmt(ms(ta), "%.3f"),
                fmt(b["ms"] / ta["ms"] if b and ta else None, "%.2f")))
        if result["notes"]:
            f.write("\nNotes (what did not run):\n\n")
            for note in result["notes"]:
                f.write("- %s\n" % note.replace("\n", " "))


if __name__ == "__main__":
    sys.exit(main())
