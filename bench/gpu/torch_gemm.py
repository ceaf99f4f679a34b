#!/usr/bin/env python3
"""cuBLAS reference for bench/gpu/run.sh: torch.matmul in f16 or bf16.

Times M=N=K GEMMs two ways and prints one JSON line per size:
  sync_ms   per call, synchronized (the same methodology as the amp
            executables, whose every call ends with a stream synchronize);
  event_ms  back-to-back calls timed with CUDA events (kernel throughput).
torch.matmul on f16 tensors accumulates in f32 inside cuBLAS (unless
allow_fp16_reduced_precision_reduction is set, which is turned off here)
and rounds the output to f16 (bf16); amp's kernels write f32.

  torch_gemm.py [--dtype f16|bf16] N [N ...]
"""

import argparse
import json
import sys

import torch

from timing import event_ms_per_call, median_ms_per_call


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dtype", choices=["f16", "bf16"], default="f16")
    parser.add_argument("sizes", nargs="*", type=int,
                        default=[1024, 2048, 4096, 8192])
    args = parser.parse_args()
    dtype = torch.float16 if args.dtype == "f16" else torch.bfloat16
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
    device = torch.device("cuda")
    name = torch.cuda.get_device_name(device)
    for n in args.sizes:
        a = torch.rand(n, n, device=device, dtype=dtype) * 2 - 1
        b = torch.rand(n, n, device=device, dtype=dtype) * 2 - 1
        def call():
            return torch.matmul(a, b)
        iters = 20
        sync_ms = median_ms_per_call(call, iters, torch.cuda.synchronize)
        event_ms = event_ms_per_call(torch, call, iters)
        print(json.dumps({"n": n, "dtype": args.dtype, "device": name,
                          "sync_ms": sync_ms, "event_ms": event_ms,
                          "torch": torch.__version__,
                          "cuda": torch.version.cuda}))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
