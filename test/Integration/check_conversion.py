#!/usr/bin/env python3
"""Converts models with amp-opt --amp-mixed-precision and checks the result.

For each model and target type it checks that:
  1. the conversion succeeds and its output parses and verifies again;
  2. a second run changes nothing;
  3. function signatures are unchanged;
  4. every linalg/TOSA convolution and matmul takes 16-bit inputs and
     accumulates in f32 (and the pass reports it converted);
  5. no cast chain: no cast whose operand is an inverse cast;
  6. weights (float constants of rank >= 2) read by a convolution or matmul
     are 16-bit;
  7. exp, log, pow, rsqrt, erf, reciprocal and sum reductions are FP32.

Usage: check_conversion.py --amp-opt PATH --target f16 MODEL.mlir...
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

GREEN_LINALG = re.compile(
    r"linalg\.(matmul|batch_matmul|batch_reduce_matmul|matvec|vecmat|dot|"
    r"contract|conv_\w+|depthwise_conv_\w+)\b")
GREEN_TOSA = re.compile(
    r"tosa\.(conv2d|conv3d|depthwise_conv2d|transpose_conv2d|matmul)\b")
RED = re.compile(
    r"\b(math\.(exp|exp2|expm1|log|log2|log10|log1p|powf|fpowi|rsqrt|erf)|"
    r"tosa\.(exp|log|pow|rsqrt|erf|reciprocal|reduce_sum))\b")
CAST = re.compile(
    r"(%[\w#]+) = (arith\.truncf|arith\.extf|tosa\.cast) (%[\w#]+)\b.*?"
    r"(tensor<[^>]*>|f16|bf16|f32)\s*(?:to|\)\s*->)\s*(tensor<[^>]*>|f16|bf16|f32)")
FUNC = re.compile(r"func\.func (?:(?:public|private) )?(@[\w.$]+)(\(.*?\))?"
                  r"( -> .*?)?(?: attributes .*)? \{$")
CONST = re.compile(r"(%[\w#]+) = (?:arith\.constant|\"tosa\.const\"\(\)).*"
                   r": (?:\(\) -> )?tensor<((?:\d+x){2,}|(?:\?x){2,}[\dx?]*)f32>")


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def elem(t):
    t = t.strip()
    m = re.match(r"tensor<(?:[\d?]+x)*(\w+)>", t)
    return m.group(1) if m else t


def functions(text):
    """Splits a module into (name, signature, body lines) per func.func."""
    result, current = [], None
    for line in text.splitlines():
        m = FUNC.search(line.strip())
        if m:
            current = [m.group(1), (m.group(2) or "") + (m.group(3) or ""), []]
            result.append(current)
        elif current is not None:
            current[2].append(line)
    return result


def check_model(amp_opt, model, target):
    errors = []
    low = target
    with tempfile.TemporaryDirectory() as tmp:
        out1 = os.path.join(tmp, "once.mlir")
        out2 = os.path.join(tmp, "twice.mlir")
        orig = os.path.join(tmp, "orig.mlir")
        report = os.path.join(tmp, "report.json")
        opts = f"target-type={target}"
        r = run([amp_opt, model, "-o", orig])
        if r.returncode:
            return [f"cannot parse the input: {r.stderr.strip()}"]
        r = run([amp_opt, model, f"--amp-mixed-precision={opts} report={report}",
                 "-o", out1])
        if r.returncode:
            return [f"conversion failed: {r.stderr.strip()}"]
        r = run([amp_opt, out1, f"--amp-mixed-precision={opts}", "-o", out2])
        if r.returncode:
            return [f"the converted module does not convert again: {r.stderr.strip()}"]
        converted = open(out1).read()
        if open(out2).read() != converted:
            errors.append("a second run changed the IR")
        r = run([amp_opt, out1, "--verify-each", "-o", os.devnull])
        if r.returncode:
            errors.append(f"the converted module does not verify: {r.stderr.strip()}")

        before = {n: s for n, s, _ in functions(open(orig).read())}
        after_funcs = functions(converted)
        for name, sig, _ in after_funcs:
            if before.get(name) != sig:
                errors.append(f"signature of {name} changed: {before.get(name)} -> {sig}")

        rep = json.load(open(report))
        for op in rep["ops"]:
            if op["color"] == "green" and not op["converted"]:
                errors.append(f"green {op['op']} at {op['loc']} not converted "
                              f"({op['reason']})")

        for name, _, body in after_funcs:
            casts = {}
            green_operands = set()
            big_f32_consts = {}
            for line in body:
                s = line.strip()
                for m in CAST.finditer(s):
                    casts[m.group(1)] = (m.group(3), elem(m.group(4)), elem(m.group(5)))
                c = CONST.search(s)
                if c:
                    big_f32_consts[c.group(1)] = s[:120]
                if GREEN_LINALG.search(s) and " ins(" in s:
                    ins = re.search(r"ins\(([^:]*):([^)]*)\)", s)
                    outs = re.search(r"outs\(([^:]*):([^)]*)\)", s)
                    if ins and outs:
                        green_operands.update(v.strip() for v in ins.group(1).split(","))
                        types = [elem(t) for t in ins.group(2).split(",")]
                        if any(t != low for t in types if t in ("f32", "f16", "bf16")):
                            errors.append(f"{name}: green op with inputs {types}: {s[:160]}")
                        if elem(outs.group(2)) not in ("f32",):
                            errors.append(f"{name}: green op accumulates in "
                                          f"{elem(outs.group(2))}: {s[:160]}")
                m = GREEN_TOSA.search(s)
                if m and "->" in s and "=" in s:
                    operands = re.search(r"tosa\.\w+ ([^{:]*)", s).group(1)
                    green_operands.update(v.strip() for v in operands.split(","))
                    sig = s[s.rindex(": (") + 3:]
                    in_types = [elem(t) for t in re.findall(r"tensor<[^>]*>", sig.split("->")[0])]
                    if any(t not in (low,) for t in in_types):
                        errors.append(f"{name}: green TOSA op with inputs {in_types}: {s[:160]}")
                    acc = re.search(r"acc_type = (\w+)", s)
                    if acc and acc.group(1) != "f32":
                        errors.append(f"{name}: TOSA acc_type {acc.group(1)}: {s[:160]}")
                if RED.search(s) and re.search(r"\b(b?f16)\b", s):
                    errors.append(f"{name}: red op in 16 bits: {s[:160]}")
            for res, (src, frm, to) in casts.items():
                if src in casts:
                    _, frm2, to2 = casts[src]
                    if frm2 == to and to2 == frm:
                        errors.append(f"{name}: cast chain {src} -> {res} ({frm2}->{to2}->{to})")
            for const, text in big_f32_consts.items():
                if const in green_operands:
                    errors.append(f"{name}: FP32 weight read by a green op: {text}")
        totals = rep["totals"]
        summary = (f"green {totals['green']}, gray low {totals['gray_low']}/"
                   f"{totals['gray']}, red {totals['red']}, casts "
                   f"{totals['casts_inserted']}, constants "
                   f"{totals['constant_bytes_before']} -> "
                   f"{totals['constant_bytes_after']} bytes")
    return errors, summary


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--amp-opt", required=True)
    parser.add_argument("--target", required=True, choices=["f16", "bf16"])
    parser.add_argument("models", nargs="+")
    args = parser.parse_args()
    failed = False
    for model in args.models:
        result = check_model(args.amp_opt, model, args.target)
        if isinstance(result, list):
            errors, summary = result, ""
        else:
            errors, summary = result
        name = os.path.basename(model)
        if errors:
            failed = True
            print(f"FAIL {name} ({args.target})")
            for e in errors[:20]:
                print(f"  {e}")
        else:
            print(f"ok {name} ({args.target}): {summary}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
