#!/usr/bin/env python3
"""Print the PTX embedded in amp-opt output.

`amp-opt --amp-gpu-pipeline="... format=isa"` embeds each kernel module as a
`gpu.binary` whose object carries the PTX as an escaped string
(`assembly = "..."`). This script decodes every such string and prints the
PTX, one module after the other, so that tests can FileCheck it or hand it to
ptxas:

    amp-opt m.mlir --amp-gpu-pipeline="chip=sm_80 format=isa" \\
      | scripts/amp-extract-ptx.py > m.ptx
    amp-extract-ptx.py --split DIR < out.mlir   # one DIR/<module>.ptx each
"""

import argparse
import os
import re
import sys

# gpu.binary @name [#gpu.object<..., assembly = "...">]
BINARY = re.compile(r'gpu\.binary\s+@([\w$.]+)')
ASSEMBLY = re.compile(r'assembly\s*=\s*"((?:[^"\\]|\\.)*)"')


def unescape(text):
    """Undoes MLIR's string escaping (\\XX hex bytes, \\\\, \\", \\n, \\t)."""
    out = bytearray()
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != "\\":
            out += ch.encode()
            i += 1
            continue
        nxt = text[i + 1]
        if nxt in '\\"':
            out += nxt.encode()
            i += 2
        elif nxt == "n":
            out += b"\n"
            i += 2
        elif nxt == "t":
            out += b"\t"
            i += 2
        else:
            out.append(int(text[i + 1:i + 3], 16))
            i += 3
    return out.decode()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", nargs="?", default="-")
    parser.add_argument("--split", metavar="DIR",
                        help="write one <module>.ptx per gpu.binary into DIR")
    args = parser.parse_args()
    text = sys.stdin.read() if args.input == "-" else open(args.input).read()
    found = 0
    for line in text.splitlines():
        binary = BINARY.search(line)
        if not binary:
            continue
        for asm in ASSEMBLY.finditer(line):
            ptx = unescape(asm.group(1))
            found += 1
            if args.split:
                os.makedirs(args.split, exist_ok=True)
                name = "%s.%d.ptx" % (binary.group(1), found)
                with open(os.path.join(args.split, name), "w") as f:
                    f.write(ptx)
            else:
                sys.stdout.write(ptx)
    if not found:
        sys.exit("amp-extract-ptx: no PTX found (was format=isa used?)")


if __name__ == "__main__":
    main()
