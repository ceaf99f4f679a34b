#!/usr/bin/env python3
"""Writes the models of the dynamic-dimension tests into OUTDIR.

    make_dynamic_models.py OUTDIR

Models whose inputs have a symbolic batch dimension ('N'), imported without
--shape, and for each diagnostic about dynamic dimensions a model that
triggers it. Also writes inputs (batch 3) for the positive models.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)


def tensor(name, shape):
    return numpy_helper.from_array(
        rng.uniform(-1, 1, shape).astype(np.float32), name)


def ints(name, values):
    return numpy_helper.from_array(np.array(values, np.int64), name)


def model(nodes, inputs, outputs, inits=(), opset=13, name="g"):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="amp-tests")
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def vi(name, shape, dtype=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def node(op, inputs, outputs, **attrs):
    return helper.make_node(op, inputs, outputs, name=outputs[0], **attrs)


def main(out):
    os.makedirs(out, exist_ok=True)

    def save(m, name):
        onnx.save(m, os.path.join(out, name))

    # A CNN with a symbolic batch: Conv (plain, depthwise, grouped),
    # BatchNormalization, Relu, Concat over channels, MaxPool, AveragePool,
    # GlobalAveragePool, a squeeze-and-excitation Mul, Flatten, Gemm, Div,
    # Softmax.
    cnn = model(
        [node("Conv", ["x", "w1", "b1"], ["c"], kernel_shape=[3, 3],
              pads=[1, 1, 1, 1]),
         node("BatchNormalization", ["c", "s", "bb", "m", "v"], ["n"]),
         node("Relu", ["n"], ["r"]),
         node("Conv", ["r", "wd"], ["d"], kernel_shape=[3, 3],
              pads=[1, 1, 1, 1], group=8),
         node("Conv", ["d", "wg"], ["g"], kernel_shape=[1, 1], group=2),
         node("Concat", ["r", "g"], ["cat"], axis=1),
         node("MaxPool", ["cat"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
         node("AveragePool", ["p"], ["ap"], kernel_shape=[2, 2]),
         node("GlobalAveragePool", ["ap"], ["gp"]),
         node("Sigmoid", ["gp"], ["sg"]),
         node("Mul", ["ap", "sg"], ["se"]),
         node("Flatten", ["se"], ["f"]),
         node("Gemm", ["f", "wf", "bf"], ["z"], transB=1),
         node("Div", ["z", "two"], ["dz"]),
         node("Softmax", ["dz"], ["y"], axis=-1)],
        [vi("x", ["N", 3, 8, 8])], [vi("y", ["N", 10])],
        [tensor("w1", [8, 3, 3, 3]), tensor("b1", [8]),
         numpy_helper.from_array(np.ones(8, np.float32), "s"),
         tensor("bb", [8]), tensor("m", [8]),
         numpy_helper.from_array(np.full(8, 0.5, np.float32), "v"),
         tensor("wd", [8, 1, 3, 3]), tensor("wg", [8, 4, 1, 1]),
         tensor("wf", [10, 144]), tensor("bf", [10]),
         numpy_helper.from_array(np.array([2.0], np.float32), "two")],
        name="cnn")
    save(cnn, "cnn-batch.onnx")
    np.save(os.path.join(out, "cnn-input.npy"),
            rng.uniform(-1, 1, [3, 3, 8, 8]).astype(np.float32))

    # Attention with a symbolic batch: MatMul with a weight and between two
    # batched operands, Transpose, Softmax, a residual Add,
    # LayerNormalization, Unsqueeze/Squeeze, ReduceMean, Tanh.
    attn = model(
        [node("MatMul", ["x", "wq"], ["q"]),
         node("MatMul", ["x", "wk"], ["k"]),
         node("MatMul", ["x", "wv"], ["v"]),
         node("Transpose", ["k"], ["kt"], perm=[0, 2, 1]),
         node("MatMul", ["q", "kt"], ["s"]),
         node("Softmax", ["s"], ["a"], axis=-1),
         node("MatMul", ["a", "v"], ["o"]),
         node("Add", ["o", "x"], ["res"]),
         node("LayerNormalization", ["res", "gamma", "beta"], ["ln"], axis=-1),
         node("Unsqueeze", ["ln", "ax1"], ["u"]),
         node("Squeeze", ["u", "ax1"], ["sq"]),
         node("ReduceMean", ["sq"], ["rm"], axes=[1], keepdims=0),
         node("Tanh", ["rm"], ["y"])],
        [vi("x", ["N", 4, 8])], [vi("y", ["N", 8])],
        [tensor("wq", [8, 8]), tensor("wk", [8, 8]), tensor("wv", [8, 8]),
         tensor("gamma", [8]), tensor("beta", [8]), ints("ax1", [1])],
        opset=17, name="attn")
    save(attn, "attn-batch.onnx")
    np.save(os.path.join(out, "attn-input.npy"),
            rng.uniform(-1, 1, [3, 4, 8]).astype(np.float32))

    # One model per diagnostic.
    errors = {
        # An op imported only with static shapes.
        "reshape": model(
            [node("Reshape", ["x", "shape"], ["y"])],
            [vi("x", ["N", 4, 4])], [vi("y", ["N", 16])],
            [ints("shape", [0, 16])]),
        # Two different symbolic dimensions.
        "two-symbols": model(
            [node("Relu", ["x"], ["y"])],
            [vi("x", ["batch", "seq", 8])], [vi("y", ["batch", "seq", 8])]),
        # The same symbol twice in one tensor.
        "two-dynamic": model(
            [node("Relu", ["x"], ["y"])],
            [vi("x", ["N", "N"])], [vi("y", ["N", "N"])]),
        # Flatten merging the batch with another dimension.
        "flatten-merge": model(
            [node("Flatten", ["x"], ["y"], axis=2)],
            [vi("x", ["N", 4, 4])], [vi("y", [None, 4])]),
        "concat-axis": model(
            [node("Concat", ["x", "x"], ["y"], axis=0)],
            [vi("x", ["N", 4])], [vi("y", [None, 4])]),
        "reduce-batch": model(
            [node("ReduceSum", ["x", "axes"], ["y"], keepdims=1)],
            [vi("x", ["N", 4])], [vi("y", [1, 4])], [ints("axes", [0])]),
        "squeeze-batch": model(
            [node("Squeeze", ["x", "axes"], ["y"])],
            [vi("x", ["N", 4])], [vi("y", [4])], [ints("axes", [0])]),
        "matmul-contraction": model(
            [node("MatMul", ["a", "b"], ["y"])],
            [vi("a", [4, "N"]), vi("b", ["N", 3])], [vi("y", [4, 3])]),
        "matmul-broadcast": model(
            [node("MatMul", ["x", "w"], ["y"])],
            [vi("x", ["N", 2, 4, 8])], [vi("y", ["N", 2, 4, 3])],
            [tensor("w", [2, 8, 3])]),
        "gemm-two-dynamic": model(
            [node("Gemm", ["a", "b"], ["y"])],
            [vi("a", ["N", 8]), vi("b", [8, "N"])], [vi("y", ["N", "N"])]),
        "matmul-two-dynamic": model(
            [node("MatMul", ["x", "b"], ["y"])],
            [vi("x", ["N", 4, 8]), vi("b", [8, "N"])],
            [vi("y", ["N", 4, "N"])]),
        "gemm-contraction": model(
            [node("Gemm", ["a", "b"], ["y"])],
            [vi("a", [4, "N"]), vi("b", ["N", 3])], [vi("y", [4, 3])]),
        "conv-weight": model(
            [node("Conv", ["x", "w"], ["y"], kernel_shape=[3, 3])],
            [vi("x", [1, 3, 8, 8]), vi("w", ["N", 3, 3, 3])],
            [vi("y", [1, "N", 6, 6])]),
        "batchnorm-param": model(
            [node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"])],
            [vi("x", [1, 4, 4]), vi("s", ["N"])], [vi("y", [1, 4, 4])],
            [tensor("b", [4]), tensor("m", [4]),
             numpy_helper.from_array(np.ones(4, np.float32), "v")]),
        "conv-spatial": model(
            [node("Conv", ["x", "w"], ["y"], kernel_shape=[3, 3])],
            [vi("x", [1, 3, "N", 8])], [vi("y", [1, 4, None, 6])],
            [tensor("w", [4, 3, 3, 3])]),
        "pool-channel": model(
            [node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2])],
            [vi("x", [1, "N", 8, 8])], [vi("y", [1, "N", 7, 7])]),
        "global-pool-spatial": model(
            [node("GlobalAveragePool", ["x"], ["y"])],
            [vi("x", [1, 3, "N", 8])], [vi("y", [1, 3, 1, 1])]),
        "batchnorm-channel": model(
            [node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"])],
            [vi("x", [1, "N", 4]), vi("s", ["N"]), vi("b", ["N"]),
             vi("m", ["N"]), vi("v", ["N"])], [vi("y", [1, "N", 4])]),
        "layernorm-batch": model(
            [node("LayerNormalization", ["x", "g"], ["y"], axis=0)],
            [vi("x", ["N", 4])], [vi("y", ["N", 4])], [tensor("g", [4])],
            opset=17),
        "softmax11-batch": model(
            [node("Softmax", ["x"], ["y"], axis=0)],
            [vi("x", ["N", 4])], [vi("y", ["N", 4])], opset=11),
        "dropout-mask": model(
            [node("Dropout", ["x"], ["y", "mask"])],
            [vi("x", ["N", 4])],
            [vi("y", ["N", 4]), vi("mask", ["N", 4], TensorProto.BOOL)]),
    }
    for name, m in errors.items():
        save(m, f"{name}.onnx")


if __name__ == "__main__":
    main(sys.argv[1])
