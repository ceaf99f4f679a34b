#!/usr/bin/env python3
"""The weight-only benchmark: a Llama-style decoder layer per precision.

    bench/lowbit/run.py --build build --out /tmp/lowbit [--skip-full]
                        [--skip-emulator]

For bf16, int8, int4-g128 and e4m3 weight-only (16-bit activations: bf16),
it prints one markdown table per part (bench/results/lowbit.md records
them):

1. Bytes per token at real size (hidden 4096, FFN 14336, 32 heads, 8 KV
   heads of 128), from amp's own report (`report=`, the weight bytes as
   stored) on the layer llama_layer.py writes, plus what a decode step
   reads besides the weights:
   - the KV cache of 4096 tokens, stored in 16 bits as engines keep it;
   - the RMSNorm weights, the input and the outputs, in 16 bits.
   The roofline bound per token is max(bytes / bandwidth, flops / peak)
   on an H100 SXM and an H200. Those are the datasheet numbers the
   emulator's --profile uses: 3.35 and 4.8 TB/s, 989.4 TFLOP/s dense
   16-bit. Weight-only formats run their multiply-adds in 16 bits.
   Prefill (512 tokens) reads the same weights once for 512 tokens.
2. Accuracy: rel L2 against FP32 and all-finite, from amp-run on the CPU.
   This part runs on a layer of a quarter of the width (hidden 1024, FFN
   3584, 8 heads, 2 KV heads of 128, cache 4096, and prefill 512), since
   amp-run compiles and runs both versions. The int4 groups and the int8
   channels are the same size as at full width, so the error per group
   does not depend on the width.
3. What today's GPU build reads, by the emulator's count (amp-compile
   --format isa, amp-emulate --profile), at decode on the quarter-width
   layer: DRAM bytes against the bytes the weights, cache and activations
   need.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PRECISIONS = [("bf16", None), ("int8", "int8"), ("int4-g128", "int4-g128"),
              ("e4m3", "e4m3")]
MACHINES = [("H100 SXM", 3.35e12), ("H200", 4.8e12)]
PEAK16 = 989.4e12


def run(cmd, **kwargs):
    return subprocess.run(cmd, check=True, **kwargs)


def generate(path, **shape):
    if os.path.exists(path):
        return
    args = [sys.executable, os.path.join(HERE, "llama_layer.py"), path]
    for key, value in shape.items():
        args += ["--" + key.replace("_", "-"), str(value)]
    run(args)


def pipeline(fmt):
    options = "target-type=bf16" + (" weight-only=" + fmt if fmt else "")
    return options


def report(build, model, fmt, out, size="full"):
    path = os.path.join(out, "report-%s-%s.json" % (size, fmt or "bf16"))
    if not os.path.exists(path):
        run([os.path.join(build, "bin", "amp-opt"), model,
             "--amp-mixed-precision=%s report=%s" % (pipeline(fmt), path),
             "-o", os.devnull], stderr=subprocess.DEVNULL)
    with open(path) as f:
        return json.load(f)["totals"]


def shape_counts(hidden, ffn, heads, kv_heads, cache, tokens):
    d = hidden // heads
    kvd = kv_heads * d
    params = 2 * hidden * hidden + 2 * hidden * kvd + 3 * hidden * ffn
    keys = cache if cache else tokens
    attention_flops = 4 * tokens * keys * hidden  # QK^T and PV
    flops = 2 * tokens * params + attention_flops
    other = 2 * (2 * hidden)  # RMSNorm weights, 16-bit
    other += 2 * tokens * (2 * hidden + 2 * kvd)  # x in; y, k, v out
    other += 2 * 2 * kv_heads * d * cache  # the KV cache, 16-bit
    return params, flops, other


def part_bytes(build, out, skip):
    full = dict(hidden=4096, ffn=14336, heads=32, kv_heads=8)
    params, _, _ = shape_counts(cache=0, tokens=1, **full)
    rows = {}
    if not skip:
        model = os.path.join(out, "layer-4096-decode.mlir")
        generate(model, tokens=1, cache=4096, **full)
        for name, fmt in PRECISIONS[1:]:
            totals = report(build, model, fmt, out)
            rows[name] = totals["weight_bytes"]
            rows["bf16"] = totals["weight_bytes_16"]
    else:
        # The stored size by the rules of docs/weight-only.md (what the
        # report gives, which the full run checks).
        rows = {"bf16": 2 * params,
                "int8": params + 4 * params // 4096,
                "int4-g128": params // 2 + 2 * params // 128,
                "e4m3": params + 4 * params // 4096}
    print("| precision | weights (MB) | decode: bytes/token (MB) | vs bf16 | "
          "H100 bound (us/token) | H200 bound (us/token) | prefill 512: "
          "H100 (us/token) | H200 (us/token) |")
    print("|---|---|---|---|---|---|---|---|")
    _, flops_d, other_d = shape_counts(cache=4096, tokens=1, **full)
    _, flops_p, other_p = shape_counts(cache=0, tokens=512, **full)
    base = rows["bf16"] + other_d
    for name, _ in PRECISIONS:
        decode = rows[name] + other_d
        prefill = rows[name] + other_p
        cells = ["%.1f" % (rows[name] / 1e6), "%.1f" % (decode / 1e6),
                 "%.3fx" % (decode / base)]
        for _, bw in MACHINES:
            cells.append("%.1f" % (1e6 * max(decode / bw, flops_d / PEAK16)))
        for _, bw in MACHINES:
            cells.append("%.2f" % (1e6 * max(prefill / bw, flops_p / PEAK16) / 512))
        print("| %s | %s |" % (name, " | ".join(cells)))
    print()
    print("decode reads besides the weights: %.1f MB (KV cache of 4096 tokens "
          "in 16 bits, norms, activations); %d parameters" % (other_d / 1e6, params))
    print()


def amp_run_json(build, model, fmt, inputs_seed=0):
    result = run([os.path.join(build, "bin", "amp-run"), model, "--runs=1",
                  "--json", "--seed=%d" % inputs_seed,
                  "--pipeline=amp-mixed-precision{%s}" % pipeline(fmt)],
                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return json.loads(result.stdout)


def part_accuracy(build, out):
    quarter = dict(hidden=1024, ffn=3584, heads=8, kv_heads=2)
    print("| precision | decode rel L2 (y) | decode rel L2 (new K, V) | "
          "prefill 512 rel L2 (y) | all finite |")
    print("|---|---|---|---|---|")
    decode = os.path.join(out, "layer-1024-decode.mlir")
    prefill = os.path.join(out, "layer-1024-prefill.mlir")
    generate(decode, tokens=1, cache=4096, **quarter)
    generate(prefill, tokens=512, cache=0, **quarter)
    for name, fmt in PRECISIONS:
        d = amp_run_json(build, decode, fmt)
        p = amp_run_json(build, prefill, fmt)
        outs_d, outs_p = d["outputs"], p["outputs"]
        finite = all(o["nonfinite"] == 0 for o in outs_d + outs_p)
        print("| %s | %.2e | %.2e, %.2e | %.2e | %s |" % (
            name, outs_d[0]["rel_l2_err"], outs_d[1]["rel_l2_err"], outs_d[2]["rel_l2_err"],
            outs_p[0]["rel_l2_err"], "yes" if finite else "NO"))
    print()


def part_emulator(build, out):
    quarter = dict(hidden=1024, ffn=3584, heads=8, kv_heads=2)
    model = os.path.join(out, "layer-1024-decode.mlir")
    generate(model, tokens=1, cache=4096, **quarter)
    params, _, other = shape_counts(cache=4096, tokens=1, **quarter)
    compile_cmd = [sys.executable, os.path.join(ROOT, "tools", "amp-compile", "amp-compile.py"),
                   "--amp-opt", os.path.join(build, "bin", "amp-opt"),
                   "--llvm-bin", "/usr/lib/llvm-22/bin",
                   "--runtime", os.path.join(build, "lib", "libamp_cuda_runtime.so")]
    print("| precision | needed (MB) | emulator DRAM bytes (MB) | ratio | launches |")
    print("|---|---|---|---|---|")
    for name, fmt in PRECISIONS:
        folder = os.path.join(out, "gpu-" + name)
        options = ["--mixed-precision-options", "weight-only=" + fmt] if fmt else []
        run(compile_cmd + [model, "-o", folder, "--chip", "sm_90a", "--precision",
                           "bf16", "--format", "isa"] + options,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        profile = os.path.join(folder, "profile.json")
        run([os.path.join(build, "bin", "amp-emulate"), "--no-races",
             "--profile=" + profile, os.path.join(folder, "model"), "--iters", "1",
             "--warmup", "0", "--quiet"], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        with open(profile) as f:
            total = json.load(f)["total"]
        stored = report(build, model, fmt, out, "quarter")["weight_bytes"] if fmt else 2 * params
        # The KV cache is an f32 input of the model as written: count it in
        # f32 here, as the program reads it.
        needed = stored + other + 2 * 2 * 2 * 128 * 4096
        dram = total["bytes_read"] + total["bytes_written"]
        print("| %s | %.1f | %.1f | %.2fx | %d |" % (
            name, needed / 1e6, dram / 1e6, dram / needed, total["launches"]))
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", required=True)
    parser.add_argument("--skip-full", action="store_true",
                        help="bytes from the format rules instead of amp's report "
                             "on the 1.7 GB real-size layer")
    parser.add_argument("--skip-emulator", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    part_bytes(args.build, args.out, args.skip_full)
    part_accuracy(args.build, args.out)
    if not args.skip_emulator:
        part_emulator(args.build, args.out)


if __name__ == "__main__":
    main()
