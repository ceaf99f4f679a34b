#!/usr/bin/env bash
# For a change meant to keep behaviour: compares two amp-opt binaries (built
# before and after the change) through --amp-gpu-pipeline (format=isa, so the
# PTX is compared too) on every GPU and Conversion test input, the corpus
# and examples/, after f16, bf16, FP8, weight-only and channels-last
# conversions, for sm_80 and sm_90a. Masked: the compile time the pipeline
# records (LLVMIRToISATimeInMs). One-shot bufferization orders the
# memref.globals it makes differently from one run to the next (one binary
# differs from itself), so a pair that differs only as a multiset of lines
# counts as the same and is counted apart.
#
# Usage: scripts/same-behaviour/gpu-pipeline.sh REF_AMP_OPT [NEW_AMP_OPT]
#   (env: TIMEOUT per run, OUTDIR, FILTER regex on paths)
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
REF=${1:?usage: $0 REF_AMP_OPT [NEW_AMP_OPT]}
NEW=${2:-$ROOT/build/bin/amp-opt}
TIMEOUT=${TIMEOUT:-300}
OUT=${OUTDIR:-${TMPDIR:-/tmp}/amp-same-gpu}
for bin in "$REF" "$NEW"; do
  [ -x "$bin" ] || { echo "missing binary: $bin" >&2; exit 2; }
done
rm -rf "$OUT" && mkdir -p "$OUT"

# Each entry: the conversion before the pipeline (may be empty) | pipeline.
PIPES=(
  "--amp-mixed-precision|chip=sm_90a format=isa"
  "--amp-mixed-precision|chip=sm_80 format=isa"
  "--amp-mixed-precision=target-type=bf16|chip=sm_90a format=isa"
  "|chip=sm_80 format=isa"
  "--amp-mixed-precision=target-type=f8E4M3FN|chip=sm_90a format=isa"
  "--amp-mixed-precision=weight-only=int4-g128|chip=sm_90a format=isa"
  "--amp-convert-layout --amp-mixed-precision|chip=sm_80 format=isa"
)
norm() { sed -E 's/LLVMIRToISATimeInMs = [0-9]+/T/g' "$1"; }

runs=0 diffs=0 reordered=0
for f in "$ROOT"/test/GPU/Inputs/*.mlir "$ROOT"/test/Conversion/*.mlir \
         "$ROOT"/third_party/corpus/*/*.mlir "$ROOT"/examples/*.mlir; do
  [[ $f =~ ${FILTER:-.} ]] || continue
  for i in "${!PIPES[@]}"; do
    before=${PIPES[$i]%%|*} gpu=${PIPES[$i]#*|}
    args=()
    for a in $before; do args+=("$a"); done
    args+=("--amp-gpu-pipeline=$gpu")
    key=$OUT/$(basename "$f" .mlir).$i
    for side in ref new; do
      bin=$REF; [ $side = new ] && bin=$NEW
      timeout "$TIMEOUT" "$bin" "${args[@]}" "$f" > "$key.$side" 2>&1
      echo "rc=$?" >> "$key.$side"
    done
    runs=$((runs + 1))
    if cmp -s <(norm "$key.ref") <(norm "$key.new"); then
      rm -f "$key".*
    elif cmp -s <(norm "$key.ref" | sort) <(norm "$key.new" | sort); then
      reordered=$((reordered + 1)); rm -f "$key".*
    else
      diffs=$((diffs + 1)); echo "DIFF $f [${args[*]}] -> $key.{ref,new}"
    fi
  done
done
echo "runs: $runs  diffs: $diffs  (the same but for the order of globals: $reordered)"
[ "$diffs" = 0 ]
