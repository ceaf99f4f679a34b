#!/usr/bin/env python3
"""amp-convert-onnx against the two FP16 converters ONNX users have.

    export_compare.py WORKDIR [--models resnet50,bert_encoder] [--markdown out.md]

For each model (exported by export_torchvision.py with seeded random
weights, unless WORKDIR has it) it writes four f16 files and runs each, and
the FP32 original, in ONNX Runtime's CPU provider on the same input:

- amp:      amp-convert-onnx, static ranges only;
- amp+cal:  amp-convert-onnx --inputs=CALIBRATION: the plan takes the
            ranges amp-run --calibrate observes on the calibration input;
- cvt16:    onnxconverter-common's convert_float_to_float16 with
            keep_io_types=True: every node in f16 but its default block list
            (DEFAULT_OP_BLOCK_LIST of onnxconverter_common/float16.py);
- autocast: ModelOpt AutoCast's default rules: a node stays FP32 when one
            of its inputs or outputs exceeds data_max = 512 in magnitude on
            the calibration input (ORT's FP32 run), or one of its
            initializers exceeds init_max = 65504; every other node f16.

How the baselines are modelled (neither tool is installed here; they need
pip): their *decisions* are computed as their documentation and source say,
then written by amp-convert-onnx --node-types, so that they get amp's cast
placement (one Cast per value and type, no chains, initializers stored once
per type read). That is generous to them: convert_float_to_float16 adds one
Cast per input of each blocked node and clamps weights to +-1e4, and both
keep their own cast placement. Columns: Cast nodes added, float initializer
bytes, nodes in 16 bits (of all nodes), relative L2 error against the FP32
model in ORT (the first output), and whether every output is finite.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, numpy_helper, shape_inference

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# onnxconverter-common, onnxconverter_common/float16.py.
CVT16_BLOCK_LIST = {
    "ArrayFeatureExtractor", "Binarizer", "CastMap", "CategoryMapper",
    "DictVectorizer", "FeatureVectorizer", "Imputer", "LabelEncoder",
    "LinearClassifier", "LinearRegressor", "Normalizer", "OneHotEncoder",
    "SVMClassifier", "SVMRegressor", "Scaler", "TreeEnsembleClassifier",
    "TreeEnsembleRegressor", "ZipMap", "NonMaxSuppression", "TopK",
    "RoiAlign", "Resize", "Range", "CumSum", "Min", "Max", "Upsample"}
# ModelOpt AutoCast's command-line defaults (guides/8_autocast).
AUTOCAST_DATA_MAX = 512.0
AUTOCAST_INIT_MAX = 65504.0


def tool(name):
    return os.path.join(ROOT, "build", "bin", name)


def run(cmd, **kw):
    result = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if result.returncode != 0:
        raise RuntimeError(" ".join(cmd[:2]) + ": " +
                           (result.stderr.strip().splitlines() or ["?"])[-1])
    return result


def ort_run(model, outdir, inputs):
    env = dict(os.environ, NODE_PATH=os.path.join(
        ROOT, ".deps", "onnxruntime", "node_modules"))
    run(["node", os.path.join(ROOT, "scripts", "ort-run.js"), model, outdir]
        + inputs, env=env)
    files = sorted(f for f in os.listdir(outdir) if f.startswith("output_"))
    return [np.load(os.path.join(outdir, f)) for f in
            sorted(files, key=lambda f: int(f[7:-4]))]


def value_maxima(model_path, inputs, work):
    """max |x| of every float value of the FP32 model on `inputs` (ORT)."""
    model = shape_inference.infer_shapes(onnx.load(model_path))
    g = model.graph
    present = {o.name for o in g.output}
    for info in g.value_info:
        if (info.type.tensor_type.elem_type == TensorProto.FLOAT and
                info.name not in present):
            g.output.append(info)
    names = [o.name for o in g.output]
    path = os.path.join(work, "all-values.onnx")
    onnx.save(model, path)
    outs = ort_run(path, os.path.join(work, "all-values"), inputs)
    maxima = {}
    for name, value in zip(names, outs):
        if value.dtype.kind == "f" and value.size:
            maxima[name] = float(np.max(np.abs(value)))
    return maxima


def cvt16_types(model):
    return ["f32" if n.op_type in CVT16_BLOCK_LIST else "f16"
            for n in model.graph.node]


def autocast_types(model, maxima, input_maxima):
    inits = {i.name: i for i in model.graph.initializer}
    init_max = {}
    for name, init in inits.items():
        if init.data_type == TensorProto.FLOAT:
            a = numpy_helper.to_array(init)
            init_max[name] = float(np.max(np.abs(a))) if a.size else 0.0
    types = []
    for node in model.graph.node:
        keep = False
        for name in list(node.input) + list(node.output):
            if name in init_max:
                keep |= init_max[name] > AUTOCAST_INIT_MAX
            elif name in maxima:
                keep |= maxima[name] > AUTOCAST_DATA_MAX
            elif name in input_maxima:
                keep |= input_maxima[name] > AUTOCAST_DATA_MAX
        types.append("f32" if keep else "f16")
    return types


def describe(original, converted):
    a, b = onnx.load(original), onnx.load(converted)
    casts = sum(n.op_type == "Cast" for n in b.graph.node) - \
        sum(n.op_type == "Cast" for n in a.graph.node)
    init_bytes = sum(len(i.raw_data) or 4 * len(i.float_data)
                     for i in b.graph.initializer
                     if i.data_type in (TensorProto.FLOAT, TensorProto.FLOAT16,
                                        TensorProto.BFLOAT16))
    types = {v.name: v.type.tensor_type.elem_type
             for v in list(b.graph.value_info) + list(b.graph.output)}
    low = sum(1 for n in b.graph.node if not n.name.startswith("amp_cast_")
              and any(types.get(o) == TensorProto.FLOAT16 for o in n.output))
    return casts, init_bytes, low, len(a.graph.node)


def compare_model(name, work, args):
    src = os.path.join(work, name + ".onnx")
    if not os.path.exists(src):
        run([sys.executable, os.path.join(HERE, "export_torchvision.py"), work,
             "--models", name])
    inputs = [os.path.join(work, name + ".input.npy")]
    # A second input for calibration (a different seed, same distribution).
    calib = os.path.join(work, name + ".calib.npy")
    x = np.load(inputs[0])
    rng = np.random.default_rng(1)
    if x.dtype.kind == "f":
        np.save(calib, rng.standard_normal(x.shape).astype(x.dtype))
    else:
        np.save(calib, rng.integers(1, int(x.max()) + 1, x.shape).astype(x.dtype))
    d = os.path.join(work, name + ".cmp")
    os.makedirs(d, exist_ok=True)
    ref = ort_run(src, os.path.join(d, "fp32"), inputs)

    model = onnx.load(src)
    maxima = value_maxima(src, [calib], d)
    input_maxima = {model.graph.input[0].name: float(np.max(np.abs(np.load(calib))))}

    variants = {}
    variants["amp"] = [tool("amp-convert-onnx"), src, "--quiet"]
    variants["amp+cal"] = variants["amp"] + ["--inputs=" + calib]
    for label, types in (("cvt16", cvt16_types(model)),
                         ("autocast", autocast_types(model, maxima,
                                                     input_maxima))):
        path = os.path.join(d, label + ".types")
        with open(path, "w") as f:
            f.writelines(f"{i} {t}\n" for i, t in enumerate(types))
        variants[label] = [tool("amp-convert-onnx"), src, "--quiet",
                           "--node-types=" + path]
    rows = []
    for label, cmd in variants.items():
        out = os.path.join(d, label + ".onnx")
        try:
            run(cmd + ["-o", out])
            got = ort_run(out, os.path.join(d, label + ".out"), inputs)
        except RuntimeError as e:
            rows.append((name, label, None, str(e)))
            continue
        casts, init_bytes, low, nodes = describe(src, out)
        r, g = ref[0].astype(np.float64), got[0].astype(np.float64)
        rel = float(np.linalg.norm(g - r) / max(np.linalg.norm(r), 1e-30))
        finite = all(np.all(np.isfinite(o)) for o in got)
        rows.append((name, label, (casts, init_bytes, low, nodes, rel, finite),
                     ""))
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("work")
    p.add_argument("--models", default="resnet50,mobilenet_v3_large,"
                   "efficientnet_b0,densenet121,googlenet,vit_b_16,"
                   "bert_encoder")
    p.add_argument("--markdown")
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    lines = ["| model | converter | Cast nodes added | float initializers MB "
             "| nodes in f16 | rel L2 vs FP32 (ORT) | all finite |",
             "|---|---|---|---|---|---|---|"]
    for name in args.models.split(","):
        try:
            rows = compare_model(name, args.work, args)
        except RuntimeError as e:
            lines.append(f"| {name} | (not run: {e}) | | | | | |")
            print(lines[-1], flush=True)
            continue
        for model, label, data, error in rows:
            if data is None:
                lines.append(f"| {model} | {label} | failed: {error} | | | | |")
            else:
                casts, init_bytes, low, nodes, rel, finite = data
                lines.append(f"| {model} | {label} | {casts} | "
                             f"{init_bytes / 1e6:.1f} | {low}/{nodes} | "
                             f"{rel:.2e} | {'yes' if finite else 'no'} |")
            print(lines[-1], flush=True)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
