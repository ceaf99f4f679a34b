#!/usr/bin/env python3
"""Before/after tables of bench/roofline/run.py sweeps, as Markdown.

    bench/roofline/compare.py BEFORE_DIR AFTER_DIR [PRECISION] > table.md

Each DIR is a run.py --out folder with its --json file (BEFORE_DIR/*.json,
AFTER_DIR/*.json) and the per-run profiles (<model>/<chip>-<precision>-
profile.json), from which the driver calls are counted. Rows are matched by
model, chip and precision (only PRECISION's rows when given); a run
missing on one side is shown as "-".
"""

import glob
import json
import os
import sys


def load(folder):
    rows = {}
    for path in glob.glob(os.path.join(folder, "*.json")):
        with open(path) as f:
            for row in json.load(f):
                key = (row["model"], row["chip"], row["precision"])
                profile = os.path.join(folder, row["model"], "%s-%s-profile.json"
                                       % (row["chip"], row["precision"]))
                if os.path.exists(profile):
                    with open(profile) as p:
                        prof = json.load(p)
                    calls = prof.get("driver_calls", {})
                    row["driver_calls"] = sum(calls.values())
                    row["module_loads"] = calls.get("cuModuleLoadDataEx", 0)
                rows[key] = row
    return rows


def cell(row, field, fmt):
    if row is None:
        return "-"
    if "error" in row:
        return row["error"]
    return fmt(row[field])


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    before, after = load(sys.argv[1]), load(sys.argv[2])
    if len(sys.argv) == 4:
        before = {k: v for k, v in before.items() if k[2] == sys.argv[3]}
        after = {k: v for k, v in after.items() if k[2] == sys.argv[3]}
    print("| model | chip | prec. | launches before → after (budget) | "
          "DRAM MB before → after | bound H100 us before → after | "
          "bound H200 us after | driver calls before → after | rel L2 after |")
    print("|---|---|---|---|---|---|---|---|---|")
    keys = sorted(set(before) | set(after))
    for key in keys:
        b, a = before.get(key), after.get(key)
        ref = a or b
        budget = "%.1f" % ref["budget"]
        mb = lambda r: cell(r, "bytes", lambda v: "%.1f" % (v / 1e6))
        print("| %s | %s | %s | %s → %s (%s) | %s → %s | %s → %s | %s | "
              "%s → %s | %s |" % (
                  key[0], key[1], key[2],
                  cell(b, "launches", str), cell(a, "launches", str), budget,
                  mb(b), mb(a),
                  cell(b, "bound_us", lambda v: "%.1f" % v["H100 SXM"]),
                  cell(a, "bound_us", lambda v: "%.1f" % v["H100 SXM"]),
                  cell(a, "bound_us", lambda v: "%.1f" % v["H200"]),
                  cell(b, "driver_calls", str), cell(a, "driver_calls", str),
                  cell(a, "rel_l2", lambda v: "%.2g" % v
                       if v is not None else "-")))


if __name__ == "__main__":
    main()
