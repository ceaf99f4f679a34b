#!/usr/bin/env python3
"""Checks what amp-convert-onnx promises of a converted model:

    check_graph.py ORIGINAL.onnx CONVERTED.onnx

- onnx.checker with full_check, and strict shape inference, pass;
- every node of the original is there, in order, with its name, op type
  and attributes (only a Cast's `to` may change);
- no Cast reads a Cast added by amp, no Cast casts to its input's type
  (unless it did so in the original);
- every intermediate value has its type in value_info;
- no float initializer is stored twice unless both copies are read.
Prints "ok: N nodes, C casts added" or the first broken promise (exit 1).
"""

import sys

import onnx
from onnx import shape_inference


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def main():
    original = onnx.load(sys.argv[1])
    converted = onnx.load(sys.argv[2])
    onnx.checker.check_model(converted, full_check=True)
    shape_inference.infer_shapes(converted, check_type=True, strict_mode=True)
    g = converted.graph

    added = [n for n in g.node if n.name.startswith("amp_cast_")]
    kept = [n for n in g.node if not n.name.startswith("amp_cast_")]
    if len(kept) != len(original.graph.node):
        fail(f"{len(original.graph.node)} nodes in, {len(kept)} kept")
    for a, b in zip(original.graph.node, kept):
        if (a.name, a.op_type, a.domain) != (b.name, b.op_type, b.domain):
            fail(f"node {a.name} ({a.op_type}) became {b.name} ({b.op_type})")
        attrs_a = {x.name: x for x in a.attribute if not (
            a.op_type == "Cast" and x.name == "to")}
        attrs_b = {x.name: x for x in b.attribute if not (
            b.op_type == "Cast" and x.name == "to")}
        if attrs_a != attrs_b:
            fail(f"node {a.name}: attributes changed")
    if [o.domain for o in original.opset_import] != \
            [o.domain for o in converted.opset_import]:
        fail("opset imports changed")
    if original.metadata_props != converted.metadata_props:
        fail("metadata changed")

    # A Cast that is an identity in the original stays one; only Casts the
    # conversion made identities are findings.
    inferred = shape_inference.infer_shapes(original)
    original_types = {
        info.name: info.type.tensor_type.elem_type
        for info in list(inferred.graph.input) + list(inferred.graph.value_info)
        + list(inferred.graph.output)}
    types = {}
    for info in list(g.input) + list(g.value_info) + list(g.output):
        types[info.name] = info.type.tensor_type.elem_type
    for init in g.initializer:
        types[init.name] = init.data_type
    producers = {}
    for node in g.node:
        for out in node.output:
            if not out:
                continue  # an optional output left out
            producers[out] = node
            if out not in types:
                fail(f"value {out} has no type in value_info")
        if node.op_type != "Cast":
            continue
        to = [a.i for a in node.attribute if a.name == "to"][0]
        if types.get(node.input[0]) == to and (
                node.name.startswith("amp_cast_") or
                original_types.get(node.input[0]) != to):
            fail(f"Cast {node.name} casts to its input's type")
        src = producers.get(node.input[0])
        if src is not None and src.op_type == "Cast" and (
                node.name.startswith("amp_cast_") or
                src.name.startswith("amp_cast_")):
            fail(f"Cast chain: {src.name} -> {node.name}")

    read = {i for n in g.node for i in n.input} | {o.name for o in g.output}
    for init in g.initializer:
        if init.name not in read:
            fail(f"initializer {init.name} is not read")
    print(f"ok: {len(kept)} nodes, {len(added)} casts added")


if __name__ == "__main__":
    main()
