#!/usr/bin/env python3
"""Checks an HTML report of amp-opt (or amp-tune) against what it must hold.

  check-html-report.py REPORT.html [--json REPORT.json] [--model MODEL.mlir]
                       [--tune TUNE.json]

- The page is self-contained: no address with a scheme, no src= or href=
  attribute, no @import, no url(); one data element and one script.
- The data element holds valid JSON with "report" and "graph".
- With --json: the embedded report is that JSON report, op for op (the HTML
  adds "types" and "source" to the ops), totals included.
- The graph: one layer entry per op, edges between existing nodes, every op
  found in the converted module ("unmatched" 0) and on at least one edge.
- With --model: every op's location points at that op in the model, and its
  "source" is that line.
- With --tune: the embedded "tune" is amp-tune's --json output.
Prints a one-line summary; exits 1 with a message on the first problem.
"""

import argparse
import json
import re
import sys


def fail(message):
    print("check-html-report: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("html")
    parser.add_argument("--json")
    parser.add_argument("--model")
    parser.add_argument("--tune")
    args = parser.parse_args()
    page = open(args.html, encoding="utf-8").read()

    if not page.startswith("<!DOCTYPE html>"):
        fail("the file does not start with <!DOCTYPE html>")
    external = re.search(r"(?i)\b(?:https?|ftp|wss?):|\bsrc\s*=|\bhref\s*=|@import|url\(|//[a-z0-9.-]+\.[a-z]{2,}/", page)
    if external:
        start = max(0, external.start() - 60)
        fail("a reference to something outside the file: ..." + page[start:external.end() + 60] + "...")

    data = re.findall(r'<script type="application/json" id="amp-report-data">(.*?)</script>', page, re.S)
    if len(data) != 1:
        fail("expected one data element, found %d" % len(data))
    scripts = re.findall(r"<script\b([^>]*)>", page)
    if len(scripts) != 2:
        fail("expected the data element and one script, found %d <script> elements" % len(scripts))
    try:
        doc = json.loads(data[0])
    except ValueError as err:
        fail("the embedded data is not valid JSON: %s" % err)
    report, graph = doc.get("report"), doc.get("graph")
    if not isinstance(report, dict) or not isinstance(graph, dict):
        fail("the document lacks \"report\" or \"graph\"")
    ops = report.get("ops", [])

    if args.json:
        expected = json.load(open(args.json))
        if len(expected["ops"]) != len(ops):
            fail("%d ops in the page, %d in the JSON report" % (len(ops), len(expected["ops"])))
        for i, (want, have) in enumerate(zip(expected["ops"], ops)):
            have = {k: v for k, v in have.items() if k not in ("types", "source")}
            if want != have:
                fail("op %d differs from the JSON report:\n  %s\n  %s" % (i, want, have))
        if expected["totals"] != report.get("totals"):
            fail("the totals differ from the JSON report")
        if expected.get("target") != report.get("target"):
            fail("the target type differs from the JSON report")

    nodes = len(ops) + len(graph.get("io", []))
    if len(graph.get("layer", [])) != len(ops):
        fail("graph.layer has %d entries for %d ops" % (len(graph.get("layer", [])), len(ops)))
    if graph.get("unmatched") != 0:
        fail("%s ops were not found in the converted module" % graph.get("unmatched"))
    on_edge = set()
    casts = 0
    for edge in graph.get("edges", []):
        if len(edge) != 4 or not all(isinstance(v, int) and 0 <= v < nodes for v in edge[:2]):
            fail("a malformed edge: %s" % edge)
        if edge[3]:
            casts += 1
            if not re.fullmatch(r"[a-z0-9A-Z]+(->[a-z0-9A-Z]+)+", edge[3]) or edge[2] <= 0:
                fail("a cast edge without types or bytes: %s" % edge)
        on_edge.update(edge[:2])
    lonely = [i for i in range(len(ops)) if i not in on_edge]
    if lonely:
        fail("ops on no edge: %s" % ", ".join(ops[i]["op"] + " at " + ops[i]["loc"] for i in lonely[:5]))
    layers = graph.get("layers", [])
    for value in graph["layer"]:
        if not (value == -1 or 0 <= value < len(layers)):
            fail("an op in a layer that does not exist: %s" % value)

    if args.model:
        lines = open(args.model, encoding="utf-8").read().split("\n")
        for op in ops:
            m = re.fullmatch(r"(.*):(\d+):(\d+)", op["loc"])
            if not m:
                fail("not a file location: %s" % op["loc"])
            line = lines[int(m.group(2)) - 1]
            at = line[int(m.group(3)) - 1:]
            if not (at.startswith(op["op"]) or at.startswith('"' + op["op"] + '"')):
                fail("%s does not point at %s: %r" % (op["loc"], op["op"], line))
            source = op.get("source", "")
            if not (source == line.strip() or (source.endswith("...") and line.strip().startswith(source[:-3]))):
                fail("the source of %s is %r, not the line %r" % (op["loc"], source, line.strip()))

    if args.tune:
        expected = json.load(open(args.tune))
        tune = doc.get("tune")
        if not isinstance(tune, dict):
            fail("the page has no \"tune\"")
        for key in ("tolerance", "candidates", "kept_fp32", "ops_16bit"):
            if tune.get(key) != expected.get(key):
                fail("tune.%s is %r, amp-tune --json says %r" % (key, tune.get(key), expected.get(key)))
        if [(o["op"], o["loc"], o["sensitivity"]) for o in tune["ops"]] != \
           [(o["op"], o["loc"], o["sensitivity"]) for o in expected["ops"]]:
            fail("tune.ops differ from amp-tune --json")

    print("OK: %d ops, %d io nodes, %d edges (%d through casts), %d layers" % (
        len(ops), nodes - len(ops), len(graph.get("edges", [])), casts, len(layers)))


if __name__ == "__main__":
    main()
