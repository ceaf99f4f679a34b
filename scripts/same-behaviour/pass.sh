#!/usr/bin/env bash
# For a change meant to keep behaviour (a refactoring): compares two amp-opt
# binaries, one built before the change and one after, on every .mlir input
# of test/Transforms, the corpus (third_party/corpus) and examples/, under
# option sets of amp-mixed-precision (f16, bf16, FP8, weight-only, range
# analyses, gray strategies, reports), amp-plan-precision,
# amp-fold-constant-payloads and amp-convert-layout: stdout, stderr and the
# exit code must match.
#
# Usage: scripts/same-behaviour/pass.sh REF_AMP_OPT [NEW_AMP_OPT]
#   (env: TIMEOUT per run, JOBS in parallel, OUTDIR, FILTER regex on paths)
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
REF=${1:?usage: $0 REF_AMP_OPT [NEW_AMP_OPT]}
NEW=${2:-$ROOT/build/bin/amp-opt}
TIMEOUT=${TIMEOUT:-120}
JOBS=${JOBS:-1}
OUT=${OUTDIR:-${TMPDIR:-/tmp}/amp-same-pass}

for bin in "$REF" "$NEW"; do
  [ -x "$bin" ] || { echo "missing binary: $bin" >&2; exit 2; }
done

OPTIONS=(
  "--amp-mixed-precision"
  "--amp-mixed-precision=target-type=bf16"
  "--amp-mixed-precision=target-type=f8E4M3FN"
  "--amp-mixed-precision=target-type=f8E5M2"
  "--amp-mixed-precision=target-type=f8E4M3FN fallback-type=bf16 weight-scales=per-channel fp8-min-macs=64"
  "--amp-mixed-precision=weight-only=int8"
  "--amp-mixed-precision=weight-only=int4-g32"
  "--amp-mixed-precision=weight-only=int4-g128-asym target-type=bf16"
  "--amp-mixed-precision=weight-only=e4m3"
  "--amp-mixed-precision=range-analysis=dataflow"
  "--amp-mixed-precision=range-analysis=dataflow clamp-constants=true target-type=bf16"
  "--amp-mixed-precision=range-analysis=off"
  "--amp-mixed-precision=overflow-type=bf16"
  "--amp-mixed-precision=clamp-constants=true"
  "--amp-mixed-precision=fold-constant-payloads=false"
  "--amp-mixed-precision=gray-strategy=follow"
  "--amp-mixed-precision=gray-strategy=fewest-casts keep-io-types=false"
  "--amp-mixed-precision=unknown-ops=gray remarks=true report=-"
  "--amp-mixed-precision=green=linalg.generic gray=linalg.matmul red=tosa.add,math.exp"
  "--amp-mixed-precision=skip-layers=0,-1 min-macs=4096 large-growth=0"
  "--amp-mixed-precision=policy=#amp.default_policy<min_macs=100000>"
  "--amp-mixed-precision=ranges=$ROOT/test/Transforms/Inputs/fp8-ranges.json range-margin=4"
  "--amp-mixed-precision=target-type=f8E4M3FN ranges=$ROOT/test/Transforms/Inputs/fp8-ranges-tosa.json"
  "--amp-mixed-precision=gray-strategy=always"
  "--amp-mixed-precision=target-type=f12 unknown-ops=maybe"
  "--amp-plan-precision"
  "--amp-plan-precision=range-analysis=dataflow target-type=bf16"
  "--amp-fold-constant-payloads"
  "--amp-fold-constant-payloads=max-elements=4"
  "--amp-fold-constant-payloads=max-elements=0"
  "--amp-convert-layout"
  "--amp-convert-layout=filter=fhwc"
  "--amp-convert-layout=propagate=false"
  "--amp-convert-layout=skip-layers=0,-1"
  "--amp-convert-layout --amp-mixed-precision"
  "--amp-convert-layout=filter=fhwc --amp-fold-constant-payloads --amp-mixed-precision=target-type=bf16"
)

mapfile -t FILES < <(
  for d in "$ROOT/test/Transforms" "$ROOT/third_party/corpus" \
           "$ROOT/examples"; do
    [ -d "$d" ] && find "$d" -name '*.mlir' -type f
  done | sort | grep -E "${FILTER:-.}")

rm -rf "$OUT"
mkdir -p "$OUT"
: > "$OUT/jobs"
for f in "${FILES[@]}"; do
  for i in "${!OPTIONS[@]}"; do
    printf '%s\t%s\n' "$f" "$i" >> "$OUT/jobs"
  done
done

run_one() {
  local file=$1 idx=$2 opts
  opts=${OPTIONS[$idx]}
  local key
  key=$(printf '%s_%s' "$(echo "$file" | tr '/' '_')" "$idx")
  local -a args
  # Split the option string into words; an option=value with spaces is one
  # word per pass option group (the form amp-opt takes).
  args=()
  local word
  for word in $opts; do
    if [[ $word == --* ]]; then
      args+=("$word")
    else
      args[-1]="${args[-1]} $word"
    fi
  done
  for which in ref new; do
    local bin=$REF
    [ $which = new ] && bin=$NEW
    (cd "${TMPDIR:-/tmp}" && timeout "$TIMEOUT" "$bin" "$file" --split-input-file \
       --allow-unregistered-dialect "${args[@]}" \
       > "$OUT/$key.$which.out" 2> "$OUT/$key.$which.err"
     echo $? > "$OUT/$key.$which.rc")
    # The input's path shows in diagnostics: it is the same for both.
  done
  if cmp -s "$OUT/$key.ref.out" "$OUT/$key.new.out" &&
     cmp -s "$OUT/$key.ref.err" "$OUT/$key.new.err" &&
     cmp -s "$OUT/$key.ref.rc" "$OUT/$key.new.rc"; then
    [ "$(cat "$OUT/$key.ref.rc")" = 124 ] && echo "TIMEOUT $file [$opts]"
    rm -f "$OUT/$key".*
    echo "same"
  else
    echo "DIFF $file [$opts] (rc ref $(cat "$OUT/$key.ref.rc") new $(cat "$OUT/$key.new.rc")) -> $OUT/$key.*"
  fi
}
export -f run_one
export REF NEW TIMEOUT OUT
export OPTIONS_STR
OPTIONS_STR=$(printf '%s\n' "${OPTIONS[@]}")

results=$(
  while IFS=$'\t' read -r file idx; do
    printf '%s\0%s\0' "$file" "$idx"
  done < "$OUT/jobs" |
  xargs -0 -n 2 -P "$JOBS" bash -c '
    mapfile -t OPTIONS <<< "$OPTIONS_STR"
    run_one "$1" "$2"' _)

total=$(wc -l < "$OUT/jobs")
diffs=$(grep -c '^DIFF' <<< "$results")
timeouts=$(grep -c '^TIMEOUT' <<< "$results")
grep -E '^(DIFF|TIMEOUT)' <<< "$results"
echo "files: ${#FILES[@]}  option sets: ${#OPTIONS[@]}  runs: $total  diffs: $diffs  timeouts (same on both): $timeouts"
[ "$diffs" = 0 ]
