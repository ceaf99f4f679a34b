#!/usr/bin/env bash
# Edits the PTX modules a program loaded (dumped by amp-emulate
# --dump-ptx=DUMP) for amp-emulate --replace-ptx=OUT: every module in DUMP
# that contains PATTERN goes through `sed -e SED` into OUT (same name).
# Fails when no module matches or the edit changes nothing, so that a test
# built on it cannot silently stop testing anything.
#
#   edit-ptx.sh DUMP OUT PATTERN SED
set -euo pipefail
dump=$1 out=$2 pattern=$3 expr=$4
mkdir -p "$out"
found=0
for f in "$dump"/module-*.ptx; do
  grep -q -- "$pattern" "$f" || continue
  sed -e "$expr" "$f" > "$out/$(basename "$f")"
  if cmp -s "$f" "$out/$(basename "$f")"; then
    echo "edit-ptx.sh: '$expr' changes nothing in $f" >&2
    exit 1
  fi
  found=1
done
if [ "$found" = 0 ]; then
  echo "edit-ptx.sh: no module in $dump contains '$pattern'" >&2
  exit 1
fi
