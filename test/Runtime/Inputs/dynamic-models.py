"""Writes the dynamic-size ONNX models of test/Runtime/dynamic-models.test
with onnx.helper (seeded random weights):

  cnn.onnx          a ResNet-18-like block stack: conv-BN-ReLU, a basic
                    residual block, a strided conv, global average pooling
                    and a classifier; input x: [N, 3, 16, 16], N dynamic;
  transformer.onnx  a pre-norm transformer layer (one head, width 64):
                    LayerNorm, Q/K/V projections, softmax attention,
                    output projection, residual, LayerNorm, GELU FFN,
                    residual; input x: [N, 16, 64], N dynamic (a dynamic
                    sequence makes the scores [N, S, S], two dynamic
                    dimensions, which the importer's MatMul refuses).

  transformer-large.onnx  the same layer at width 384 (7 MB of weights).

Usage: dynamic-models.py OUT_DIR
"""
import os
import sys

import numpy as np
from onnx import TensorProto, checker, helper, numpy_helper, save

rng = np.random.default_rng(11)
inits, nodes = [], []


def weight(name, shape, scale=None):
    fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else shape[0]
    scale = scale if scale is not None else 1.0 / np.sqrt(fan_in)
    inits.append(numpy_helper.from_array(
        rng.uniform(-scale, scale, shape).astype(np.float32), name))
    return name


def const(name, values):
    inits.append(numpy_helper.from_array(np.asarray(values), name))
    return name


def node(op, ins, outs, **attrs):
    nodes.append(helper.make_node(op, ins, outs, **attrs))
    return outs[0]


def conv_bn(x, name, cin, cout, stride=1, relu=True):
    y = node("Conv", [x, weight(name + ".w", [cout, cin, 3, 3])],
             [name + ".conv"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
             strides=[stride, stride])
    bn = [weight(name + ".g", [cout], 0.5), weight(name + ".b", [cout], 0.1),
          weight(name + ".m", [cout], 0.1)]
    inits.append(numpy_helper.from_array(
        rng.uniform(0.5, 1.5, [cout]).astype(np.float32), name + ".v"))
    y = node("BatchNormalization", [y] + bn + [name + ".v"], [name + ".bn"],
             epsilon=1e-5)
    return node("Relu", [y], [name + ".relu"]) if relu else y


def cnn():
    x = "x"
    h = conv_bn(x, "stem", 3, 16)
    r = conv_bn(h, "b1a", 16, 16)
    r = conv_bn(r, "b1b", 16, 16, relu=False)
    h = node("Relu", [node("Add", [h, r], ["b1.add"])], ["b1.out"])
    h = conv_bn(h, "down", 16, 32, stride=2)
    h = node("GlobalAveragePool", [h], ["pool"])
    h = node("Flatten", [h], ["flat"], axis=1)
    y = node("Gemm", [h, weight("fc.w", [10, 32]), weight("fc.b", [10])],
             ["y"], transB=1)
    return helper.make_graph(
        nodes, "cnn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       ["N", 3, 16, 16])],
        [helper.make_tensor_value_info(y, TensorProto.FLOAT, ["N", 10])],
        inits)


def layer_norm(x, name, width):
    return node("LayerNormalization",
                [x, weight(name + ".g", [width], 1.0),
                 weight(name + ".b", [width], 0.1)], [name], axis=-1,
                epsilon=1e-5)


def transformer(d=64):
    # One attention head: the importer takes Reshape with static shapes
    # only, so heads cannot be split from a dynamic sequence yet.
    x = "x"
    h = layer_norm(x, "ln1", d)
    qkv = []
    for p in "qkv":
        t = node("MatMul", [h, weight(p + ".w", [d, d])], [p + ".mm"])
        t = node("Add", [t, weight(p + ".b", [d], 0.1)], [p + ".proj"])
        if p == "k":
            t = node("Transpose", [t], [p + ".t"], perm=[0, 2, 1])
        qkv.append(t)
    s = node("MatMul", [qkv[0], qkv[1]], ["scores"])
    s = node("Mul", [s, const("scale", np.array(1.0 / np.sqrt(d),
                                                np.float32))], ["scaled"])
    a = node("Softmax", [s], ["attn"], axis=-1)
    o = node("MatMul", [a, qkv[2]], ["ctx"])
    o = node("MatMul", [o, weight("o.w", [d, d])], ["o.mm"])
    h = node("Add", [x, o], ["res1"])
    f = layer_norm(h, "ln2", d)
    f = node("MatMul", [f, weight("ff1.w", [d, 4 * d])], ["ff1"])
    f = node("Add", [f, weight("ff1.b", [4 * d], 0.1)], ["ff1.b.out"])
    # GELU, tanh form
    c = const("c0", np.array(0.044715, np.float32))
    k = const("c1", np.array(np.sqrt(2 / np.pi), np.float32))
    half, one = const("half", np.array(0.5, np.float32)), \
        const("one", np.array(1.0, np.float32))
    cube = node("Mul", [f, node("Mul", [f, f], ["sq"])], ["cube"])
    inner = node("Mul", [k, node("Add", [f, node("Mul", [c, cube],
                                                 ["cc"])], ["in0"])], ["in1"])
    g = node("Mul", [node("Mul", [half, f], ["hf"]),
                     node("Add", [one, node("Tanh", [inner], ["th"])],
                          ["th1"])], ["gelu"])
    f = node("MatMul", [g, weight("ff2.w", [4 * d, d])], ["ff2"])
    y = node("Add", [h, f], ["y"])
    return helper.make_graph(
        nodes, "transformer%d" % d,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 16, d])],
        [helper.make_tensor_value_info(y, TensorProto.FLOAT, ["N", 16, d])],
        inits)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, make in (("cnn", cnn), ("transformer", transformer),
                       ("transformer-large", lambda: transformer(384))):
        inits.clear()
        nodes.clear()
        model = helper.make_model(make(), producer_name="amp-test",
                                  opset_imports=[helper.make_opsetid("", 17)])
        model.ir_version = 8
        checker.check_model(model, full_check=True)
        save(model, os.path.join(out, name + ".onnx"))


if __name__ == "__main__":
    main()
