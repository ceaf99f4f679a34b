"""Prints the multiset of (op name, operand and result types) of a module in
MLIR's generic form, sorted: two modules with the same ops in any order and
with any SSA names print the same. Regions' ops count like the others."""
import re
import sys

ops = []
for line in sys.stdin:
    m = re.search(r'"([\w.]+)"\(.*\) .*: (\(.*\) -> .*)$', line.strip())
    if m:
        ops.append(m.group(1) + " : " + re.sub(r"loc\(.*\)", "", m.group(2)).strip())
for op in sorted(ops):
    print(op)
print("ops:", len(ops))
