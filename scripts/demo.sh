#!/usr/bin/env bash
# `make demo`: converts the bundled example with amp-opt --amp-mixed-precision,
# prints the interesting part of the result and a one-line summary taken from
# the pass's JSON report.
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
model=${AMP_DEMO_MODEL:-$root/examples/classifier.mlir}
amp_opt=$build/bin/amp-opt
report=$(mktemp /tmp/amp-demo-report.XXXXXX.json)
out=$(mktemp /tmp/amp-demo-out.XXXXXX.mlir)
trap 'rm -f "$report" "$out"' EXIT

echo "== amp-opt --amp-mixed-precision ${model#$root/}"
"$amp_opt" --amp-mixed-precision="report=$report" "$model" -o "$out"

# The interesting part: signature, green ops, casts, red math, folded weights.
grep -E "func.func|linalg\.(matmul|batch_matmul|conv)|tosa\.(matmul|conv)|arith\.(truncf|extf)|tosa\.cast|math\.|dense<.*xf16>|return" "$out" \
  | sed -E 's/^ +/  /' | cut -c1-150

sig_before=$(grep -E "^ *func.func" "$model" | sed -E 's/%[A-Za-z0-9_]+/%/g; s/ *\{$//' | tr -d ' ')
sig_after=$("$amp_opt" "$out" | grep -E "^ *func.func" | sed -E 's/%[A-Za-z0-9_]+/%/g; s/ *\{$//' | tr -d ' ')
[ "$sig_before" = "$sig_after" ] && signature="signature unchanged" || signature="signature CHANGED"

python3 - "$report" "$signature" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = r["totals"]
target = r["target"]
kib = lambda b: f"{b / 1024:.0f} KiB"
print(f"== summary: {t['ops']} ops: {t['green']} green ({target} inputs, "
      f"f32 accumulation), {t['gray_low']} gray in {target}, "
      f"{t['gray_fp32']} gray kept in FP32, {t['red']} red in FP32; "
      f"{t['casts_inserted']} casts inserted; float constants "
      f"{kib(t['constant_bytes_before'])} -> {kib(t['constant_bytes_after'])}; "
      f"{sys.argv[2]}")
PY
