#!/usr/bin/env bash
# Installs what amp needs on Debian 12 (bookworm), and only what is missing:
# LLVM/MLIR 22 from Debian's bookworm-security, CMake, Ninja, a C++ compiler,
# Python 3 (for lit), GoogleTest and zlib (amp-run reads .npz files), and
# ONNX (libonnx-dev and libprotobuf-dev, whose headers it includes, for
# amp-import-onnx; python3-onnx and libonnx-testdata
# for its tests and conformance suite). Says what it installs.
#
# --sanitizers: also clang-22 and its sanitizer/libFuzzer runtimes, for
# `make check-asan` and `make fuzz` (`make check` does not need them).
set -euo pipefail

packages=(cmake ninja-build g++ python3 libgtest-dev zlib1g-dev
          llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
          libonnx-dev libprotobuf-dev python3-onnx libonnx-testdata)
if [ "${1:-}" = "--sanitizers" ]; then
  packages+=(clang-22 libclang-rt-22-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  "$(dirname "$0")/install-onnxruntime.sh"
  exit 0
fi

echo "amp: installing missing packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then
    sudo="sudo"
  else
    echo "amp: not root and no sudo: install these packages first: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# LLVM 22 is in bookworm-security, which a standard Debian 12 install has
# among its sources but a minimal root (debootstrap) may not.
policy=$(apt-cache policy llvm-22-dev 2>/dev/null || true)
if ! grep -q 'Candidate: [0-9]' <<<"$policy"; then
  echo "amp: llvm-22-dev is not in your package sources. It comes from Debian's" >&2
  echo "  bookworm-security; add this line to /etc/apt/sources.list and rerun:" >&2
  echo "  deb http://deb.debian.org/debian-security bookworm-security main" >&2
  exit 1
fi
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "amp: installed ${missing[*]}"
"$(dirname "$0")/install-onnxruntime.sh"
