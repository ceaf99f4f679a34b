#!/usr/bin/env bash
# The device work of amp in one call, on a GPU host that has only the NVIDIA
# driver, Python 3 and PyTorch (Triton optional): no LLVM, no CMake, no
# build. It runs what bench/gpu/prepare-device.sh built and recorded on a
# development machine:
#
#   1. the test/GPU suite against the real driver: every GPU program of the
#      suite, on the same seeded inputs, compared with the FP32 CPU reference
#      within the test's own bound (amp-compare), and with what amp's PTX
#      emulator gave for it when it was recorded;
#   2. the GEMM and end-to-end benchmarks (bench/gpu/run.sh).
#
#   bench/gpu/device-run.sh [--bundle FILE_OR_DIR] [--out DIR] [--iters N]
#                           [--tests-only] [--profile]
#
# FILE_OR_DIR: the bundle, bench/gpu/device-bundle.tgz by default (or the
# folder prepare-device.sh filled). DIR: where the results go: $OUT when it
# is set (the device tool's folder), else bench/results/device-<date>/. It
# writes tests.md and tests.json (the replay), gpu.md and gpu.json (the
# benchmarks), and device.txt (nvidia-smi); with --profile also ncu.txt:
# Nsight Compute's speed-of-light, occupancy, launch and memory sections for
# the mma.sync and wgmma GEMM kernels at 4096^3 (f16), for a target that is
# missed, and kernel-times.txt: the GEMM kernels' own durations (amp's and
# cuBLAS's, ncu at the GPU's clocks) at 4096^3 and 8192^3. Exit status 1 if a test failed; the benchmarks run either way.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bundle=$root/bench/gpu/device-bundle.tgz
out=${OUT:-$root/bench/results/device-$(date -u +%Y-%m-%d)}
iters=20
tests_only=0
profile=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --bundle) bundle=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    --tests-only) tests_only=1; shift ;;
    --profile) profile=1; shift ;;
    *) echo "usage: bench/gpu/device-run.sh [--bundle FILE_OR_DIR] [--out DIR] [--iters N] [--tests-only] [--profile]" >&2
       exit 2 ;;
  esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d /tmp/amp-device.XXXXXX)
trap 'rm -rf "$work"' EXIT

if [[ -d $bundle ]]; then
  dir=$(cd "$bundle" && pwd)
elif [[ -f $bundle ]]; then
  dir=$work/bundle
  mkdir -p "$dir"
  tar xzf "$bundle" -C "$dir" || { echo "device-run: cannot unpack $bundle" >&2; exit 1; }
else
  echo "device-run: no bundle at $bundle: make it with bench/gpu/prepare-device.sh on a machine with LLVM 22 and amp built" >&2
  exit 1
fi
echo "device-run: bundle of commit $(cat "$dir/COMMIT" 2>/dev/null || echo unknown)"

nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm,clocks.mem,power.limit \
  --format=csv > "$out/device.txt" 2>&1 || echo "nvidia-smi failed" >> "$out/device.txt"
cat "$out/device.txt"
capability=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' ')

# 1. The test/GPU suite, replayed (a program runs in seconds on the GPU:
# 30 s means it hangs).
echo "device-run: replay at $(date -u +%T)"
python3 "$root/bench/gpu/replay_tests.py" "$dir/tests" --work "$work/replay" \
  --capability "${capability:-unknown}" --timeout 30 --compare "$root/scripts/amp-compare.py" \
  --markdown "$out/tests.md" --json "$out/tests.json"
tests_status=$?

# 2. The benchmarks.
echo "device-run: benchmarks at $(date -u +%T)"
if [[ $tests_only == 0 ]]; then
  "$root/bench/gpu/run.sh" --bin "$dir/prebuilt" --iters "$iters" \
    --report "$out/gpu.md" --json "$out/gpu.json"
fi
# 3. A profile of the GEMM kernels, when asked for.
echo "device-run: profile at $(date -u +%T)"
if [[ $profile == 1 ]]; then
  if command -v ncu > /dev/null; then
    for exe in gemm-mma-4096 gemm-wgmma-4096; do
      echo "== $exe"
      timeout 120 ncu --section SpeedOfLight --section Occupancy \
        --section LaunchStats --section MemoryWorkloadAnalysis \
        --kernel-name gemm_kernel --launch-count 1 \
        "$dir/prebuilt/$exe" --iters 1 --warmup 0 --quiet 2>&1
    done > "$out/ncu.txt"
    # Kernel time alone at the GPU's own clocks (no harness, launch or
    # allocation), amp's kernels and cuBLAS's alike: the fair ratio.
    for n in 4096 8192; do
      for exe in gemm-mma-$n gemm-mma-noprefetch-$n gemm-mma-k32-$n gemm-wgmma-$n; do
        echo "== $exe"
        timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum \
          --kernel-name gemm_kernel --launch-skip 2 --launch-count 3 \
          "$dir/prebuilt/$exe" --iters 5 --warmup 0 --quiet 2>&1 | grep -E "gemm_kernel|gpu__time_duration"
      done
      echo "== cublas-$n"
      timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum \
        --launch-skip 2 --launch-count 3 python3 -c "
import torch
a = torch.randn($n, $n, device='cuda', dtype=torch.float16)
b = torch.randn($n, $n, device='cuda', dtype=torch.float16)
for _ in range(5): c = a @ b
torch.cuda.synchronize()" 2>&1 | grep -E "^  [a-zA-Z_].*\(|gpu__time_duration"
    done > "$out/kernel-times.txt"
    python3 "$root/bench/gpu/kernel_times.py" "$out/kernel-times.txt" "$out/gpu.json" || true
  else
    echo "ncu not found" > "$out/ncu.txt"
  fi
fi
echo "device-run: results in $out"
ls -la "$out"
exit $tests_status
