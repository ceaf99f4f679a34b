#!/usr/bin/env bash
# Regenerates the screenshots of the HTML report in docs/images/: one per
# corpus family (third_party/corpus/linalg, third_party/corpus/tosa) and one
# of amp-tune's report, each taken by headless Chromium from the page that
# amp-opt (or amp-tune) writes, and prints each page's size and the time its
# script took to draw it.
#
#   scripts/report-screenshots.sh [BUILD_DIR]     (default: build)
#
# Needs a Chromium (Debian: apt-get install chromium); CHROMIUM=... names
# another binary. Runs from the repository root so that the locations the
# pages show are relative paths.
#
# With --measure, it also writes the page of every corpus model and of a
# generated model of more than 10,000 ops (bench/compile/gen_model.py) and
# prints their sizes and times, without screenshots.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
measure=
if [ "${1:-}" = --measure ]; then
  measure=1
  shift
fi
build=$(cd "${1:-$root/build}" && pwd)
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
if [ -z "$chromium" ]; then
  echo "report-screenshots: no Chromium found (apt-get install chromium, or set CHROMIUM)" >&2
  exit 1
fi
cd "$root"
tmp=$(mktemp -d /tmp/amp-report-shots.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p docs/images

# browse PAGE FRAGMENT PNG: a screenshot of PAGE#FRAGMENT, and the page's
# own measures: the time from the start of loading to the first drawing
# (data-open-ms), of which the script's (data-render-ms).
browse() {
  local flags=(--headless --no-sandbox --disable-gpu --no-first-run
    --no-default-browser-check --disable-extensions --hide-scrollbars
    --user-data-dir="$tmp/profile" --window-size=1400,900
    --virtual-time-budget=10000)
  "$chromium" "${flags[@]}" --screenshot="$3" "file://$tmp/$1$2" >/dev/null 2>&1
  local body render open
  body=$("$chromium" "${flags[@]}" --dump-dom "file://$tmp/$1$2" 2>/dev/null | grep -o '<body[^>]*>')
  render=$(echo "$body" | grep -o 'data-render-ms="[0-9]*"' | grep -o '[0-9]*')
  open=$(echo "$body" | grep -o 'data-open-ms="[0-9]*"' | grep -o '[0-9]*')
  printf '%-28s %8s bytes, open in %s ms (script %s ms)\n' "$3" "$(stat -c %s "$tmp/$1")" "$open" "$render"
}

# measure MODEL.mlir OPTIONS: the page's size and times.
measure() {
  local name
  name=$(basename "$1" .mlir)
  "$build/bin/amp-opt" "$1" --amp-mixed-precision="$2 report=$tmp/$name.html" -o /dev/null
  local body render open ops
  body=$("$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$tmp/profile" --virtual-time-budget=10000 \
    --dump-dom "file://$tmp/$name.html" 2>/dev/null | grep -o '<body[^>]*>')
  render=$(echo "$body" | grep -o 'data-render-ms="[0-9]*"' | grep -o '[0-9]*')
  open=$(echo "$body" | grep -o 'data-open-ms="[0-9]*"' | grep -o '[0-9]*')
  ops=$(grep -o '"ops":[0-9]*' "$tmp/$name.html" | tail -1 | grep -o '[0-9]*')
  printf '%-28s %6s ops %9s bytes, open in %5s ms (script %s ms)\n' "$name" "$ops" \
    "$(stat -c %s "$tmp/$name.html")" "$open" "$render"
}
if [ -n "$measure" ]; then
  for model in third_party/corpus/linalg/*.mlir third_party/corpus/tosa/*.mlir; do
    measure "$model" ""
  done
  python3 bench/compile/gen_model.py --family transformer --ops 45000 -o "$tmp/transformer-45k.mlir" >/dev/null 2>&1
  measure "$tmp/transformer-45k.mlir" ""
  exit 0
fi

# linalg: ResNet-18, its max pooling selected.
"$build/bin/amp-opt" third_party/corpus/linalg/resnet18.mlir \
  --amp-mixed-precision="report=$tmp/linalg.html" -o /dev/null
browse linalg.html "#search=pooling_nchw_max" docs/images/report-linalg.png

# tosa: the Llama decoder layer in bf16, the attention's softmax selected.
"$build/bin/amp-opt" third_party/corpus/tosa/llama-decoder-layer.mlir \
  --amp-mixed-precision="target-type=bf16 report=$tmp/tosa.html" -o /dev/null
browse tosa.html "#search=tosa.reduce_max" docs/images/report-tosa.png

# amp-tune: the MLP whose first matmul overflows f16 (test/amp-run/Inputs).
"$build/bin/amp-tune" test/amp-run/Inputs/overflowing-mlp.mlir --input-range=0,1 \
  --tolerance=rel_l2=1e-2 --quiet --report="$tmp/tune.html" -o "$tmp/tuned.mlir"
browse tune.html "#search=linalg.mul" docs/images/report-tune.png
