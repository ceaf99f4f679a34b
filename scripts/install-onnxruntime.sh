#!/usr/bin/env bash
# Installs ONNX Runtime's CPU library for the tests that run converted ONNX
# models in it (lit feature `onnxruntime`): the npm package onnxruntime-node
# into .deps/onnxruntime (about 300 MB; Debian has no ONNX Runtime). Needs
# Node.js and npm (`apt-get install nodejs npm`); without them it says so
# once and the tests that need ONNX Runtime are reported unsupported.
# AMP_SKIP_ONNXRUNTIME=1 skips it.
set -euo pipefail

version=1.30.0
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/.deps/onnxruntime"

if [ "${AMP_SKIP_ONNXRUNTIME:-0}" = 1 ]; then
  exit 0
fi
if [ -f "$dest/node_modules/onnxruntime-node/package.json" ] &&
   grep -q "\"version\": \"$version\"" "$dest/node_modules/onnxruntime-node/package.json"; then
  exit 0
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "amp: no node/npm: the tests that run ONNX Runtime will be unsupported" \
       "(apt-get install nodejs npm, then rerun)"
  exit 0
fi
echo "amp: installing onnxruntime-node $version into .deps/onnxruntime (for the ONNX Runtime tests)"
mkdir -p "$dest"
# --ignore-scripts: the package's install script only fetches the CUDA
# provider (from a host these machines may not reach); the CPU library is in
# the package itself.
if ! npm install --prefix "$dest" --ignore-scripts --no-audit --no-fund \
     --loglevel=error "onnxruntime-node@$version" >/dev/null; then
  echo "amp: npm could not install onnxruntime-node; the ONNX Runtime tests" \
       "will be unsupported" >&2
fi
