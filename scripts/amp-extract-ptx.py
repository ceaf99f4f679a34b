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
    amp-extract-ptx.py --ptxas /usr/local/cuda/bin/ptxas --arch sm_80 out.mlir
                                        # assemble each module, print a summary
    amp-extract-ptx.py --check-self-contained out.mlir
                                        # no module declares an external
                                        # function or calls an undefined one

A self-contained module loads with nothing linked in: the pipeline expands
math itself (--amp-gpu-expand-math), so no kernel needs libdevice.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

# gpu.binary @name [#gpu.object<..., assembly = "...">]
BINARY = re.compile(r'gpu\.binary\s+@([\w$.]+)')
ASSEMBLY = re.compile(r'assembly\s*=\s*"((?:[^"\\]|\\.)*)"')

# PTX function declarations and definitions: `[.extern|.visible|.weak] .func
# [(ret)] name(...)` followed by `;` (declaration) or `{` (definition), and
# `.entry name`; calls: `call[.uni] [(ret),] name[, (args)];`.
FUNC = re.compile(r'^\s*((?:\.\w+\s+)*)\.(func|entry)\s+(?:\([^)]*\)\s*)?'
                  r'([\w$]+)', re.M)
CALL = re.compile(r'\bcall(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?([\w$]+)')


def linkage_problems(ptx):
    """External declarations and calls of undefined functions in a module."""
    problems, defined = [], set()
    for match in FUNC.finditer(ptx):
        qualifiers, name = match.group(1).split(), match.group(3)
        if ".extern" in qualifiers:
            problems.append(".extern .func %s" % name)
        else:
            defined.add(name)
    for match in CALL.finditer(ptx):
        if match.group(1) not in defined:
            problems.append("call of undefined %s" % match.group(1))
    return sorted(set(problems))


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
    parser.add_argument("--ptxas", metavar="PTXAS",
                        help="assemble every module with this ptxas instead "
                             "of printing the PTX")
    parser.add_argument("--arch", default="sm_80",
                        help="architecture for --ptxas (default sm_80)")
    parser.add_argument("--check-self-contained", action="store_true",
                        help="instead of printing the PTX, check that no "
                             "module declares an external function or calls "
                             "an undefined one; print a summary")
    args = parser.parse_args()
    if args.ptxas and not args.split:
        args.split = tempfile.mkdtemp(prefix="amp-ptx-")
    text = sys.stdin.read() if args.input == "-" else open(args.input).read()
    found = 0
    bad = []
    for line in text.splitlines():
        binary = BINARY.search(line)
        if not binary:
            continue
        for asm in ASSEMBLY.finditer(line):
            ptx = unescape(asm.group(1))
            found += 1
            if args.check_self_contained:
                bad += ["%s: %s" % (binary.group(1), problem)
                        for problem in linkage_problems(ptx)]
            elif args.split:
                os.makedirs(args.split, exist_ok=True)
                name = "%s.%d.ptx" % (binary.group(1), found)
                with open(os.path.join(args.split, name), "w") as f:
                    f.write(ptx)
            else:
                sys.stdout.write(ptx)
    if not found:
        sys.exit("amp-extract-ptx: no PTX found (was format=isa used?)")
    if args.check_self_contained:
        for problem in bad:
            print("amp-extract-ptx: %s" % problem)
        print("amp-extract-ptx: %d modules, %s" % (
            found, "%d linkage problems" % len(bad) if bad
            else "self-contained"))
        sys.exit(1 if bad else 0)
    if args.ptxas:
        failed = 0
        for name in sorted(os.listdir(args.split)):
            path = os.path.join(args.split, name)
            result = subprocess.run(
                [args.ptxas, "-arch=" + args.arch, path, "-o", os.devnull],
                capture_output=True, text=True)
            if result.returncode != 0:
                failed += 1
                sys.stderr.write("%s: ptxas failed:\n%s" % (name,
                                                            result.stderr))
        print("ptxas %s: %d modules, %d failed" % (args.arch, found, failed))
        sys.exit(1 if failed else 0)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.stderr.close()
