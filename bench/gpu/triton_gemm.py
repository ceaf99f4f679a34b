#!/usr/bin/env python3
"""Triton reference for bench/gpu/run.sh: a tiled matmul of the kind of
Triton's matrix-multiplication tutorial (block tiles, a grouped tile order
for L2 reuse, fp32 accumulation, a small autotuned set of tile shapes and
pipeline depths), f16 or bf16 inputs, f32 output like amp's kernels.

Prints one JSON line per size with the same timings as torch_gemm.py:
  sync_ms   per call, synchronized (amp's methodology);
  event_ms  back-to-back calls timed with CUDA events.
and the largest relative error against torch.matmul in f32 on the same
inputs, so that a wrong kernel cannot pass as a fast one.

  triton_gemm.py [--dtype f16|bf16] N [N ...]
"""

import argparse
import json
import sys

import torch
import triton
import triton.language as tl

from timing import event_ms_per_call, median_ms_per_call


def configs():
    shapes = [
        # (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, stages, warps)
        (128, 256, 64, 8, 3, 8),
        (256, 128, 64, 8, 3, 8),
        (128, 128, 64, 8, 4, 4),
        (128, 256, 32, 8, 4, 8),
        (128, 128, 32, 8, 4, 4),
        (64, 128, 64, 8, 4, 4),
    ]
    return [triton.Config({"BLOCK_M": m, "BLOCK_N": n, "BLOCK_K": k,
                           "GROUP_M": g}, num_stages=s, num_warps=w)
            for m, n, k, g, s, w in shapes]


@triton.autotune(configs=configs(), key=["M", "N", "K"])
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    # Grouped order: GROUP_M row tiles share the B tiles they read.
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am +
                      offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk +
                      offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk

    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, acc, mask=c_mask)


def matmul(a, b):
    M, K = a.shape
    K2, N = b.shape
    assert K == K2
    c = torch.empty((M, N), device=a.device, dtype=torch.float32)
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) *
                         triton.cdiv(N, meta["BLOCK_N"]),)
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1),
                        b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    return c


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dtype", choices=["f16", "bf16"], default="f16")
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("sizes", nargs="*", type=int,
                        default=[1024, 2048, 4096, 8192])
    args = parser.parse_args()
    dtype = torch.float16 if args.dtype == "f16" else torch.bfloat16
    device = torch.device("cuda")
    for n in args.sizes:
        a = (torch.rand(n, n, device=device) * 2 - 1).to(dtype)
        b = (torch.rand(n, n, device=device) * 2 - 1).to(dtype)
        c = matmul(a, b)  # Autotunes on the first call.
        ref = torch.matmul(a.float(), b.float())
        error = ((c - ref).norm() / ref.norm()).item()
        def call():
            return matmul(a, b)
        sync_ms = median_ms_per_call(call, args.iters, torch.cuda.synchronize)
        event_ms = event_ms_per_call(torch, call, args.iters)
        print(json.dumps({"n": n, "dtype": args.dtype,
                          "sync_ms": sync_ms, "event_ms": event_ms,
                          "rel_l2_vs_f32": error,
                          "config": str(matmul_kernel.best_config),
                          "triton": triton.__version__}))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
