#!/usr/bin/env python3
"""Compare the outputs of two amp-compile runs (e.g. GPU vs CPU reference).

    amp-compare.py REF_DIR TEST_DIR [--max-rel-l2 X] [--min-cosine X]

Both folders hold what `model --outputs DIR` writes (outputs.json and
output<i>.bin). For each output it prints max abs error, max rel error,
relative L2 error, cosine similarity, argmax agreement over the last
dimension and the number of non-finite values, and exits 1 when an output
is beyond the given bounds (or has non-finite values the reference has
not). Pure Python: runs where numpy is not installed.
"""

import argparse
import array
import json
import math
import os
import sys


def load(folder, entry):
    values = array.array("f" if entry["dtype"] == "float32" else "q")
    with open(os.path.join(folder, entry["file"]), "rb") as f:
        values.frombytes(f.read())
    if sys.byteorder != "little":
        values.byteswap()
    return values


def metrics(ref, test, shape):
    n = len(ref)
    max_abs = max_rel = 0.0
    diff2 = ref2 = test2 = dot = 0.0
    nonfinite_ref = nonfinite_test = 0
    for r, t in zip(ref, test):
        if not math.isfinite(r):
            nonfinite_ref += 1
        if not math.isfinite(t):
            nonfinite_test += 1
        if not (math.isfinite(r) and math.isfinite(t)):
            continue
        d = abs(r - t)
        max_abs = max(max_abs, d)
        max_rel = max(max_rel, d / max(abs(r), 1e-6))
        diff2 += d * d
        ref2 += r * r
        test2 += t * t
        dot += r * t
    rel_l2 = math.sqrt(diff2) / max(math.sqrt(ref2), 1e-30)
    cosine = dot / max(math.sqrt(ref2) * math.sqrt(test2), 1e-30)
    # Argmax agreement over rows of the last dimension.
    last = shape[-1] if shape else 1
    rows = n // last if last else 0
    agree = 0
    for row in range(rows):
        seg_r = ref[row * last:(row + 1) * last]
        seg_t = test[row * last:(row + 1) * last]
        if max(range(last), key=seg_r.__getitem__) == \
                max(range(last), key=seg_t.__getitem__):
            agree += 1
    return {
        "elements": n, "max_abs": max_abs, "max_rel": max_rel,
        "rel_l2": rel_l2, "cosine": cosine,
        "argmax_agreement": agree / rows if rows else 1.0,
        "nonfinite_ref": nonfinite_ref, "nonfinite_test": nonfinite_test,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ref")
    parser.add_argument("test")
    parser.add_argument("--max-rel-l2", type=float, default=1e-2)
    parser.add_argument("--min-cosine", type=float, default=0.999)
    parser.add_argument("--json", help="also write the metrics here")
    args = parser.parse_args()
    with open(os.path.join(args.ref, "outputs.json")) as f:
        ref_manifest = json.load(f)
    with open(os.path.join(args.test, "outputs.json")) as f:
        test_manifest = json.load(f)
    if len(ref_manifest["outputs"]) != len(test_manifest["outputs"]):
        sys.exit("amp-compare: the runs have different numbers of outputs")
    ok = True
    report = []
    for i, (r, t) in enumerate(zip(ref_manifest["outputs"],
                                   test_manifest["outputs"])):
        if r["shape"] != t["shape"]:
            sys.exit("amp-compare: output %d: shapes %s and %s differ" %
                     (i, r["shape"], t["shape"]))
        m = metrics(load(args.ref, r), load(args.test, t), r["shape"])
        good = (m["rel_l2"] <= args.max_rel_l2 and
                m["cosine"] >= args.min_cosine and
                m["nonfinite_test"] <= m["nonfinite_ref"])
        ok &= good
        m["output"] = i
        m["ok"] = good
        report.append(m)
        print("output %d: %s max_abs %.3g max_rel %.3g rel_l2 %.3g cosine "
              "%.6f argmax %.3f nonfinite %d/%d" % (
                  i, "OK  " if good else "FAIL", m["max_abs"], m["max_rel"],
                  m["rel_l2"], m["cosine"], m["argmax_agreement"],
                  m["nonfinite_test"], m["nonfinite_ref"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
    print("amp-compare: %s (bounds: rel_l2 <= %g, cosine >= %g)" % (
        "match" if ok else "MISMATCH", args.max_rel_l2, args.min_cosine))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
