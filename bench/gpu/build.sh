#!/usr/bin/env bash
# Builds the GPU benchmark executables on a machine with LLVM 22 and amp
# built (no GPU needed) into a folder that bench/gpu/run.sh runs on a GPU
# host, which needs only the NVIDIA driver, Python 3 and PyTorch (and a
# checkout of amp for run.sh and its scripts; nothing is built there).
#
#   bench/gpu/build.sh [BUILD_DIR [OUT_DIR]]
#
# BUILD_DIR: amp's build folder (default: build). OUT_DIR: where the
# executables go (default: bench/gpu/prebuilt, ignored by git: binaries are
# never committed). To take them to a GPU host:
#
#   tar czf amp-gpu-bench.tgz -C bench/gpu prebuilt     # here
#   tar xzf amp-gpu-bench.tgz -C bench/gpu              # there, in a checkout
#   bench/gpu/run.sh                                    # of the same commit
#
# The kernels are embedded as fatbin (cubin + PTX) when a CUDA toolkit's
# ptxas is found, else as PTX, which the driver compiles when each program
# starts (before the timed calls).
#
# GEMM M=N=K in {1024, 2048, 4096, 8192}, f16 x f16 -> f32 (and bf16 x
# bf16 -> f32: the -bf16 executables):
#   gemm-mma-N, gemm-mma-bf16-N      mma.sync kernel (chip=sm_90, runs on
#                                    any sm_80+ GPU... the cubin is sm_90;
#                                    PTX is embedded too)
#   gemm-wgmma-N, gemm-wgmma-bf16-N  wgmma kernel (chip=sm_90a: Hopper only)
#   gemm-fp32-N                      the FP32 path (f32 x f32 -> f32, SIMT)
#   gemm-mma-k32-N (N >= 4096)       mma.sync variants, for comparison: the
#   gemm-mma-noprefetch-N            earlier kernel (K tiles of 32, 3
#                                    stages), and the default tiling
#                                    without the fragment prefetch
# End to end, FP32 original vs --amp-mixed-precision (f16), chip=sm_90a:
#   e2e-mlp-*        corpus linalg/mlp-3layers.mlir
#   e2e-attention-*  corpus linalg/multi-head-attention.mlir (BERT layer)
#   e2e-ffn-*        corpus tosa/next-ffn.mlir (transformer FFN)
#   e2e-cnn-*        corpus linalg/resnet50-bottleneck-block.mlir
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
out=${2:-$root/bench/gpu/prebuilt}
work=$(mktemp -d /tmp/amp-bench-build.XXXXXX)
trap 'rm -rf "$work"' EXIT
format=isa
for ptxas in "${CUDA_ROOT:-}" "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
  if [[ -n $ptxas && -x $ptxas/bin/ptxas ]]; then format=fatbin; break; fi
done
[[ $format == isa ]] && command -v ptxas > /dev/null && format=fatbin
# AMP_BENCH_FORMAT=isa forces PTX (what amp's emulator runs: a dry run of
# run.sh here, with LD_LIBRARY_PATH=BUILD_DIR/lib/emulator).
format=${AMP_BENCH_FORMAT:-$format}
echo "bench/gpu/build.sh: format=$format (fatbin needs a CUDA toolkit's ptxas)"
compile=(python3 "$root/tools/amp-compile/amp-compile.py"
         --amp-opt "$build/bin/amp-opt"
         --runtime "$build/lib/libamp_cuda_runtime.so" --format "$format")

rm -rf "$out"
mkdir -p "$out"
cp "$build/lib/libamp_cuda_runtime.so" "$out/"

gemm() { # gemm NAME N ELT
  local n=$2 t=$3
  cat > "$work/$1.mlir" <<MLIR
func.func @gemm(%a: tensor<${n}x${n}x${t}>, %b: tensor<${n}x${n}x${t}>) -> tensor<${n}x${n}xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<${n}x${n}xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<${n}x${n}xf32>) -> tensor<${n}x${n}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<${n}x${n}x${t}>, tensor<${n}x${n}x${t}>)
                     outs(%c : tensor<${n}x${n}xf32>) -> tensor<${n}x${n}xf32>
  return %r : tensor<${n}x${n}xf32>
}
MLIR
}

place() { # place BUILD_FOLDER NAME
  cp "$1/model" "$out/$2"
  cp "$1/signature.json" "$out/$2.json"
}

for n in 1024 2048 4096 8192; do
  gemm "gemm-f16-$n" "$n" f16
  gemm "gemm-f32-$n" "$n" f32
  "${compile[@]}" "$work/gemm-f16-$n.mlir" -o "$work/mma-$n" --precision fp32 --chip sm_90
  place "$work/mma-$n" "gemm-mma-$n"
  "${compile[@]}" "$work/gemm-f16-$n.mlir" -o "$work/wgmma-$n" --precision fp32 --chip sm_90a
  place "$work/wgmma-$n" "gemm-wgmma-$n"
  "${compile[@]}" "$work/gemm-f32-$n.mlir" -o "$work/fp32-$n" --precision fp32 --chip sm_90
  place "$work/fp32-$n" "gemm-fp32-$n"
  if (( n >= 4096 )); then
    "${compile[@]}" "$work/gemm-f16-$n.mlir" -o "$work/mma-k32-$n" --precision fp32 --chip sm_90 \
      --pipeline-options "mma-sync-k-tile=32 mma-sync-stages=3 mma-sync-prefetch=false"
    place "$work/mma-k32-$n" "gemm-mma-k32-$n"
    "${compile[@]}" "$work/gemm-f16-$n.mlir" -o "$work/mma-noprefetch-$n" --precision fp32 --chip sm_90 \
      --pipeline-options "mma-sync-prefetch=false"
    place "$work/mma-noprefetch-$n" "gemm-mma-noprefetch-$n"
  fi
  gemm "gemm-bf16-$n" "$n" bf16
  "${compile[@]}" "$work/gemm-bf16-$n.mlir" -o "$work/mma-bf16-$n" --precision fp32 --chip sm_90
  place "$work/mma-bf16-$n" "gemm-mma-bf16-$n"
  "${compile[@]}" "$work/gemm-bf16-$n.mlir" -o "$work/wgmma-bf16-$n" --precision fp32 --chip sm_90a
  place "$work/wgmma-bf16-$n" "gemm-wgmma-bf16-$n"
done

e2e() { # e2e NAME MODEL [amp-compile options]
  local name=$1 model=$2
  shift 2
  "${compile[@]}" "$model" -o "$work/$name-fp32" --precision fp32 --chip sm_90a "$@"
  place "$work/$name-fp32" "e2e-$name-fp32"
  "${compile[@]}" "$model" -o "$work/$name-mixed" --precision f16 --chip sm_90a "$@"
  place "$work/$name-mixed" "e2e-$name-mixed"
}
corpus=$root/third_party/corpus
e2e mlp "$corpus/linalg/mlp-3layers.mlir"
e2e attention "$corpus/linalg/multi-head-attention.mlir"
e2e ffn "$corpus/tosa/next-ffn.mlir" --entry kernel
e2e cnn "$corpus/linalg/resnet50-bottleneck-block.mlir" --entry resnet50_bottleneck_block

git -C "$root" rev-parse HEAD > "$out/COMMIT" 2>/dev/null || true
echo "$format" > "$out/FORMAT"
echo "bench/gpu/build.sh: executables in $out:"
ls -la "$out"
echo "bench/gpu/build.sh: run them with bench/gpu/run.sh --bin $out (on a GPU host)"
