#!/usr/bin/env bash
# Builds the FP8 form of a model for the GPU (amp-compile --precision fp32:
# the IR is already FP8, as FP8 mixed precision writes it) and a reference
# for the CPU, runs both on the same seeded inputs and compares the outputs
# with amp-compare.
#
#   run-fp8-vs-cpu.sh "AMP_COMPILE" "AMP_COMPARE" "GPU_RUN" FP8_MODEL \
#                     REF_MODEL OUT CHIP MAX_REL_L2 [MIN_COSINE]
#
# REF_MODEL is the same FP8 model (a CPU FP8 build: the CPU lowering expands
# FP8 conversions, --amp-expand-fp8) or, where the CPU lowering cannot
# compile FP8 yet, the FP32 model it was made from (with a bound the size
# of FP8's rounding). GPU_RUN is what runs the GPU program: `env` on a GPU,
# amp-emulate without one. Recorded for a GPU host like run-vs-cpu.sh.
set -euo pipefail
amp_compile=$1 amp_compare=$2 gpu_run=$3 model=$4 ref_model=$5 out=$6
chip=$7 bound=$8 cosine=${9:-0.999}
name=$(basename "$model" .mlir)
mkdir -p "$out"
cpu="$out/$(basename "$ref_model" .mlir)-cpu"
gpu="$out/$name-$chip"
if [ ! -x "$cpu/model" ]; then
  $amp_compile "$ref_model" -o "$cpu" --target cpu --precision fp32
  mkdir -p "$cpu/out"
  "$cpu/model" --iters 1 --warmup 0 --seed 7 --quiet --outputs "$cpu/out"
fi
$amp_compile "$model" -o "$gpu" --chip "$chip" --precision fp32 --format isa
mkdir -p "$gpu/out"
$gpu_run "$gpu/model" --iters 1 --warmup 1 --seed 7 --quiet \
  --outputs "$gpu/out"
$amp_compare "$cpu/out" "$gpu/out" --max-rel-l2 "$bound" --min-cosine "$cosine"
if [ -n "${AMP_GPU_RECORD:-}" ]; then
  case_name=$(basename "$out" .tmp)
  case_name=${case_name%.test}-$(basename "$gpu")
  dest=$AMP_GPU_RECORD/cases/$case_name
  rm -rf "$dest"
  mkdir -p "$dest"
  cp "$gpu/model" "$gpu/signature.json" "$gpu/libamp_cuda_runtime.so" "$dest/"
  cp -r "$cpu/out" "$dest/reference"
  cp -r "$gpu/out" "$dest/recorded"
  echo "chip=$chip precision=fp8 max_rel_l2=$bound min_cosine=$cosine" \
    > "$dest/case"
fi
