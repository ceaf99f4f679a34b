#!/usr/bin/env python3
"""Replays the recorded test/GPU suite on a GPU host (bench/gpu/device-run.sh).

Each case folder (written by test/GPU/Inputs/run-vs-cpu.sh under
`lit --param gpu_record=DIR`) holds a GPU program, the FP32 CPU reference
outputs, the outputs recorded where it was built (amp's PTX emulator when
that machine has no GPU) and a `case` file: `chip=... precision=...
max_rel_l2=... [min_cosine=...]` (test/GPU/Inputs/run-fp8-vs-cpu.sh too).
Every case runs on the GPU with the seed of the test (7)
and passes when its outputs match the CPU reference within the test's
bound, as the lit test checks. The distance to the recorded (emulated)
outputs is reported beside it: the emulator and the GPU run the same PTX,
so any difference beyond summation order is a bug in one of them.

  replay_tests.py DIR/tests --compare scripts/amp-compare.py
                  [--capability 9.0] [--work W] [--markdown F] [--json F]
                  [--runner CMD]

--runner puts a command before each program: `--runner build/bin/amp-emulate`
replays the bundle on the emulator, which checks the replay itself without a
GPU (test/GPU/replay.test).

Exit status 1 if a case failed or could not run.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile


def read_case(path):
    fields = {}
    with open(path) as f:
        for token in f.read().split():
            key, _, value = token.partition("=")
            fields[key] = value
    return fields


def compare(tool, ref, test, bound, json_path, min_cosine=None):
    """Runs amp-compare; returns (matched, metrics of the first output)."""
    cmd = [sys.executable, tool, ref, test, "--json", json_path]
    if bound is None:
        cmd += ["--max-rel-l2", "1e30", "--min-cosine", "-2"]
    else:
        cmd += ["--max-rel-l2", str(bound)]
        if min_cosine is not None:
            cmd += ["--min-cosine", str(min_cosine)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    metrics = {}
    try:
        with open(json_path) as f:
            data = json.load(f)
        # The worst output decides.
        metrics = max(data, key=lambda d: d.get("rel_l2", 0.0)) if data else {}
    except (OSError, ValueError):
        pass
    return proc.returncode == 0, metrics, (proc.stdout + proc.stderr).strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tests")
    parser.add_argument("--compare", required=True,
                        help="scripts/amp-compare.py")
    parser.add_argument("--capability", default="unknown",
                        help="compute capability of the GPU (9.0)")
    parser.add_argument("--work", default=None)
    parser.add_argument("--markdown", default=None)
    parser.add_argument("--json", default=None)
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--runner", default=None,
                        help="command to run each program with")
    args = parser.parse_args()

    cases_dir = os.path.join(args.tests, "cases")
    if not os.path.isdir(cases_dir):
        print("replay: no recorded cases in %s" % args.tests, file=sys.stderr)
        return 1
    work = args.work or tempfile.mkdtemp(prefix="amp-replay.")
    os.makedirs(work, exist_ok=True)
    hopper = args.capability.startswith("9.")
    results = []
    for name in sorted(os.listdir(cases_dir)):
        case = os.path.join(cases_dir, name)
        fields = read_case(os.path.join(case, "case"))
        result = {"case": name, "chip": fields.get("chip"),
                  "precision": fields.get("precision"),
                  "max_rel_l2": float(fields.get("max_rel_l2", "0"))}
        if fields.get("chip") == "sm_90a" and not hopper:
            result["status"] = "unsupported"
            result["why"] = "sm_90a program on a GPU of capability %s" % (
                args.capability)
            results.append(result)
            print("UNSUPPORTED %s (%s)" % (name, result["why"]))
            continue
        outputs = os.path.join(work, name)
        os.makedirs(outputs, exist_ok=True)
        cmd = ([args.runner] if args.runner else []) + [
            os.path.join(case, "model"), "--iters", "1", "--warmup", "1",
            "--seed", "7", "--quiet", "--outputs", outputs]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True,
                                  timeout=args.timeout)
            ran = proc.returncode == 0
            log = (proc.stdout + proc.stderr).strip()
        except subprocess.TimeoutExpired:
            ran, log = False, "timed out after %d s" % args.timeout
        if not ran:
            result["status"] = "fail"
            result["why"] = "the program failed: " + log[-400:]
            results.append(result)
            print("FAIL %s: %s" % (name, result["why"]))
            continue
        matched, vs_cpu, text = compare(
            args.compare, os.path.join(case, "reference"), outputs,
            result["max_rel_l2"], os.path.join(work, name + ".cpu.json"),
            fields.get("min_cosine"))
        result["vs_cpu"] = vs_cpu
        recorded = os.path.join(case, "recorded")
        if os.path.isdir(recorded):
            _, vs_emulator, _ = compare(
                args.compare, recorded, outputs, None,
                os.path.join(work, name + ".emulator.json"))
            result["vs_recorded"] = vs_emulator
        result["status"] = "pass" if matched else "fail"
        if not matched:
            result["why"] = text[-400:]
        results.append(result)
        print("%s %s: rel L2 vs CPU %.3g (bound %g), vs recorded %.3g" % (
            "PASS" if matched else "FAIL", name,
            vs_cpu.get("rel_l2", float("nan")), result["max_rel_l2"],
            result.get("vs_recorded", {}).get("rel_l2", float("nan"))))

    counts = {s: sum(r["status"] == s for r in results)
              for s in ("pass", "fail", "unsupported")}
    print("replay: %d passed, %d failed, %d unsupported" % (
        counts["pass"], counts["fail"], counts["unsupported"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"capability": args.capability, "counts": counts,
                       "cases": results}, f, indent=1)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("# test/GPU on the device (replayed)\n\n")
            f.write("%d passed, %d failed, %d unsupported; GPU capability "
                    "%s.\n\n" % (counts["pass"], counts["fail"],
                                 counts["unsupported"], args.capability))
            f.write("| case | chip | precision | bound | rel L2 vs CPU | "
                    "cosine | result | rel L2 vs recorded | max abs vs "
                    "recorded |\n|---|---|---|---|---|---|---|---|---|\n")
            for r in results:
                cpu = r.get("vs_cpu", {})
                rec = r.get("vs_recorded", {})
                f.write("| %s | %s | %s | %g | %s | %s | %s | %s | %s |\n" % (
                    r["case"], r["chip"], r["precision"], r["max_rel_l2"],
                    "%.3g" % cpu["rel_l2"] if "rel_l2" in cpu else "-",
                    "%.6f" % cpu["cosine"] if "cosine" in cpu else "-",
                    r["status"] + (": " + r["why"].replace("|", "/")
                                   .replace("\n", " ")[:120]
                                   if r["status"] != "pass" else ""),
                    "%.3g" % rec["rel_l2"] if "rel_l2" in rec else "-",
                    "%.3g" % rec["max_abs"] if "max_abs" in rec else "-"))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
