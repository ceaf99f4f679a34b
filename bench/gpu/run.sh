#!/usr/bin/env bash
# Runs the GPU benchmark executables that bench/gpu/build.sh built (on
# another machine: they are not in git; see bench/gpu/README.md for taking
# them here) with the cuBLAS and Triton references, in one run. Needs: an
# NVIDIA GPU and driver (sm_90 for the wgmma and e2e executables:
# H100/H200), Python 3, PyTorch with CUDA for cuBLAS and Triton for the
# Triton matmul (each reference is skipped with a note if missing). No
# LLVM, no CMake, no CUDA toolkit, no build. bench/gpu/device-run.sh calls
# it after replaying the test/GPU suite.
#
#   bench/gpu/run.sh [--bin DIR] [--iters N] [--report FILE] [--json FILE]
#
# DIR: bench/gpu/prebuilt by default. FILE: the markdown report
# (bench/results/gpu-<date>-<gpu>.md by default) and the JSON file of
# measurements (beside the report, .json).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/bench/gpu/prebuilt
iters=20
report=
json=
while [[ $# -gt 0 ]]; do
  case $1 in
    --bin) bin=$(cd "$2" && pwd); shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    --report) report=$2; shift 2 ;;
    --json) json=$2; shift 2 ;;
    *) echo "usage: bench/gpu/run.sh [--bin DIR] [--iters N] [--report FILE] [--json FILE]" >&2; exit 2 ;;
  esac
done
[[ -x $bin/gemm-mma-1024 ]] || { echo "no benchmark executables in $bin: build them with bench/gpu/build.sh on a machine with LLVM 22 and amp, and copy the folder here (bench/gpu/README.md)" >&2; exit 1; }
if [[ -z $report ]]; then
  device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
  report=$root/bench/results/gpu-$(date -u +%Y-%m-%d)-$(echo "${device:-unknown}" | tr ' /' '__').md
fi
[[ -n $json ]] || json=${report%.md}.json
python3 "$root/bench/gpu/run_bench.py" --bin "$bin" --iters "$iters" \
  --report "$report" --json "$json"
echo "bench/gpu/run.sh: wrote $report and $json"
