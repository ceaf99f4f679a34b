#!/usr/bin/env python3
# ===- check-fp8-json.py - Check amp-tune --json of a three-level search ---===#
#
# Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------------===#
"""Checks the JSON of `amp-tune --precisions=f8E4M3FN,f16 --json`: the chosen
conversion meets the tolerance, the multiply-adds per precision add up to the
total, the share in FP8 is at least --min-fp8-share, and --moved contractions
were moved to 16 bits (the same as the fp8_ops entries marked moved)."""

import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json")
    parser.add_argument("--tolerance", type=float, required=True)
    parser.add_argument("--min-fp8-share", type=float, required=True)
    parser.add_argument("--moved", type=int, required=True)
    args = parser.parse_args()
    with open(args.json) as f:
        result = json.load(f)
    errors = []
    if result["rel_l2"] is None or result["rel_l2"] > args.tolerance:
        errors.append(f"rel_l2 {result['rel_l2']} above {args.tolerance}")
    macs = result["macs"]
    parts = sum(v for k, v in macs.items() if k != "total")
    if parts != macs["total"]:
        errors.append(f"multiply-adds by precision {macs} do not add up")
    share = result["share_macs"].get("f8E4M3FN")
    if share is None or share < args.min_fp8_share:
        errors.append(f"FP8 share {share} below {args.min_fp8_share}")
    if abs(share * macs["total"] - macs["f8E4M3FN"]) > 1:
        errors.append("the FP8 share is not its multiply-adds over the total")
    moved = [op for op in result["fp8_ops"] if op["moved_to_16bit"]]
    if result["moved_to_16bit"] != args.moved or len(moved) != args.moved:
        errors.append(f"moved {result['moved_to_16bit']} ({len(moved)} marked), "
                      f"expected {args.moved}")
    chosen = [t for t in result["trials"] if t["meets"] and
              t["moved_to_16bit"] == args.moved]
    if not chosen:
        errors.append("no trial that meets moved that many")
    for error in errors:
        print("check-fp8-json: " + error, file=sys.stderr)
    if errors:
        sys.exit(1)
    print(f"check-fp8-json: FP8 share {share:.3f}, rel_l2 {result['rel_l2']:.3g}")


if __name__ == "__main__":
    main()
