#!/usr/bin/env bash
# Prepares, on a machine with LLVM 22 and amp built (no GPU needed), all that
# bench/gpu/device-run.sh needs on a GPU host that has only the driver,
# Python 3 and PyTorch: one bundle, bench/gpu/device-bundle.tgz (ignored by
# git: build outputs), holding
#
#   prebuilt/  the GEMM and end-to-end benchmark executables
#              (bench/gpu/build.sh);
#   tests/     every GPU program of the test/GPU suite with its FP32 CPU
#              reference outputs and the outputs amp's PTX emulator gave
#              here (the suite run with `--param gpu_record`, see
#              test/GPU/Inputs/run-vs-cpu.sh);
#   COMMIT     the commit it was built from.
#
#   bench/gpu/prepare-device.sh [BUILD_DIR]
#
# Then, on the GPU host, in a checkout of the same commit with the bundle in
# bench/gpu/: bench/gpu/device-run.sh (docs/gpu.md, "On a real GPU").
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
stage=$root/bench/gpu/device
bundle=$root/bench/gpu/device-bundle.tgz
lit=$(sed -n 's/^LLVM_EXTERNAL_LIT:[A-Z]*=//p' "$build/CMakeCache.txt")
[[ -x ${lit:-} ]] || lit=$(command -v lit || command -v lit.py || true)
[[ -n $lit ]] || { echo "prepare-device: no lit found (LLVM_EXTERNAL_LIT in $build)" >&2; exit 1; }

rm -rf "$stage"
mkdir -p "$stage/tests"
cmake --build "$build" --target amp-opt amp-emulate amp_cuda_runtime amp_emulated_cuda > /dev/null
"$root/bench/gpu/build.sh" "$build" "$stage/prebuilt"
# The suite on amp's emulator (the programs are the same on a GPU), every
# GPU-run test recorded. A failing test stops here: its programs are not
# worth a GPU's time.
"$lit" -sv --param gpu=emulator --param gpu_record="$stage/tests" \
  "$build/test/GPU"
git -C "$root" rev-parse HEAD > "$stage/COMMIT" 2>/dev/null || echo unknown > "$stage/COMMIT"
# Object files and harness sources stay behind: only what runs travels.
tar czf "$bundle" -C "$stage" .
echo "prepare-device: $(find "$stage/tests/cases" -mindepth 1 -maxdepth 1 | wc -l) test programs, $(ls "$stage/prebuilt" | wc -l) benchmark files"
echo "prepare-device: wrote ${bundle#$root/} ($(du -h "$bundle" | cut -f1)); on the GPU host: bench/gpu/device-run.sh"
