#!/usr/bin/env python3
"""Writes the ONNX models of the amp-convert-onnx tests into OUTDIR.

    make_models.py OUTDIR [--large]

Weights are seeded random values. --large also writes large-mlp.onnx, an
MLP with 105 MB of weights.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)


def tensor(name, shape, scale=None):
    fan_in = shape[-1] if len(shape) > 1 else 1
    scale = scale if scale is not None else 1.0 / np.sqrt(fan_in)
    return numpy_helper.from_array(
        rng.uniform(-scale, scale, shape).astype(np.float32), name)


def vi(name, shape, dtype=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def save(out, name, nodes, inputs, outputs, inits, opset=13):
    graph = helper.make_graph(nodes, name.split(".")[0].replace("-", "_"),
                              inputs, outputs, inits)
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", opset)],
        producer_name="amp-tests")
    model.ir_version = 8
    model.metadata_props.add(key="origin", value="amp-convert-onnx tests")
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name))


def mlp(out):
    """Gemm, Relu, MatMul, Add, Softmax: the softmax stays FP32."""
    save(out, "mlp.onnx", [
        helper.make_node("Gemm", ["x", "w1", "b1"], ["h"], name="fc1", transB=1),
        helper.make_node("Relu", ["h"], ["r"], name="relu"),
        helper.make_node("MatMul", ["r", "w2"], ["m"], name="fc2"),
        helper.make_node("Add", ["m", "b2"], ["z"], name="bias2"),
        helper.make_node("Softmax", ["z"], ["y"], name="softmax", axis=1),
    ], [vi("x", [2, 16])], [vi("y", [2, 10])],
        [tensor("w1", [32, 16]), tensor("b1", [32]), tensor("w2", [32, 10]),
         tensor("b2", [10])])


def shared(out):
    """One weight read by a MatMul (16 bits) and by an Exp (FP32)."""
    save(out, "shared.onnx", [
        helper.make_node("MatMul", ["x", "w"], ["m"], name="mm"),
        helper.make_node("Exp", ["w"], ["e"], name="exp"),
        helper.make_node("ReduceSum", ["e"], ["s"], name="sum", keepdims=0),
        helper.make_node("Mul", ["m", "s"], ["y"], name="scale"),
    ], [vi("x", [4, 8])], [vi("y", [4, 8])], [tensor("w", [8, 8])])


def casts(out):
    """An integer input cast to float before a MatMul: the Cast is
    retargeted to float16, not followed by a second one."""
    save(out, "cast.onnx", [
        helper.make_node("Cast", ["ids"], ["f"], name="to_float",
                         to=TensorProto.FLOAT),
        helper.make_node("MatMul", ["f", "w"], ["m"], name="mm"),
        helper.make_node("Relu", ["m"], ["y"], name="relu"),
    ], [vi("ids", [4, 8], TensorProto.INT64)], [vi("y", [4, 16])],
        [tensor("w", [8, 16])])


def convnet(out):
    """Conv, BatchNormalization, Relu, a residual Add, GlobalAveragePool,
    Flatten and Gemm: a small torchvision-like CNN."""
    c = 16
    nodes = [
        helper.make_node("Conv", ["x", "w0", "b0"], ["c0"], name="conv0",
                         pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c0"], ["r0"], name="relu0"),
        helper.make_node("Conv", ["r0", "w1"], ["c1"], name="conv1",
                         pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization",
                         ["c1", "g1", "be1", "mu1", "var1"], ["n1"], name="bn1"),
        helper.make_node("Relu", ["n1"], ["r1"], name="relu1"),
        helper.make_node("Add", ["r1", "r0"], ["a"], name="residual"),
        helper.make_node("GlobalAveragePool", ["a"], ["p"], name="pool"),
        helper.make_node("Flatten", ["p"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "wf", "bf"], ["y"], name="fc",
                         transB=1),
    ]
    inits = [tensor("w0", [c, 3, 3, 3], 0.3), tensor("b0", [c]),
             tensor("w1", [c, c, 3, 3], 0.1),
             numpy_helper.from_array(
                 rng.uniform(0.5, 1.5, [c]).astype(np.float32), "g1"),
             tensor("be1", [c], 0.1), tensor("mu1", [c], 0.1),
             numpy_helper.from_array(
                 rng.uniform(0.5, 2.0, [c]).astype(np.float32), "var1"),
             tensor("wf", [10, c]), tensor("bf", [10])]
    save(out, "convnet.onnx", nodes, [vi("x", [1, 3, 32, 32])],
         [vi("y", [1, 10])], inits)


def layernorm(out):
    """MatMul, LayerNormalization (opset 17), MatMul."""
    save(out, "layernorm.onnx", [
        helper.make_node("MatMul", ["x", "w1"], ["m"], name="mm1"),
        helper.make_node("LayerNormalization", ["m", "gamma", "beta"], ["n"],
                         name="ln", axis=-1, epsilon=1e-5),
        helper.make_node("MatMul", ["n", "w2"], ["y"], name="mm2"),
    ], [vi("x", [8, 32])], [vi("y", [8, 32])],
        [tensor("w1", [32, 32]), tensor("gamma", [32], 1.0),
         tensor("beta", [32], 0.1), tensor("w2", [32, 32])], opset=17)


def opaque(out):
    """Det, which amp does not import, between two f16 MatMuls: it stays
    FP32 with Casts around it, and ORT runs it."""
    save(out, "opaque.onnx", [
        helper.make_node("MatMul", ["x", "w"], ["m"], name="mm"),
        helper.make_node("Det", ["m"], ["d"], name="det"),
        helper.make_node("Unsqueeze", ["d", "axes"], ["u"], name="unsqueeze"),
        helper.make_node("MatMul", ["u", "w2"], ["y"], name="mm2"),
    ], [vi("x", [2, 4, 4])], [vi("y", [2, 4])],
        [tensor("w", [4, 4], 1.0),
         numpy_helper.from_array(np.array([1], dtype=np.int64), "axes"),
         tensor("w2", [1, 4])])


def custom(out):
    """A node of another domain (no schema, its output declared in
    value_info) between two MatMuls."""
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["m"], name="mm"),
        helper.make_node("Scramble", ["m"], ["s"], name="scramble",
                         domain="com.example"),
        helper.make_node("MatMul", ["s", "w2"], ["y"], name="mm2"),
    ]
    graph = helper.make_graph(nodes, "custom", [vi("x", [4, 8])],
                              [vi("y", [4, 8])],
                              [tensor("w", [8, 8]), tensor("w2", [8, 8])],
                              value_info=[vi("s", [4, 8])])
    model = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 13), helper.make_opsetid("com.example", 1)],
        producer_name="amp-tests")
    model.ir_version = 8
    onnx.save(model, os.path.join(out, "custom.onnx"))


def identity(out):
    """A weight read through an Identity, as torch exports shared
    parameters: the Identity takes its reader's type, the weight is stored
    in f16, no Cast between them."""
    save(out, "identity.onnx", [
        helper.make_node("Identity", ["w"], ["w_shared"], name="share"),
        helper.make_node("MatMul", ["x", "w_shared"], ["y"], name="mm"),
    ], [vi("x", [4, 8])], [vi("y", [4, 8])], [tensor("w", [8, 8])])


def overflow(out):
    """A MatMul whose outputs reach about 1e5 on inputs in [0, 100), which
    no static range sees (x is a graph input), then a MatMul that brings
    them back down: in f16 the first overflows, unless the plan measures
    it (--inputs)."""
    save(out, "overflow.onnx", [
        helper.make_node("MatMul", ["x", "w"], ["m"], name="big"),
        helper.make_node("Relu", ["m"], ["r"], name="relu"),
        helper.make_node("MatMul", ["r", "w2"], ["y"], name="down"),
    ], [vi("x", [8, 64])], [vi("y", [8, 16])],
        [numpy_helper.from_array(
            rng.uniform(0, 60, [64, 64]).astype(np.float32), "w"),
         tensor("w2", [64, 16], 1e-4)])


def large(out):
    """Four 2560x2560 layers: 105 MB of FP32 weights."""
    n = 2560
    nodes, inits, value = [], [], "x"
    for i in range(4):
        nodes += [helper.make_node("MatMul", [value, f"w{i}"], [f"m{i}"],
                                   name=f"fc{i}"),
                  helper.make_node("Add", [f"m{i}", f"b{i}"], [f"a{i}"],
                                   name=f"bias{i}"),
                  helper.make_node("Relu", [f"a{i}"], [f"r{i}"],
                                   name=f"relu{i}")]
        inits += [tensor(f"w{i}", [n, n]), tensor(f"b{i}", [n])]
        value = f"r{i}"
    nodes.append(helper.make_node("Softmax", [value], ["y"], name="softmax",
                                  axis=1))
    save(out, "large-mlp.onnx", nodes, [vi("x", [4, n])], [vi("y", [4, n])],
         inits)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for make in (mlp, shared, casts, convnet, layernorm, opaque, custom,
                 identity, overflow):
        make(out)
    if "--large" in sys.argv:
        large(out)


if __name__ == "__main__":
    main()
