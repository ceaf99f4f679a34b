#!/usr/bin/env bash
# Runs the corpus CNNs on the CPU before and after the benchmarking passes and
# prints the error metrics: the channels-last conversion alone (only float
# rounding of a different summation order is expected), --amp-mixed-precision
# alone and after the conversion (the two should show the same f16 error),
# and the conversion with --amp-recast to bf16.
#
# The corpus weights are splats; prepare_model.py replaces them with fixed
# pseudo-random weights that are not normalized, so activations of the deeper
# networks grow large (ResNet-50 reaches thousands), which f16 does not
# survive: compare the mixed rows with each other, not with zero.
#
# Usage: scripts/check-corpus-numerics.sh [BUILD_DIR] [MODEL...]
# (models: resnet18 resnet50 mobilenet_v2 efficientnet_b0 vgg16; vgg16 takes
# about two minutes per run at 224x224.)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
models=("$@")
[ ${#models[@]} -eq 0 ] && models=(resnet18 resnet50 mobilenet_v2 efficientnet_b0)

llvm=/usr/lib/llvm-22
amp_opt=$build/bin/amp-opt
inputs=test/Integration/Inputs
lower=(--convert-elementwise-to-linalg
       --one-shot-bufferize=bufferize-function-boundaries
       --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata
       --lower-affine --finalize-memref-to-llvm --convert-math-to-llvm
       --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm
       --reconcile-unrealized-casts)
run() {
  "$llvm/bin/mlir-opt" "${lower[@]}" | "$llvm/bin/mlir-runner" -e main \
    -entry-point-result=void \
    -shared-libs="$llvm/lib/libmlir_runner_utils.so,$llvm/lib/libmlir_c_runner_utils.so"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for model in "${models[@]}"; do
  python3 "$inputs/prepare_model.py" "third_party/corpus/linalg/$model.mlir" \
    > "$tmp/$model.mlir"
  run < "$tmp/$model.mlir" > "$tmp/ref"
  while IFS='|' read -r name passes; do
    # shellcheck disable=SC2086
    "$amp_opt" "$tmp/$model.mlir" $passes 2>/dev/null | run > "$tmp/out"
    printf '%-16s %-34s ' "$model" "$name"
    python3 "$inputs/compare_outputs.py" "$tmp/ref" "$tmp/out" \
      --max-rel-l2=1 | grep values= || true
  done <<'EOF2'
layout|--amp-convert-layout
mixed(f16)|--amp-mixed-precision
layout+mixed(f16)|--amp-convert-layout --amp-mixed-precision
layout+recast(bf16)|--amp-convert-layout --amp-recast=type=bf16
EOF2
done
