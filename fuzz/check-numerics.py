#!/usr/bin/env python3
"""The numerics check of amp-graphgen (--numerics): runs a generated module
in FP32 and converted with amp-run and fails on gross errors.

  amp-graphgen --numerics="fuzz/check-numerics.py build/bin/amp-run" ...

Exit 0 when the outputs agree, or when amp-run cannot run the FP32 module at
all (its CPU lowering does not cover every generated construct, e.g. tensors
through unstructured control flow): that says nothing about the pass, and is
reported as "skip". Exit 1 when the converted module fails where the FP32 one
ran, or an output is grossly wrong: relative L2 error above REL_L2 while the
absolute error is above ABS (values near f16's underflow threshold, ~6e-8,
legitimately lose all their digits, so a relative bound alone would flag
them).
"""

import json
import subprocess
import sys

REL_L2 = 0.1
ABS = 1e-2
CANNOT_RUN = ("cannot lower the FP32 model", "amp-run cannot pass",
              "no public function takes", "cannot parse")


def main():
    amp_run, module = sys.argv[1], sys.argv[2]
    proc = subprocess.run([amp_run, module, "--runs", "1", "--json"],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        if any(reason in proc.stderr for reason in CANNOT_RUN):
            print("skip: amp-run cannot run the FP32 module")
            return 0
        sys.stderr.write(proc.stderr)
        return 1
    report = json.loads(proc.stdout)
    # Errors are null where an output is not finite: FP32 overflowing, or
    # f16 overflowing where FP32 did not (a property of the data, which the
    # pass cannot avoid without knowing the values); not compared.
    bad = [o for o in report["outputs"]
           if o["rel_l2_err"] is not None and o["max_abs_err"] is not None
           and o["rel_l2_err"] > REL_L2 and o["max_abs_err"] > ABS]
    for o in bad:
        sys.stderr.write("%s: rel_l2 %.3g, max_abs %.3g\n" %
                         (o["name"], o["rel_l2_err"], o["max_abs_err"]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
