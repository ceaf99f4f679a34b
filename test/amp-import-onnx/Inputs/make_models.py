#!/usr/bin/env python3
"""Writes the small ONNX models of the amp-import-onnx tests into OUTDIR.

    make_models.py OUTDIR

Weights are seeded random values; every model is a few nodes.
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


def save(model, out, name, check=True):
    if check:
        onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name))


def model(nodes, inputs, outputs, inits=(), opset=13, name="g"):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="amp-tests")
    m.ir_version = 7
    return m


def vi(name, shape, dtype=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def main(out):
    os.makedirs(out, exist_ok=True)

    # A two-layer MLP: Gemm, Relu, MatMul, Add, Softmax.
    mlp = model(
        [helper.make_node("Gemm", ["x", "w1", "b1"], ["h"], name="fc1", transB=1),
         helper.make_node("Relu", ["h"], ["r"], name="relu"),
         helper.make_node("MatMul", ["r", "w2"], ["m"], name="fc2"),
         helper.make_node("Add", ["m", "b2"], ["z"], name="bias2"),
         helper.make_node("Softmax", ["z"], ["y"], name="softmax", axis=-1)],
        [vi("x", [2, 16])], [vi("y", [2, 10])],
        [tensor("w1", [32, 16]), tensor("b1", [32]), tensor("w2", [32, 10]),
         tensor("b2", [10])], name="mlp")
    save(mlp, out, "mlp.onnx")

    # The same with a symbolic batch dimension.
    sym = onnx.ModelProto()
    sym.CopyFrom(mlp)
    for v in list(sym.graph.input) + list(sym.graph.output):
        v.type.tensor_type.shape.dim[0].dim_param = "batch"
    save(sym, out, "mlp-batch.onnx")

    # A small CNN in opset 7 (attributes that later became inputs): Conv,
    # BatchNormalization, Clip (min/max attributes), MaxPool, Pad (pads
    # attribute), Upsample (scales attribute), Slice (starts/ends
    # attributes), ReduceMean (axes attribute), Flatten.
    cnn = model(
        [helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv",
                          kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
         helper.make_node("BatchNormalization", ["c", "s", "bb", "m", "v"],
                          ["n"], name="bn", epsilon=1e-3),
         helper.make_node("Clip", ["n"], ["r"], name="relu6", min=0.0, max=6.0),
         helper.make_node("MaxPool", ["r"], ["p"], name="pool",
                          kernel_shape=[2, 2], strides=[2, 2]),
         helper.make_node("Pad", ["p"], ["q"], name="pad",
                          pads=[0, 0, 1, 1, 0, 0, 1, 1], value=0.5),
         helper.make_node("Upsample", ["q"], ["u"], name="up",
                          scales=[1.0, 1.0, 2.0, 2.0], mode="nearest"),
         helper.make_node("Slice", ["u"], ["sl"], name="crop",
                          starts=[1, 1], ends=[9, 9], axes=[2, 3]),
         helper.make_node("ReduceMean", ["sl"], ["rm"], name="mean",
                          axes=[2, 3], keepdims=1),
         helper.make_node("Flatten", ["rm"], ["y"], name="flat")],
        [vi("x", [1, 3, 8, 8])], [vi("y", [1, 4])],
        [tensor("w", [4, 3, 3, 3]), tensor("b", [4]),
         numpy_helper.from_array(np.ones(4, np.float32), "s"),
         tensor("bb", [4]), tensor("m", [4]),
         numpy_helper.from_array(np.full(4, 0.5, np.float32), "v")],
        opset=7, name="cnn7")
    save(cnn, out, "cnn-opset7.onnx")

    # Shape arithmetic as torch.onnx.export writes it: Shape, Gather,
    # Unsqueeze, Concat, Reshape; all folded at import.
    shape = model(
        [helper.make_node("Shape", ["x"], ["s"], name="shape"),
         helper.make_node("Constant", [], ["i0"], name="c0",
                          value=numpy_helper.from_array(np.array(0, np.int64))),
         helper.make_node("Gather", ["s", "i0"], ["d0"], name="gather", axis=0),
         helper.make_node("Constant", [], ["ax"], name="c1",
                          value=numpy_helper.from_array(np.array([0], np.int64))),
         helper.make_node("Unsqueeze", ["d0", "ax"], ["d0u"], name="unsq"),
         helper.make_node("Constant", [], ["m1"], name="c2",
                          value=numpy_helper.from_array(np.array([-1], np.int64))),
         helper.make_node("Concat", ["d0u", "m1"], ["target"], name="cat", axis=0),
         helper.make_node("Reshape", ["x", "target"], ["y"], name="reshape")],
        [vi("x", [2, 3, 4])], [vi("y", [2, 12])], name="shape_arith")
    save(shape, out, "shape-arith.onnx")

    # Unsupported operators (three nodes, two kinds).
    unsupported = model(
        [helper.make_node("Unique", ["x"], ["v"], name="unique_1"),
         helper.make_node("Relu", ["v"], ["r"], name="relu"),
         helper.make_node("Det", ["sq"], ["d"], name="det_a"),
         helper.make_node("Unique", ["r"], ["v2"], name="unique_2")],
        [vi("x", [3, 4]), vi("sq", [3, 3])],
        [vi("v2", [None]), vi("d", [])])
    save(unsupported, out, "unsupported.onnx")

    # An unsupported attribute value (Pad's wrap mode is opset 19).
    reflect = model(
        [helper.make_node("Pad", ["x", "pads"], ["y"], name="pad_wrap",
                          mode="wrap")],
        [vi("x", [2, 3])], [vi("y", [2, 5])],
        [numpy_helper.from_array(np.array([0, 1, 0, 1], np.int64), "pads")])
    save(reflect, out, "pad-wrap.onnx")

    # Opsets out of range.
    relu = [helper.make_node("Relu", ["x"], ["y"], name="relu")]
    save(model(relu, [vi("x", [2])], [vi("y", [2])], opset=5), out,
         "opset5.onnx")
    save(model(relu, [vi("x", [2])], [vi("y", [2])], opset=18), out,
         "opset18.onnx", check=False)

    # Truncated and non-ONNX files.
    data = mlp.SerializeToString()
    with open(os.path.join(out, "truncated.onnx"), "wb") as f:
        f.write(data[: len(data) // 2])
    with open(os.path.join(out, "not-onnx.onnx"), "w") as f:
        f.write("func.func @f() { return }\n")

    # External data: a model whose weights are in weights.bin, and one whose
    # data file is missing.
    ext_dir = os.path.join(out, "external")
    os.makedirs(ext_dir, exist_ok=True)
    ext = onnx.ModelProto()
    ext.CopyFrom(mlp)
    onnx.save_model(ext, os.path.join(ext_dir, "mlp-external.onnx"),
                    save_as_external_data=True, all_tensors_to_one_file=True,
                    location="weights.bin", size_threshold=0)
    missing = onnx.load(os.path.join(ext_dir, "mlp-external.onnx"),
                        load_external_data=False)
    for t in missing.graph.initializer:
        for entry in t.external_data:
            if entry.key == "location":
                entry.value = "missing.bin"
    with open(os.path.join(ext_dir, "missing-data.onnx"), "wb") as f:
        f.write(missing.SerializeToString())
    indexing_models(out)


def indexing_models(out):
    """Einsum, Trilu, CumSum, TopK, GatherElements, GatherND, and the
    diagnostics of their unsupported forms."""
    # Attention as two einsums: scores, then the weighted sum of values.
    save(model(
        [helper.make_node("Einsum", ["q", "k"], ["s"], name="scores",
                          equation="bhqd,bhkd->bhqk"),
         helper.make_node("Einsum", ["s", "v"], ["y"], name="context",
                          equation="bhqk,bhkd->bhqd")],
        [vi("q", [1, 2, 8, 16]), vi("k", [1, 2, 8, 16]),
         vi("v", [1, 2, 8, 16])], [vi("y", [1, 2, 8, 16])], name="einsum"),
        out, "einsum.onnx")
    save(model(
        [helper.make_node("Einsum", ["a", "b"], ["y"], name="einsum_bad",
                          equation="ij,j#->i")],
        [vi("a", [2, 3]), vi("b", [3, 4])], [vi("y", [2])]),
        out, "einsum-bad.onnx", check=False)
    save(model(
        [helper.make_node("Einsum", ["a", "b"], ["y"], name="einsum_terms",
                          equation="ij,jk,k->i")],
        [vi("a", [2, 3]), vi("b", [3, 4])], [vi("y", [2])]),
        out, "einsum-terms.onnx", check=False)

    # torch.tril, torch.cumsum, torch.topk and torch.gather on its indices,
    # a GatherND and a run-time ScatterND (its updates an input), in one
    # graph; the index operands are constants.
    def ints(name, values, dtype=np.int64):
        return numpy_helper.from_array(np.array(values, dtype), name)
    save(model(
        [helper.make_node("Trilu", ["x", "one"], ["t"], name="tril", upper=0),
         helper.make_node("CumSum", ["t", "axis"], ["c"], name="cumsum"),
         helper.make_node("TopK", ["c", "k"], ["v", "i"], name="topk"),
         helper.make_node("GatherElements", ["y", "i"], ["g"],
                          name="gather_elements", axis=1),
         helper.make_node("GatherND", ["y", "tuples"], ["n"],
                          name="gather_nd"),
         helper.make_node("ScatterND", ["y", "rows", "u"], ["s"],
                          name="scatter_nd")],
        [vi("x", [4, 16]), vi("y", [4, 16]), vi("u", [2, 16])],
        [vi("v", [4, 5]), vi("g", [4, 5]), vi("n", [3]), vi("s", [4, 16])],
        [ints("one", 1), ints("axis", 1), ints("k", [5]),
         ints("tuples", [[0, 3], [3, -1], [2, 7]]),
         ints("rows", [[3], [1]])], opset=14,
        name="indexing"),
        out, "indexing.onnx")
    # An LSTM (with peepholes) feeding a reverse GRU, weights as
    # initializers: X [seq 5, batch 2, input 4].
    save(model(
        [helper.make_node("LSTM", ["x", "lw", "lr", "lb", "", "", "", "lp"],
                          ["ly"], name="lstm", hidden_size=8),
         helper.make_node("Squeeze", ["ly", "axis1"], ["s"], name="squeeze"),
         helper.make_node("GRU", ["s", "gw", "gr", "gb"], ["", "h"],
                          name="gru", hidden_size=6, direction="reverse")],
        [vi("x", [5, 2, 4])], [vi("h", [1, 2, 6])],
        [tensor("lw", [1, 32, 4]), tensor("lr", [1, 32, 8]),
         tensor("lb", [1, 64]), tensor("lp", [1, 24]),
         tensor("gw", [1, 18, 8]), tensor("gr", [1, 18, 6]),
         tensor("gb", [1, 36]), ints("axis1", [1])], opset=14,
        name="recurrent"),
        out, "recurrent.onnx")
    save(model(
        [helper.make_node("LSTM", ["x", "w", "r"], ["y"], name="lstm_act",
                          hidden_size=2,
                          activations=["Sigmoid", "Softsign", "Tanh"])],
        [vi("x", [3, 1, 2])], [vi("y", [3, 1, 1, 2])],
        [tensor("w", [1, 8, 2]), tensor("r", [1, 8, 2])], opset=14),
        out, "lstm-activation.onnx", check=False)
    save(model(
        [helper.make_node("GRU", ["x", "w", "r", "", "lens"], ["y"],
                          name="gru_lens", hidden_size=2)],
        [vi("x", [3, 2, 2]), vi("lens", [2], TensorProto.INT32)],
        [vi("y", [3, 1, 2, 2])],
        [tensor("w", [1, 6, 2]), tensor("r", [1, 6, 2])], opset=14),
        out, "gru-seq-lens.onnx", check=False)
    # Their diagnostics.
    save(model(
        [helper.make_node("ScatterND", ["x", "i", "u"], ["y"],
                          name="scatter_max", reduction="max")],
        [vi("x", [4, 3]), vi("i", [2, 1], TensorProto.INT64),
         vi("u", [2, 3])], [vi("y", [4, 3])], opset=16),
        out, "scatternd-max.onnx", check=False)
    save(model(
        [helper.make_node("TopK", ["x", "k"], ["v", "i"], name="topk_k")],
        [vi("x", [3, 4])], [vi("v", [3, 5]), vi("i", [3, 5], TensorProto.INT64)],
        [ints("k", [5])]), out, "topk-k.onnx", check=False)
    save(model(
        [helper.make_node("TopK", ["x", "k"], ["v", "i"], name="topk_dyn")],
        [vi("x", [3, 4]), vi("k", [1], TensorProto.INT64)],
        [vi("v", [3, 2]), vi("i", [3, 2], TensorProto.INT64)]),
        out, "topk-runtime-k.onnx", check=False)
    save(model(
        [helper.make_node("CumSum", ["x", "axis"], ["y"], name="cumsum_bool")],
        [vi("x", [3, 4], TensorProto.BOOL)], [vi("y", [3, 4], TensorProto.BOOL)],
        [ints("axis", 0)]), out, "cumsum-bool.onnx", check=False)
    save(model(
        [helper.make_node("GatherND", ["x", "idx"], ["y"], name="gathernd_long")],
        [vi("x", [3, 4])], [vi("y", [2])],
        [ints("idx", [[0, 1, 2], [1, 2, 3]])]), out, "gathernd-long.onnx",
        check=False)
    save(model(
        [helper.make_node("GatherElements", ["x", "idx"], ["y"],
                          name="gather_elements_rank")],
        [vi("x", [3, 4])], [vi("y", [2])], [ints("idx", [0, 1])]),
        out, "gather-elements-rank.onnx", check=False)


if __name__ == "__main__":
    main(sys.argv[1])
