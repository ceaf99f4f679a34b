#!/usr/bin/env python3
"""Compile time and memory of --amp-mixed-precision at scale.

For each model family (gen_model.py: mlp, conv, transformer, and the shapes
of shapes.py: mlp-shared, shared-value, chain, fanout, funcs, nested) and
each size, writes the model once, then runs amp-compile-bench
(tools/amp-compile-bench) in separate processes:

  parse    parse + verify alone;
  print    parse + verify + print (to /dev/null): pass/print is the pass
           against parse+print, the yardstick of issue 43;
  pass     parse + verify + amp-mixed-precision + verify, on the module as
           `amp-opt --amp-mixed-precision` runs it;
  plan, fp8 (with --variants) the same with --amp-plan-precision, and with
           target-type=f8E4M3FN;
  canonicalize, cse
           the same with upstream's --canonicalize / --cse instead, the
           baselines the pass's cost is compared with (pass/canon).

Times are CPU seconds of the process (single-threaded MLIR context: the
machine may be shared, and CPU time does not count waiting). Each of
--repeat rounds runs every column once, one after the other; the best run of
each column is kept, and "paired pass/canon" is the median (and range) over
the rounds of the pass's time over canonicalize's in the same round, which a
drifting machine affects least. The peak RSS is the process's maximum
resident set (getrusage). The pass's own time is compared with parsing
(ratio pass/parse) and per op across sizes; its peak memory with that of
parsing alone.

Usage:
  bench/compile/run.py --build build [--sizes 1000,10000,100000,1000000]
                       [--families mlp,conv,transformer,mlp-shared,...]
                       [--variants plan,fp8] [--repeat 3]
                       [--work /tmp/amp-compile] [--markdown table.md]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The pass, and its other forms (--variants), as option lists; --pass-options
# adds to each (fold-constant-payloads=false for the pass of 10557cd).
FORMS = {
    "pass": ("amp-mixed-precision", ""),
    "plan": ("amp-plan-precision", ""),
    "fp8": ("amp-mixed-precision", "target-type=f8E4M3FN"),
}


def form_pipeline(form, extra):
    name, options = FORMS[form]
    options = " ".join(o for o in (options, extra) if o)
    return f"builtin.module({name}{{{options}}})" if options else \
        f"builtin.module({name})"


class TimedOut(Exception):
    pass
# Upstream passes on the same module, as baselines (one run, same process
# layout: parse, verify, pass, verify).
BASELINES = {
    "canonicalize": "builtin.module(canonicalize)",
    "cse": "builtin.module(cse)",
}
PRINT = "--print"


def generate(family, ops, path):
    if os.path.exists(path):
        return
    subprocess.run([sys.executable, os.path.join(HERE, "gen_model.py"),
                    "--family", family, "--ops", str(ops), "-o", path + ".tmp"],
                   check=True, stderr=subprocess.DEVNULL)
    os.replace(path + ".tmp", path)


TIMEOUT = [None]


def run_once(tool, model, pipeline):
    if pipeline == PRINT:
        cmd = [tool, model, PRINT]
    else:
        cmd = [tool, model] + (["--pipeline=" + pipeline] if pipeline else [])
    try:
        out = subprocess.run(cmd, check=True, capture_output=True, text=True,
                             timeout=TIMEOUT[0])
    except subprocess.TimeoutExpired:
        raise TimedOut()
    return json.loads(out.stdout)


def phase_time(result, pipeline):
    """The CPU seconds of the measured phase: the pipeline's, parse+print's,
    or the parse's."""
    if pipeline == PRINT:
        return result["parse_cpu_s"] + result["print_cpu_s"]
    return result["pass_cpu_s"] if pipeline else result["parse_cpu_s"]


def measure(tool, model, columns, repeat):
    """`repeat` rounds; each round runs every column once, one after the
    other, so that the machine's drift (a busy neighbour, frequency changes)
    falls on all columns alike. Per column, the best run is kept: the run
    whose measured phase took the least CPU time (the pipeline's when there
    is one, else the parse), so that a slow parse does not pick a slow pass
    run or the reverse. Also returns each round's times, for paired ratios."""
    best, rounds = {}, []
    for _ in range(repeat):
        times = {}
        for name, pipeline in columns.items():
            result = run_once(tool, model, pipeline)
            key = phase_time(result, pipeline)
            times[name] = key
            if name not in best or key < best[name][0]:
                best[name] = (key, result)
            # Peak memory does not depend on the run: keep the largest seen.
            best[name][1]["peak_rss_kb"] = max(best[name][1]["peak_rss_kb"],
                                               result["peak_rss_kb"])
        rounds.append(times)
    return {name: entry[1] for name, entry in best.items()}, rounds


