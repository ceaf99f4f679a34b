#!/usr/bin/env python3
"""Checks a cost ratio measured in one run by amp-compile-bench: the CPU time
of the pipeline in PASS.json over parse+print in PRINT.json (both of the same
model) must be at most --max. Prints the ratio either way.

Usage: cost-ratio.py PRINT.json PASS.json --max 3
"""
import argparse
import json
import sys

parser = argparse.ArgumentParser()
parser.add_argument("print_json")
parser.add_argument("pass_json")
parser.add_argument("--max", type=float, required=True)
args = parser.parse_args()
with open(args.print_json) as f:
    printed = json.load(f)
with open(args.pass_json) as f:
    passed = json.load(f)
baseline = printed["parse_cpu_s"] + printed["print_cpu_s"]
ratio = passed["pass_cpu_s"] / max(baseline, 1e-9)
verdict = "ok" if ratio <= args.max else "too slow"
print(f"{passed['ops']} ops: pass {passed['pass_cpu_s']:.3f} s, parse+print "
      f"{baseline:.3f} s, ratio {ratio:.2f} (at most {args.max:g}): {verdict}")
sys.exit(0 if ratio <= args.max else 1)
