#!/usr/bin/env bash
# The C API's costs on the emulator (bench/results/runtime.md):
#  1. driver calls per call in steady state, with and without CUDA graphs,
#     for EfficientNet-B0 (corpus) and the dynamic-batch MLP;
#  2. a dynamic build against static builds of the same MLP at each batch:
#     launches, DRAM bytes and Tensor Core multiply-adds per call, from
#     amp-emulate --profile.
# Usage: bench/runtime/run.sh [OUT_DIR]   (from the repository root, after
# the build). Takes a few minutes: the emulator runs every kernel.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-/tmp/amp-runtime-bench}
BIN=$ROOT/build/bin
LIB=$ROOT/build/lib
COMPILE="/usr/bin/python3 $ROOT/tools/amp-compile/amp-compile.py"
mkdir -p "$OUT"

CHECK=$OUT/c-api-check
cc -std=c99 -O2 "$ROOT/test/Runtime/Inputs/c-api-check.c" \
  -I"$ROOT/runtime/include" -L"$LIB" -lamp_model -Wl,-rpath,"$LIB" -ldl -lm \
  -o "$CHECK"

profile() {  # MODEL_DIR SIZE CALLS [--no-graphs]: "driver_calls launches"
  "$BIN/amp-emulate" --profile "$CHECK" profile "$1" "$2" "$3" ${4:-} 2>&1 |
    sed -n 's/.*profiled range.*: \([0-9]*\) driver calls (host work), \([0-9]*\) of them launches/\1 \2/p'
}

echo "| model | size | calls | graphs | driver calls per call | launches per call |"
echo "|---|---|---|---|---|---|"
for spec in "efficientnet_b0:$ROOT/third_party/corpus/linalg/efficientnet_b0.mlir:1:" \
            "dynamic-mlp:$ROOT/test/Runtime/Inputs/dynamic-mlp.mlir:17:--dim 0:0=1:64"; do
  IFS=: read -r name model size dims <<<"$spec"
  dir=$OUT/$name
  $COMPILE "$model" -o "$dir" --shared --format isa --chip sm_90a $dims >/dev/null
  for mode in "" --no-graphs; do
    read -r calls launches <<<"$(profile "$dir" "$size" 3 $mode)"
    echo "| $name | $size | 3 | $([ -z "$mode" ] && echo yes || echo no) |" \
         "$((calls / 3)) | $((launches / 3)) |"
  done
done

echo
echo "| batch | build | launches | DRAM bytes (read + written) | Tensor Core MACs |"
echo "|---|---|---|---|---|"
MLP=$ROOT/test/Runtime/Inputs/dynamic-mlp.mlir
for batch in 1 17 64; do
  sed "s/?x/${batch}x/g; s/tensor.empty(%b)/tensor.empty()/g" "$MLP" > "$OUT/mlp-$batch.mlir"
  for kind in static dynamic; do
    dir=$OUT/mlp-$kind-$batch
    if [ $kind = static ]; then
      $COMPILE "$OUT/mlp-$batch.mlir" -o "$dir" --shared --format isa --chip sm_90a >/dev/null
    else
      dir=$OUT/dynamic-mlp
    fi
    "$BIN/amp-emulate" --profile="$OUT/profile-$kind-$batch.json" \
      "$CHECK" profile "$dir" "$batch" 1 --no-graphs >/dev/null 2>&1
    /usr/bin/python3 - "$OUT/profile-$kind-$batch.json" "$batch" "$kind" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
t = p.get("total", {})
print("| %s | %s | %s | %s | %s |" % (sys.argv[2], sys.argv[3],
      t.get("launches"), t.get("bytes_read", 0) + t.get("bytes_written", 0),
      sum(t.get("tensor_macs", {}).values())))
PY
  done
done
