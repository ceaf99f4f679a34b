#!/usr/bin/env python3
"""Writes a seed corpus for amp-parse-fuzzer.

Every .mlir file found under the given paths is split into the modules it
holds (at `// -----` lines, as --split-input-file does, and at `//--- name`
lines, as split-file does); each module becomes one seed file. A module from
a file whose RUN lines use --allow-unregistered-dialect starts with a comment
saying so, which the fuzzer reads.

Usage: make-seeds.py OUTPUT_DIR PATH...
"""

import os
import re
import sys

SPLIT = re.compile(r"^// -----\s*$|^//--- .*$", re.M)
MAX_SIZE = 256 * 1024


def mlir_files(path):
    if os.path.isfile(path):
        yield path
        return
    for root, _, files in os.walk(path):
        for name in sorted(files):
            if name.endswith(".mlir"):
                yield os.path.join(root, name)


def main():
    out, paths = sys.argv[1], sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    count = 0
    for path in paths:
        for f in mlir_files(path):
            text = open(f, encoding="utf-8", errors="replace").read()
            unregistered = "allow-unregistered-dialect" in text
            stem = os.path.splitext(os.path.basename(f))[0]
            for i, chunk in enumerate(SPLIT.split(text)):
                if not chunk.strip() or len(chunk) > MAX_SIZE:
                    continue
                if unregistered:
                    chunk = "// allow-unregistered-dialect\n" + chunk
                name = os.path.join(out, f"{stem}-{i}.mlir")
                with open(name, "w", encoding="utf-8") as seed:
                    seed.write(chunk)
                count += 1
    print(f"{count} seeds in {out}")


if __name__ == "__main__":
    main()
