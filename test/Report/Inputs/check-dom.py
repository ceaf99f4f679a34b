#!/usr/bin/env python3
"""Checks the DOM of the report after its script ran (chromium --dump-dom).

  check-dom.py DOM.html [--hits N] [--selected OP] [--min-nodes N]
                        [--max-nodes N]

- the script finished (<body data-ready="true">);
- at least --min-nodes op or layer nodes are drawn in the graph, and no
  more than --max-nodes nodes in all (the page draws what is in the window);
- with --hits: the search from the address (#search=...) found N ops, and
  lists them;
- with --selected: the first hit, OP, is selected: its details are shown and
  its node is drawn highlighted.
Prints what it found; exits 1 with a message on the first problem.
"""

import argparse
import re
import sys


def fail(message):
    print("check-dom: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dom")
    parser.add_argument("--hits", type=int)
    parser.add_argument("--selected")
    parser.add_argument("--min-nodes", type=int, default=1)
    parser.add_argument("--max-nodes", type=int)
    args = parser.parse_args()
    dom = open(args.dom, encoding="utf-8").read()
    body = re.search(r"<body([^>]*)>", dom)
    if not body or 'data-ready="true"' not in body.group(1):
        fail("the page's script did not finish (no data-ready on <body>)")
    nodes = re.findall(r'<g class="node ([^"]*)" data-k="\d+"', dom)
    drawn = [n for n in nodes if n.split()[0] in ("op", "layer")]
    if len(drawn) < args.min_nodes:
        fail("%d op or layer nodes drawn, expected at least %d" % (len(drawn), args.min_nodes))
    if args.max_nodes is not None and len(nodes) > args.max_nodes:
        fail("%d nodes drawn, expected at most %d" % (len(nodes), args.max_nodes))
    summary = "%d nodes drawn" % len(nodes)
    if args.hits is not None:
        hits = re.search(r'data-search-hits="(\d+)"', body.group(1))
        if not hits or int(hits.group(1)) != args.hits:
            fail("the search found %s ops, expected %d" % (hits.group(1) if hits else "no", args.hits))
        results = re.search(r'<ol id="search-results">(.*?)</ol>', dom, re.S)
        listed = re.findall(r"<li data-node=", results.group(1) if results else "")
        if len(listed) != min(args.hits, 200):
            fail("%d search results listed, expected %d" % (len(listed), min(args.hits, 200)))
        summary += ", %d search hits" % args.hits
    if args.selected:
        details = re.search(r'<section id="details"><h3>(.*?)</h3>', dom, re.S)
        if not details or details.group(1) != args.selected:
            fail("the details show %r, expected %r" % (details.group(1) if details else None, args.selected))
        if not any(" sel" in n for n in nodes):
            fail("no node is drawn selected")
        summary += ", selected " + args.selected
    print("OK: " + summary)


if __name__ == "__main__":
    main()
