# Reads amp-run --json reports (f16, then two FP8 variants, from less to
# more precise) and prints "ordered" if their overall relative L2 errors
# grow in that order, each FP8 one being above f16's; else the numbers.
import json
import sys

errors = []
for path in sys.argv[1:]:
    with open(path) as f:
        errors.append(json.load(f)["overall"]["rel_l2_err"])
if all(e is not None for e in errors) and all(
        a < b for a, b in zip(errors, errors[1:])):
    print("ordered")
else:
    print("not ordered:", errors)
