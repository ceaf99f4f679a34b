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
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
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
# own measure of its first drawing (data-render-ms).
browse() {
  local flags=(--headless --no-sandbox --disable-gpu --no-first-run
    --no-default-browser-check --disable-extensions --hide-scrollbars
    --user-data-dir="$tmp/profile" --window-size=1400,900
    --virtual-time-budget=10000)
  "$chromium" "${flags[@]}" --screenshot="$3" "file://$tmp/$1$2" >/dev/null 2>&1
  local ms
  ms=$("$chromium" "${flags[@]}" --dump-dom "file://$tmp/$1$2" 2>/dev/null |
    grep -o 'data-render-ms="[0-9]*"' | grep -o '[0-9]*')
  printf '%-28s %8s bytes, drawn in %s ms\n' "$3" "$(stat -c %s "$tmp/$1")" "$ms"
}

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
