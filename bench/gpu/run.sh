#!/usr/bin/env bash
# Runs the GPU benchmark executables that bench/gpu/build.sh built (on
# another machine: they are not in git; see bench/gpu/README.md for taking
# them here) and writes bench/results/gpu-<date>-<gpu>.md. Needs: an NVIDIA
# GPU and driver (sm_90 for the wgmma and e2e executables: H100/H200),
# Python 3, and PyTorch with CUDA for the cuBLAS reference (skipped with a
# note if missing). No LLVM, no CMake, no CUDA toolkit, no build.
#
#   bench/gpu/run.sh [--bin DIR] [--iters N]     (DIR: bench/gpu/prebuilt)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/bench/gpu/prebuilt
iters=20
while [[ $# -gt 0 ]]; do
  case $1 in
    --bin) bin=$(cd "$2" && pwd); shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    *) echo "usage: bench/gpu/run.sh [--bin DIR] [--iters N]" >&2; exit 2 ;;
  esac
done
[[ -x $bin/gemm-mma-1024 ]] || { echo "no benchmark executables in $bin: build them with bench/gpu/build.sh on a machine with LLVM 22 and amp, and copy the folder here (bench/gpu/README.md)" >&2; exit 1; }
work=$(mktemp -d /tmp/amp-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

median_ms() { sed -n 's/^time_ms: min [0-9.]* median \([0-9.]*\) .*/\1/p'; }
device=$("$bin/gemm-mma-1024" --iters 1 --warmup 0 --quiet | sed -n 's/^device: //p')
stamp=$(date -u +%Y-%m-%d)
report=$root/bench/results/gpu-$stamp-$(echo "$device" | tr ' /' '__').md

{
echo "# GPU benchmarks, $stamp"
echo
echo "- device: $device"
echo "- commit of the executables: $(cat "$bin/COMMIT" 2>/dev/null || echo unknown), format $(cat "$bin/FORMAT" 2>/dev/null || echo unknown)"
echo "- command: \`bench/gpu/run.sh --iters $iters\` (executables from \`bench/gpu/build.sh\`)"
echo "- driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1 || echo unknown)"
echo "- timing: median of $iters calls after 5 warmup calls, wall clock per call, each call synchronized (amp and torch alike); torch event_ms is back-to-back kernel time"
echo
echo "## GEMM M=N=K, f16 x f16 -> f32 (TFLOP/s; ratio to cuBLAS with the same per-call synchronized timing)"
echo
echo "| N | amp mma.sync | amp wgmma | amp FP32 (SIMT) | torch f16 (cuBLAS) sync | torch event | mma.sync / cuBLAS | wgmma / cuBLAS |"
echo "|---|---|---|---|---|---|---|---|"
} > "$report"

torch_json=$work/torch.json
if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
  python3 "$root/bench/gpu/torch_gemm.py" 1024 2048 4096 8192 > "$torch_json"
else
  : > "$torch_json"
  echo "(PyTorch with CUDA not found: no cuBLAS reference)" >> "$report"
fi

tflops() { python3 -c "import sys; n=float(sys.argv[1]); t=float(sys.argv[2]); print('%.1f' % (2*n**3/(t*1e-3)/1e12) if t > 0 else '-')" "$@"; }
for n in 1024 2048 4096 8192; do
  mma=$("$bin/gemm-mma-$n" --iters "$iters" --warmup 5 --quiet | median_ms)
  wg=$("$bin/gemm-wgmma-$n" --iters "$iters" --warmup 5 --quiet | median_ms || echo 0)
  fp32_iters=$iters; [[ $n -ge 8192 ]] && fp32_iters=5
  fp=$("$bin/gemm-fp32-$n" --iters "$fp32_iters" --warmup 1 --quiet | median_ms)
  t_sync=$(python3 -c "import json,sys; [print(d['sync_ms']) for d in map(json.loads, open(sys.argv[1])) if d['n']==$n]" "$torch_json")
  t_event=$(python3 -c "import json,sys; [print(d['event_ms']) for d in map(json.loads, open(sys.argv[1])) if d['n']==$n]" "$torch_json")
  r_mma=-; r_wg=-; c_sync=-; c_event=-
  if [[ -n $t_sync ]]; then
    c_sync=$(tflops "$n" "$t_sync"); c_event=$(tflops "$n" "$t_event")
    r_mma=$(python3 -c "print('%.2f' % ($t_sync/$mma))")
    r_wg=$(python3 -c "print('%.2f' % ($t_sync/$wg))" 2>/dev/null || echo -)
  fi
  echo "| $n | $(tflops "$n" "$mma") | $(tflops "$n" "$wg") | $(tflops "$n" "$fp") | $c_sync | $c_event | $r_mma | $r_wg |" >> "$report"
done

{
echo
echo "## End to end: FP32 original vs --amp-mixed-precision (f16), chip=sm_90a"
echo
echo "| model | FP32 ms | mixed ms | speed-up | rel. L2 error | cosine | max abs error |"
echo "|---|---|---|---|---|---|---|"
} >> "$report"
for m in mlp attention ffn cnn; do
  mkdir -p "$work/$m-fp32" "$work/$m-mixed"
  f=$("$bin/e2e-$m-fp32" --iters "$iters" --warmup 5 --seed 1 --quiet --outputs "$work/$m-fp32" | median_ms)
  x=$("$bin/e2e-$m-mixed" --iters "$iters" --warmup 5 --seed 1 --quiet --outputs "$work/$m-mixed" | median_ms)
  python3 "$root/scripts/amp-compare.py" "$work/$m-fp32" "$work/$m-mixed" --max-rel-l2 1 --min-cosine 0 --json "$work/$m.json" > /dev/null || true
  acc=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1]))[0]; print('%.3g | %.6f | %.3g' % (d['rel_l2'], d['cosine'], d['max_abs']))" "$work/$m.json")
  echo "| $m | $f | $x | $(python3 -c "print('%.2fx' % ($f/$x))") | $acc |" >> "$report"
done
echo >> "$report"
echo "Accuracy is mixed precision vs the FP32 original on the same seeded inputs (uniform in [-1, 1)); the corpus weights are splat constants, see third_party/corpus/README.md." >> "$report"
cat "$report"
echo "bench/gpu/run.sh: wrote ${report#$root/}"
