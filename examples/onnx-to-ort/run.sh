#!/usr/bin/env bash
# The worked example of docs/onnx.md: PyTorch -> ONNX -> amp -> ONNX ->
# ONNX Runtime. Needs PyTorch and ONNX (python3-torch, python3-onnx) and
# ONNX Runtime's CPU library (scripts/install-onnxruntime.sh).
#
#   examples/onnx-to-ort/run.sh WORK [BUILD_BIN]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$1
bin=${2:-$root/build/bin}
python=${PYTHON:-/usr/bin/python3}
ort() { NODE_PATH=${NODE_PATH:-$root/.deps/onnxruntime/node_modules} node "$root/scripts/ort-run.js" "$@"; }

# 1. Export from PyTorch (opset 17), with calibration samples.
"$python" "$here/model.py" "$work"
# 2. amp's decisions, calibrated on the samples and tuned to a tolerance,
#    written into a copy of the file.
"$bin/amp-convert-onnx" "$work/tinynet.onnx" -o "$work/tinynet.f16.onnx" \
  --inputs="$work/samples" --tolerance=rel_l2=1e-3 --report="$work/tinynet.html"
# 3. Both files in ONNX Runtime, on an input none of the samples is.
ort "$work/tinynet.onnx" "$work/ort32" "$work/test.npy"
ort "$work/tinynet.f16.onnx" "$work/ort16" "$work/test.npy"
"$python" "$here/compare.py" "$work/torch.npy" "$work/ort32" "ORT, FP32 file" 1e-5
"$python" "$here/compare.py" "$work/torch.npy" "$work/ort16" "ORT, amp's f16 file" 1e-3
