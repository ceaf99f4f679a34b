#!/usr/bin/env bash
# Builds MODEL for the GPU (amp-compile, PTX, mixed precision unless
# PRECISION is fp32) and for the CPU (FP32 reference), runs both on the same
# seeded inputs and compares the outputs with amp-compare. GPU_RUN is what
# runs the GPU program: `env` on a GPU, amp-emulate without one (lit's
# %gpu-run). Options after BOUND go to both amp-compile calls (--entry).
# AMP_COMPARE_MIN_COSINE in the environment lowers amp-compare's cosine
# bound (FP8's 2-bit e5m2).
#
#   run-vs-cpu.sh "AMP_COMPILE" "AMP_COMPARE" "GPU_RUN" MODEL OUT CHIP \
#                 PRECISION MAX_REL_L2 [amp-compile options...]
#
# With AMP_GPU_RECORD=DIR in the environment (`lit --param gpu_record=DIR`),
# each case is also recorded for a GPU host without LLVM: the GPU program,
# the CPU reference outputs, the outputs of this run (the emulator's, where
# there is no GPU) and what the comparison needs, in DIR/cases/NAME/;
# bench/gpu/device-run.sh replays them there (bench/gpu/prepare-device.sh
# makes DIR).
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
$amp_compare "$cpu/out" "$gpu/out" --max-rel-l2 "$bound" \
  ${AMP_COMPARE_MIN_COSINE:+--min-cosine "$AMP_COMPARE_MIN_COSINE"}
if [ -n "${AMP_GPU_RECORD:-}" ]; then
  # The case: the test's name and the program's (corpus-mlp-3layers-sm_80-f16).
  case_name=$(basename "$out" .tmp)
  case_name=${case_name%.test}-$(basename "$gpu")
  dest=$AMP_GPU_RECORD/cases/$case_name
  rm -rf "$dest"
  mkdir -p "$dest"
  cp "$gpu/model" "$gpu/signature.json" "$gpu/libamp_cuda_runtime.so" "$dest/"
  cp -r "$cpu/out" "$dest/reference"
  cp -r "$gpu/out" "$dest/recorded"
  # What the replay needs besides the files (tests run in parallel: one
  # file per case, no shared manifest).
  echo "chip=$chip precision=$precision max_rel_l2=$bound" \
    ${AMP_COMPARE_MIN_COSINE:+min_cosine=$AMP_COMPARE_MIN_COSINE} \
    > "$dest/case"
fi
