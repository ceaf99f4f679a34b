#!/usr/bin/env bash
# Builds MODEL for the GPU (amp-compile, PTX, mixed precision unless
# PRECISION is fp32) and for the CPU (FP32 reference), runs both on the same
# seeded inputs and compares the outputs with amp-compare. GPU_RUN is what
# runs the GPU program: `env` on a GPU, amp-emulate without one (lit's
# %gpu-run). Options after BOUND go to both amp-compile calls (--entry).
#
#   run-vs-cpu.sh "AMP_COMPILE" "AMP_COMPARE" "GPU_RUN" MODEL OUT CHIP \
#                 PRECISION MAX_REL_L2 [amp-compile options...]
set -euo pipefail
amp_compile=$1 amp_compare=$2 gpu_run=$3 model=$4 out=$5 chip=$6
precision=$7 bound=$8
shift 8
name=$(basename "$model" .mlir)
mkdir -p "$out"
cpu="$out/$name-cpu"
gpu="$out/$name-$chip-$precision"
if [ ! -x "$cpu/model" ]; then
  $amp_compile "$model" -o "$cpu" --target cpu --precision fp32 "$@"
  mkdir -p "$cpu/out"
  "$cpu/model" --iters 1 --warmup 0 --seed 7 --quiet --outputs "$cpu/out"
fi
$amp_compile "$model" -o "$gpu" --chip "$chip" --precision "$precision" \
  --format isa "$@"
mkdir -p "$gpu/out"
$gpu_run "$gpu/model" --iters 1 --warmup 1 --seed 7 --quiet \
  --outputs "$gpu/out"
$amp_compare "$cpu/out" "$gpu/out" --max-rel-l2 "$bound"