def summarize(family, form, best, rounds):
    """One row of the table: the pass's form `form` against the baselines."""
    parse, full = best["parse"], best[form]
    ops = parse["ops"]
    parse_s = parse["parse_cpu_s"]
    print_s = best["print"]["parse_cpu_s"] + best["print"]["print_cpu_s"]
    pass_s = full["pass_cpu_s"]
    none = {"pass_cpu_s": float("nan")}
    canon_s = best.get("canonicalize", none)["pass_cpu_s"]
    # The pass against canonicalize within each round (run one after the
    # other): the median and the range over the rounds.
    paired = [r[form] / max(r.get("canonicalize", float("nan")), 1e-9)
              for r in rounds]
    row = {
        "family": family, "variant": form, "ops": ops,
        "ops_after": full["ops_after"], "parse_s": parse_s,
        "print_s": print_s, "pass_s": pass_s, "canonicalize_s": canon_s,
        "cse_s": best.get("cse", none)["pass_cpu_s"],
        "verify_after_s": full["verify_after_cpu_s"],
        "ratio": pass_s / parse_s, "print_ratio": pass_s / print_s,
        "canon_ratio": pass_s / max(canon_s, 1e-9),
        "pass_us_per_op": pass_s / ops * 1e6,
        "rss_parse_mb": parse["peak_rss_kb"] / 1024,
        "rss_pass_mb": full["peak_rss_kb"] / 1024,
        "paired_median": statistics.median(paired),
        "paired_min": min(paired), "paired_max": max(paired),
        "rounds": rounds,
    }
    row["rss_ratio"] = row["rss_pass_mb"] / row["rss_parse_mb"]
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--sizes", default="1000,10000,100000,1000000")
    parser.add_argument("--families", default="mlp,conv,transformer")
    parser.add_argument("--variants", default="",
                        help="also time these forms of the pass: plan, fp8")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per measurement below 1M ops")
    parser.add_argument("--repeat-large", type=int, default=1,
                        help="runs per measurement at 1M ops and more "
                             "(about 10 s each)")
    parser.add_argument("--tool", help="amp-compile-bench to run (default: "
                        "BUILD/bin/amp-compile-bench)")
    parser.add_argument("--pass-options", default="",
                        help="options added to every form of the pass")
    parser.add_argument("--no-baselines", action="store_true",
                        help="time parse and parse+print only beside the pass "
                             "(no canonicalize, cse)")
    parser.add_argument("--timeout", type=float,
                        help="seconds after which a run counts as timed out "
                             "(its row says so)")
    parser.add_argument("--work", default="/tmp/amp-compile-bench")
    parser.add_argument("--markdown", help="also write the table here")
    args = parser.parse_args()

    tool = args.tool or os.path.join(args.build, "bin", "amp-compile-bench")
    TIMEOUT[0] = args.timeout
    os.makedirs(args.work, exist_ok=True)
    variants = [v for v in args.variants.split(",") if v]
    header = ("| family | variant | ops | parse s | parse+print s | pass s | "
              "canonicalize s | cse s | pass/(parse+print) | pass/canon | "
              "paired pass/canon | pass µs/op | RSS parse MB | RSS pass MB | "
              "RSS ratio |")
    lines = [header, "|" + "---|" * (header.count("|") - 1)]
    print("\n".join(lines), flush=True)
    rows = []
    for family in args.families.split(","):
        for size in map(int, args.sizes.split(",")):
            model = os.path.join(args.work, f"{family}-{size}.mlir")
            generate(family, size, model)
            repeat = args.repeat if size < 1000000 else args.repeat_large
            forms = {f: form_pipeline(f, args.pass_options)
                     for f in ["pass", *variants]}
            baselines = {} if args.no_baselines else BASELINES
            columns = {"parse": None, "print": PRINT, **forms, **baselines}
            try:
                best, rounds = measure(tool, model, columns, repeat)
            except TimedOut:
                line = (f"| {family} | pass | ~{size} | timed out after "
                        f"{args.timeout:g} s |")
                lines.append(line)
                print(line, flush=True)
                rows.append({"family": family, "size": size,
                             "timed_out": args.timeout})
                continue
            for form in forms:
                row = summarize(family, form, best, rounds)
                rows.append(row)
                line = ("| {family} | {variant} | {ops} | {parse_s:.3f} | "
                        "{print_s:.3f} | {pass_s:.3f} | {canonicalize_s:.3f} | "
                        "{cse_s:.3f} | {print_ratio:.2f} | {canon_ratio:.2f} | "
                        "{paired_median:.2f} ({paired_min:.2f}-"
                        "{paired_max:.2f}) | {pass_us_per_op:.2f} | "
                        "{rss_parse_mb:.0f} | {rss_pass_mb:.0f} | "
                        "{rss_ratio:.2f} |").format(**row)
                lines.append(line)
                print(line, flush=True)
            if size >= 1000000:
                os.remove(model)  # ~100 MB each
    with open(os.path.join(args.work, "results.json"), "w") as f:
        json.dump(rows, f, indent=1)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
