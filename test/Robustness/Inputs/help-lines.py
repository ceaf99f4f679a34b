"""Reads a tool's --help on stdin; fails unless it has at most MAX lines,
mentions OPTION, and shows none of LLVM's own flags."""
import sys

limit, option = int(sys.argv[1]), sys.argv[2]
text = sys.stdin.read()
lines = text.splitlines()
problems = []
if len(lines) > limit:
    problems.append("%d lines (at most %d)" % (len(lines), limit))
if option not in text:
    problems.append("%s is not listed" % option)
for llvm_flag in ("--x86-", "--mlir-print", "--debug-counter", "--color"):
    if llvm_flag in text:
        problems.append("LLVM's %s is listed" % llvm_flag)
if problems:
    sys.exit("help-lines: " + "; ".join(problems) + "\n" + text)
print("help-lines: ok (%d lines)" % len(lines))
