#!/usr/bin/env bash
# Writes a seed corpus for amp-ptx-fuzzer: the PTX that amp's GPU pipeline
# writes for the GPU tests' models (test/GPU/Inputs) and a few corpus models,
# converted to f16 and bf16 and lowered for sm_80 (mma.sync) and sm_90a
# (wgmma, TMA, mbarriers), one file per kernel module.
#
#   fuzz/make-ptx-seeds.sh BUILD_DIR OUTPUT_DIR [MODEL.mlir...]
#
# With models named, only those are compiled.
set -uo pipefail
build=${1:?usage: make-ptx-seeds.sh BUILD_DIR OUTPUT_DIR}
out=${2:?usage: make-ptx-seeds.sh BUILD_DIR OUTPUT_DIR}
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
shift 2
models=("$@")
if [ ${#models[@]} -eq 0 ]; then
  models=("$src"/test/GPU/Inputs/*.mlir)
  for m in resnet18 mobilenet_v2 multi-head-attention llama-decoder-layer; do
    for f in "$src"/third_party/corpus/*/"$m"*.mlir; do
      [ -f "$f" ] && models+=("$f")
    done
  done
fi
n=0
for model in "${models[@]}"; do
  stem=$(basename "$model" .mlir)
  for config in "sm_80 f16" "sm_90a bf16"; do
    set -- $config
    tmp=$(mktemp -d)
    if "$build/bin/amp-opt" "$model" \
        --amp-mixed-precision="target-type=$2" \
        --amp-gpu-pipeline="chip=$1 format=isa" -o "$tmp/out.mlir" 2>/dev/null &&
       python3 "$src/scripts/amp-extract-ptx.py" --split "$tmp/ptx" \
         < "$tmp/out.mlir" >/dev/null 2>&1; then
      for p in "$tmp"/ptx/*.ptx; do
        [ -f "$p" ] || continue
        cp "$p" "$out/$stem-$1-$2-$(basename "$p")"
        n=$((n + 1))
      done
    fi
    rm -rf "$tmp"
  done
done
echo "make-ptx-seeds: $n PTX modules in $out"
