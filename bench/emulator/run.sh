#!/usr/bin/env bash
# Speed of amp's PTX emulator: builds GEMMs and corpus models for the GPU
# (PTX) with amp-compile, runs each once under amp-emulate --stats, and
# prints a Markdown table of emulated thread-instructions per second. With
# --sweep it also lists every PTX instruction form of the corpus models and
# test inputs (f16, bf16, FP32; sm_80 and sm_90a) and checks that the
# emulator implements all of them (slow: minutes per large model).
#
#   bench/emulator/run.sh [--build DIR] [--sweep]    (run from anywhere)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build
sweep=0
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --sweep) sweep=1; shift ;;
    *) echo "usage: $0 [--build DIR] [--sweep]" >&2; exit 2 ;;
  esac
done
emulate=$build/bin/amp-emulate
work=$(mktemp -d /tmp/amp-emulator-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
compile() { # compile NAME MODEL CHIP PRECISION [options]
  local name=$1 model=$2 chip=$3 precision=$4; shift 4
  python3 "$root/tools/amp-compile/amp-compile.py" "$model" -o "$work/$name" \
    --amp-opt "$build/bin/amp-opt" --runtime "$build/lib/libamp_cuda_runtime.so" \
    --chip "$chip" --precision "$precision" --format isa "$@" > /dev/null
}
gemm() { # gemm FILE N
  cat > "$1" <<MLIR
func.func @gemm(%a: tensor<$2x$2xf32>, %b: tensor<$2x$2xf32>) -> tensor<$2x$2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<$2x$2xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<$2x$2xf32>) -> tensor<$2x$2xf32>
  %r = linalg.matmul ins(%a, %b : tensor<$2x$2xf32>, tensor<$2x$2xf32>) outs(%c : tensor<$2x$2xf32>) -> tensor<$2x$2xf32>
  return %r : tensor<$2x$2xf32>
}
MLIR
}
gemm "$work/gemm512.mlir" 512
gemm "$work/gemm256.mlir" 256
corpus=$root/third_party/corpus
runs=(
  "gemm-mma-512 (mma.sync, f16)|$work/gemm512.mlir|sm_80|f16"
  "gemm-wgmma-512 (wgmma, f16)|$work/gemm512.mlir|sm_90a|f16"
  "gemm-fp32-256 (SIMT FMA)|$work/gemm256.mlir|sm_80|fp32"
  "MLP, mixed|$corpus/linalg/mlp-3layers.mlir|sm_80|f16"
  "MLP, FP32|$corpus/linalg/mlp-3layers.mlir|sm_80|fp32"
  "BERT attention, mixed|$corpus/linalg/multi-head-attention.mlir|sm_80|f16"
  "ResNet-50 block, mixed, wgmma|$corpus/linalg/resnet50-bottleneck-block.mlir|sm_90a|f16|--entry resnet50_bottleneck_block"
  "TOSA FFN, mixed|$corpus/tosa/next-ffn.mlir|sm_80|f16|--entry kernel"
)
echo "| program | launches | CTAs | thread-instructions | CPU seconds | thread-instructions/s |"
echo "|---|---:|---:|---:|---:|---:|"
i=0
for run in "${runs[@]}"; do
  IFS='|' read -r label model chip precision extra <<< "$run"
  name=run$i; i=$((i + 1))
  # shellcheck disable=SC2086
  compile "$name" "$model" "$chip" "$precision" $extra
  line=$("$emulate" --stats "$work/$name/model" --iters 1 --warmup 0 --quiet 2>&1 >/dev/null \
         | grep '^amp-emulator: .* launches')
  # amp-emulator: L launches, C CTAs, W warp-instructions, T thread-instructions in S s (R thread-instructions/s)
  read -r launches ctas threads seconds rate <<< "$(echo "$line" | sed -E \
    's/.*: ([0-9]+) launches, ([0-9]+) CTAs, [0-9]+ warp-instructions, ([0-9]+) thread-instructions in ([0-9.]+) s of CPU time \(([0-9.e+]+) .*/\1 \2 \3 \4 \5/')"
  echo "| $label | $launches | $ctas | $threads | $seconds | $rate |"
done
if [ "$sweep" = 1 ]; then
  mkdir -p "$work/ptx"
  for model in "$corpus"/*/*.mlir "$root"/test/GPU/Inputs/*.mlir; do
    n=$(basename "$model" .mlir)
    for precision in f16 bf16 fp32; do
      mp=""
      [ "$precision" != fp32 ] && mp="--amp-mixed-precision=target-type=$precision"
      for chip in sm_80 sm_90a; do
        # shellcheck disable=SC2086
        "$build/bin/amp-opt" "$model" $mp --amp-gpu-pipeline="chip=$chip format=isa" \
          | python3 "$root/scripts/amp-extract-ptx.py" > "$work/ptx/$n-$precision-$chip.ptx"
      done
    done
  done
  echo
  echo '```'
  "$emulate" --check-ptx --list "$work"/ptx/*.ptx
  echo '```'
fi
