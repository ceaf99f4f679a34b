#!/usr/bin/env bash
# Builds MODEL for the GPU (amp-compile, mixed precision unless PRECISION is
# fp32) and for the CPU (FP32 reference), runs both on the same seeded
# inputs and compares the outputs with amp-compare.
#
#   run-vs-cpu.sh "AMP_COMPILE" "AMP_COMPARE" MODEL OUT CHIP PRECISION \
#                 MAX_REL_L2 [amp-compile options...]
set -euo pipefail
amp_compile=$1 amp_compare=$2 model=$3 out=$4 chip=$5 precision=$6 bound=$7
shift 7
name=$(basename "$model" .mlir)
mkdir -p "$out"
$amp_compile "$model" -o "$out/$name-cpu" --target cpu --precision fp32
$amp_compile "$model" -o "$out/$name-$chip-$precision" --chip "$chip" \
  --precision "$precision" "$@"
mkdir -p "$out/$name-cpu/out" "$out/$name-$chip-$precision/out"
"$out/$name-cpu/model" --iters 1 --warmup 0 --seed 7 --quiet \
  --outputs "$out/$name-cpu/out"
"$out/$name-$chip-$precision/model" --iters 3 --warmup 1 --seed 7 --quiet \
  --outputs "$out/$name-$chip-$precision/out"
$amp_compare "$out/$name-cpu/out" "$out/$name-$chip-$precision/out" \
  --max-rel-l2 "$bound"
