#!/usr/bin/env python3
"""Prints an ONNX graph as text for FileCheck, one line per item:

    input x: float32 [2, 16]
    init w1: float16 [32, 16]
    node Gemm fc1: x_f16:float16, w1:float16, b1:float16 -> h:float16
    output y: float32 [2, 10]

Types come from the graph's inputs, initializers, value_info and outputs
(the exporter fills value_info for every intermediate value).
"""

import sys

import onnx
from onnx import TensorProto

NAMES = {TensorProto.FLOAT: "float32", TensorProto.FLOAT16: "float16",
         TensorProto.BFLOAT16: "bfloat16", TensorProto.INT64: "int64",
         TensorProto.INT32: "int32", TensorProto.BOOL: "bool"}


def main():
    model = onnx.load(sys.argv[1])
    g = model.graph
    types = {}
    for info in list(g.input) + list(g.value_info) + list(g.output):
        types[info.name] = NAMES.get(info.type.tensor_type.elem_type, "?")
    for init in g.initializer:
        types[init.name] = NAMES.get(init.data_type, "?")

    def shape(info):
        return [d.dim_value if d.HasField("dim_value") else d.dim_param
                for d in info.type.tensor_type.shape.dim]

    inits = {i.name for i in g.initializer}
    for info in g.input:
        if info.name not in inits:
            print(f"input {info.name}: {types[info.name]} {shape(info)}")
    for init in g.initializer:
        print(f"init {init.name}: {types[init.name]} {list(init.dims)}")
    for node in g.node:
        ins = ", ".join(f"{n}:{types.get(n, '?')}" for n in node.input)
        outs = ", ".join(f"{n}:{types.get(n, '?')}" for n in node.output)
        to = [a.i for a in node.attribute if a.name == "to"]
        extra = f" to={NAMES.get(to[0], to[0])}" if to else ""
        print(f"node {node.op_type} {node.name}{extra}: {ins} -> {outs}")
    for info in g.output:
        print(f"output {info.name}: {types[info.name]} {shape(info)}")
    for prop in model.metadata_props:
        print(f"metadata {prop.key}={prop.value}")
    print("opsets " + " ".join(f"{o.domain or 'ai.onnx'}:{o.version}"
                               for o in model.opset_import))


if __name__ == "__main__":
    main()
