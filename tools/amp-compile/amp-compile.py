#!/usr/bin/env python3
"""amp-compile: turn a linalg/TOSA model into a native executable.

    amp-compile.py MODEL.mlir -o OUTDIR
                   [--precision f16|bf16|f8E4M3FN|f8E5M2|fp32]
                   [--target gpu|cpu] [--chip sm_90a] [--format fatbin]

GPU target (default): the model goes through `amp-opt --amp-mixed-precision`
(unless --precision fp32; f8E4M3FN and f8E5M2 convert contractions to FP8,
docs/fp8.md, which the GPU pipeline runs on sm_90a only) and
`--amp-gpu-pipeline`, then
`mlir-translate --mlir-to-llvmir` and `llc`; the object is linked with a
generated harness and `libamp_cuda_runtime.so`. No CUDA toolkit is needed for
`--format isa` (PTX, compiled by the driver when the program starts); `bin`
and `fatbin` (the default) need ptxas. OUTDIR then holds everything a machine
with only the NVIDIA driver needs:

    OUTDIR/model                  the executable (rpath $ORIGIN)
    OUTDIR/libamp_cuda_runtime.so the runtime (loads libcuda.so.1, or
                                  $AMP_CUDA_DRIVER, when the program starts)
    OUTDIR/signature.json         entry point, input and output types
    OUTDIR/harness.cpp, model.o,  sources of the executable (for relinking;
      weights.o                   weights.o holds the large weights, which
                                  never pass through LLVM)

CPU target: the same harness around a plain CPU lowering of the model, used
as the reference the GPU results are compared with (scripts/amp-compare.py).

With --shared, OUTDIR/libmodel.so (and model.h) is built instead of the
executable: load it with the C API (runtime/include/amp_model.h,
libamp_model.so) or `import amp` (docs/runtime.md), or call
`_mlir_ciface_<entry>` with memref descriptors that point to GPU memory.

A dynamic size (`?`) of an input needs a range: --dim ARG:AXIS=MIN:MAX (ARG
an input's index or name). The last line says what was built: the
contractions per precision and, for a GPU build, the Tensor Core and SIMT
kernels; a note says why a contraction did not get --precision, and
--strict makes that an error.

The executable:

    OUTDIR/model [--iters N] [--warmup N] [--seed S] [--inputs DIR]
                 [--save-inputs DIR] [--outputs DIR] [--quiet] [--graph]
                 [--shape INPUT:DIMS]

feeds seeded uniform inputs in [-1, 1) (or reads DIR/input<i>.bin), runs
the entry point warmup + iters times, prints the time per call (min, median,
mean in ms) and a checksum of each output, and writes the outputs as
little-endian float32 (floats) or int64 (integers) to DIR/output<i>.bin with
DIR/outputs.json describing them.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The CPU reference lowering: upstream passes, and --amp-expand-fp8 for
# FP8 conversions (no FP8 type in LLVM; a no-op on other models).
CPU_PIPELINE = ",".join([
    "func.func(tosa-to-linalg-named)",
    "func.func(tosa-to-linalg)",
    "func.func(tosa-to-tensor)",
    "func.func(tosa-to-arith)",
    "canonicalize",
    "func.func(convert-elementwise-to-linalg)",
    "eliminate-empty-tensors",
    "empty-tensor-to-alloc-tensor",
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map}",
    "buffer-deallocation-pipeline",
    "convert-bufferization-to-memref",
    "func.func(convert-linalg-to-loops)",
    "func.func(llvm-request-c-wrappers)",
    "convert-scf-to-cf",
    "amp-expand-fp8",
    "expand-strided-metadata",
    "lower-affine",
    "finalize-memref-to-llvm",
    "convert-math-to-llvm",
    "convert-math-to-libm",
    "convert-vector-to-llvm",
    "convert-arith-to-llvm",
    "convert-func-to-llvm",
    "convert-cf-to-llvm",
    "convert-index-to-llvm",
    "reconcile-unrealized-casts",
])

ELEMENT_TYPES = {
    # MLIR type: (C type, bytes, kind)
    "f32": ("float", 4, "float"),
    "f64": ("double", 8, "float"),
    "f16": ("uint16_t", 2, "half"),
    "bf16": ("uint16_t", 2, "bfloat"),
    "i64": ("int64_t", 8, "int"),
    "i32": ("int32_t", 4, "int"),
    "i16": ("int16_t", 2, "int"),
    "i8": ("int8_t", 1, "int"),
    "i1": ("uint8_t", 1, "int"),
}


def fail(message):
    sys.exit("amp-compile: error: " + message)


def run(cmd, **kwargs):
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.stderr.write(result.stderr[-20000:])
        fail("command failed: " + " ".join(cmd))
    return result


def split_top_level(text):
    """Splits on commas outside <>, (), [] and {}."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:])
    return [p.strip() for p in parts]


def parse_tensor_type(text):
    match = re.match(r"(tensor|memref)<([^>]*)>", text.strip())
    if not match:
        return None
    fields = match.group(2).split("x")
    elt = fields[-1].strip()
    dims = fields[:-1]
    if elt not in ELEMENT_TYPES:
        fail("element type %s is not supported by the harness" % elt)
    # -1: a dynamic size (`?`), given a range by --dim.
    return {"shape": [-1 if d == "?" else int(d) for d in dims], "type": elt}


def find_signature(module_text, entry):
    """Finds `func.func @entry(...) -> ...` (or the first public function
    with a body) in pretty-printed MLIR and returns its name and types."""
    pattern = re.compile(r"func\.func\s+(?:(public|private|nested)\s+)?@"
                         r"([\w$.]+)\s*\(")
    for match in pattern.finditer(module_text):
        visibility, name = match.group(1), match.group(2)
        if entry and name != entry:
            continue
        if not entry and visibility == "private":
            continue
        # Argument list: up to the matching parenthesis.
        i, depth = match.end(), 1
        while depth:
            depth += {"(": 1, ")": -1}.get(module_text[i], 0)
            i += 1
        args_text = module_text[match.end():i - 1]
        rest = module_text[i:]
        header_end = rest.find("{")
        if header_end < 0:
            continue  # a declaration
        header = rest[:header_end]
        if "attributes" in header:
            header = header[:header.find("attributes")]
        results_text = header.strip()
        if results_text.startswith("->"):
            results_text = results_text[2:].strip()
            if results_text.startswith("("):
                results_text = results_text[1:results_text.rfind(")")]
        else:
            results_text = ""
        args = []
        for arg in split_top_level(args_text):
            # The argument's name: its location (the ONNX importer names
            # graph inputs so), printed inline by --mlir-print-debuginfo.
            # (A NameLoc: `loc("name")`, not `loc("file":line:col)`.)
            loc = re.search(r'loc\("([^"]*)"(?!:\d)', arg)
            arg = re.sub(r"\s*loc\(.*\)\s*$", "", arg)
            arg_type = arg.split(":", 1)[1].strip() if ":" in arg else arg
            # A weight argument's bound (amp-prepare-model with random
            # weights): its random inputs are drawn like amp-run draws them.
            bound = re.search(r"amp\.input_bound = ([0-9.eE+-]+)", arg_type)
            arg_type = re.sub(r"\{.*\}\s*$", "", arg_type).strip()
            parsed = parse_tensor_type(arg_type)
            if not parsed:
                fail("argument type %s of @%s is not supported by the "
                     "harness (ranked static tensors only)" % (arg_type, name))
            if bound:
                parsed["bound"] = float(bound.group(1))
            parsed["name"] = loc.group(1) if loc else \
                "input%d" % len(args)
            args.append(parsed)
        results = []
        for res in split_top_level(results_text):
            res = re.sub(r"\s*loc\(.*\)\s*$", "", res)
            res = re.sub(r"\{.*\}\s*$", "", res).strip()
            parsed = parse_tensor_type(res)
            if not parsed:
                fail("result type %s of @%s is not supported by the harness"
                     % (res, name))
            parsed["name"] = "output%d" % len(results)
            results.append(parsed)
        return name, args, results
    fail("no function %s found" % ("@" + entry if entry else
                                   "(public, with a body)"))


def find_ptxas(pipeline_options):
    """The ptxas that --amp-gpu-pipeline will use for bin/fatbin (the same
    search: toolkit=..., CUDA_ROOT, CUDA_HOME, CUDA_PATH, /usr/local/cuda,
    then PATH), or None."""
    match = re.search(r"(?:^|\s)toolkit=(\S+)", pipeline_options)
    roots = [match.group(1)] if match else (
        [os.environ[v] for v in ("CUDA_ROOT", "CUDA_HOME", "CUDA_PATH")
         if os.path.isdir(os.environ.get(v, ""))] + ["/usr/local/cuda"])
    for root in roots[:1]:
        ptxas = os.path.join(root, "bin", "ptxas")
        if os.path.exists(ptxas):
            return ptxas
    return shutil.which("ptxas")


def descriptor_type(rank):
    return "Desc<%d>" % rank if rank else "Desc0"


def generate_harness(name, args, results, target):
    """C++ source of the harness for one signature."""
    with open(os.path.join(HERE, "harness.cpp.in")) as f:
        template = f.read()
    # MLIR's C interface passes a pointer to the result descriptor(s) first,
    # and nothing for functions without results.
    result_param = ["void *results"] if results else []
    result_arg = ["&results"] if results else []
    decl_args = ", ".join(result_param +
                          ["%s *arg%d" % (descriptor_type(len(a["shape"])), i)
                           for i, a in enumerate(args)])
    fields = "\n".join("  %s r%d;" % (descriptor_type(len(r["shape"])), i)
                       for i, r in enumerate(results))
    if not results:
        fields = "  char unused;"

    def tensor_table(tensors):
        rows = []
        for t in tensors:
            ctype, size, kind = ELEMENT_TYPES[t["type"]]
            dims = lambda key: ", ".join(
                str(d) for d in t.get(key, t["shape"])) or ""
            rows.append('  {"%s", %d, %d, "%s", {%s}, %r, {%s}, {%s}},' % (
                t["type"], size, len(t["shape"]), kind, dims("shape"),
                float(t.get("bound", 1.0)), dims("min"), dims("max")))
        return "\n".join(rows) if rows else \
            "  {\"\", 0, 0, \"\", {}, 1.0, {}, {}},"

    call_args = ", ".join(result_arg + [
        "(%s *)&inputDescs[%d]" % (descriptor_type(len(a["shape"])), i)
        for i, a in enumerate(args)])
    result_descs = "\n".join(
        "  outputs[%d].desc = reinterpret_cast<AnyDesc *>(&results.r%d);" %
        (i, i) for i in range(len(results)))
    return (template
            .replace("@TARGET_GPU@", "1" if target == "gpu" else "0")
            .replace("@ENTRY@", name)
            .replace("@DECL_ARGS@", decl_args)
            .replace("@RESULT_FIELDS@", fields)
            .replace("@NUM_INPUTS@", str(len(args)))
            .replace("@NUM_OUTPUTS@", str(len(results)))
            .replace("@INPUT_TABLE@", tensor_table(args))
            .replace("@OUTPUT_TABLE@", tensor_table(results))
            .replace("@CALL_ARGS@", call_args)
            .replace("@RESULT_DESCS@", result_descs))


def apply_dims(inputs, specs):
    """Gives each dynamic size of the inputs its range from --dim
    ARG:AXIS=MIN:MAX (ARG an index or an input's name)."""
    for t in inputs:
        t["min"] = [d if d >= 0 else None for d in t["shape"]]
        t["max"] = list(t["min"])
    for spec in specs:
        match = re.match(r"^([^:=]+):(\d+)=(\d+):(\d+)$", spec)
        if not match:
            fail("--dim %s: expected ARG:AXIS=MIN:MAX (e.g. 0:0=1:64)" % spec)
        arg, axis, lo, hi = match.group(1), int(match.group(2)), \
            int(match.group(3)), int(match.group(4))
        index = int(arg) if arg.isdigit() else next(
            (i for i, t in enumerate(inputs) if t["name"] == arg), None)
        if index is None or index >= len(inputs):
            fail("--dim %s: no input %s (the inputs: %s)" % (
                spec, arg, ", ".join(t["name"] for t in inputs)))
        t = inputs[index]
        if axis >= len(t["shape"]):
            fail("--dim %s: input %s has rank %d" % (spec, arg,
                                                    len(t["shape"])))
        if t["shape"][axis] >= 0:
            fail("--dim %s: dimension %d of input %s is static (%d)" % (
                spec, axis, arg, t["shape"][axis]))
        if lo < 1 or hi < lo:
            fail("--dim %s: the range needs 1 <= MIN <= MAX" % spec)
        t["min"][axis], t["max"][axis] = lo, hi
    for i, t in enumerate(inputs):
        for axis, lo in enumerate(t["min"]):
            if lo is None:
                fail("input %d (%s) has a dynamic dimension %d: give its "
                     "range with --dim %d:%d=MIN:MAX" % (
                         i, t["name"], axis, i, axis))


def contraction_summary(report_path, contraction_ops, lowered_path, target):
    """What the kernels compute, from the mixed-precision report (the
    precision of each contraction) and the lowered module (the kernel kind
    of each GPU matmul): counts, and the one-line reasons of fallbacks."""
    counts, reasons = {}, []
    report = {}
    if report_path and os.path.exists(report_path):
        with open(report_path) as f:
            report = json.load(f)
    for op in report.get("ops", []):
        if op.get("op") not in contraction_ops:
            continue
        fp8 = op.get("fp8")
        if fp8 and fp8.get("converted"):
            precision = fp8.get("type", "fp8")
        elif op.get("converted"):
            precision = op.get("compute", report.get("target", "?"))
        else:
            precision = "f32"
        counts[precision] = counts.get(precision, 0) + 1
        why = (fp8.get("why") if fp8 and not fp8.get("converted") else
               op.get("reason") if precision == "f32" else None)
        if why:
            reasons.append("%s at %s: %s" % (op.get("op"), op.get("loc", "?"),
                                             why))
    kinds = {}
    if target == "gpu" and lowered_path:
        with open(lowered_path, "rb") as f:
            data = f.read()
        # Kernels of contractions: named for their op (matmul, conv_*),
        # with the Tensor Core form in the name; a loop kernel of a
        # convolution (no implicit GEMM) is SIMT too.
        names = set(re.findall(rb"[A-Za-z0-9_]*_[0-9]+_[A-Za-z0-9_]*"
                               rb"(?:matmul|conv)[A-Za-z0-9_]*", data))
        # The same kernel appears as its PTX entry, its parameters
        # (NAME_param_3) and the host's reference to it (after a length
        # byte in bytecode): one name each.
        names = {re.sub(rb"^[0-9]+|_param_[0-9]+$", b"", n) for n in names}
        names = {n for n in names if re.match(rb"^[A-Za-z_]", n) and
                 not n.startswith((b"amp", b"mgpu", b"__"))}
        for name in names:
            kind = ("wgmma" if b"_wgmma" in name else
                    "mma.sync" if b"_mma_sync" in name else "simt")
            kinds[kind] = kinds.get(kind, 0) + 1
    return counts, kinds, reasons


def format_summary(counts, kinds):
    parts = []
    if counts:
        parts.append("contractions: " + ", ".join(
            "%d %s" % (n, p) for p, n in sorted(counts.items())))
    if kinds:
        parts.append("kernels: " + ", ".join(
            "%d %s" % (n, k) for k, n in sorted(kinds.items())))
    return "; ".join(parts) if parts else "no contractions"


def generate_abi(name, inputs, outputs, target, precision, summary):
    """C source of amp_model_abi_v1 (runtime/ModelAbi.h) for one model."""
    def cstr(text):
        return json.dumps(text)  # a valid C string literal for ASCII text

    def table(symbol, tensors):
        rows = []
        for t in tensors:
            rank = len(t["shape"])
            # An output's dynamic size has no range: -1.
            lo = t.get("min", t["shape"])
            hi = t.get("max", t["shape"])
            pad = lambda v: ", ".join(str(x) for x in (v + [0] * 8)[:8])
            rows.append("  {%s, %s, %d, {%s}, {%s}, {%s}}," % (
                cstr(t["name"]), cstr(t["type"]), rank, pad(t["shape"]),
                pad(lo), pad(hi)))
        body = "\n".join(rows) if rows else "  {0}"
        return "static const amp_abi_tensor %s[] = {\n%s\n};\n" % (
            symbol, body)

    params = (["results"] if outputs else []) + [
        "args[%d]" % i for i in range(len(inputs))]
    return """// Generated by amp-compile: the model table libamp_model reads.
#include "ModelAbi.h"

void _mlir_ciface_%(name)s();

static void invoke(void *results, void *const *args) {
  (void)results;
  (void)args;
  ((void (*)(%(types)s))_mlir_ciface_%(name)s)(%(params)s);
}

%(inputs)s
%(outputs)s
__attribute__((visibility("default"))) const amp_abi_model amp_model_abi_v1 = {
  AMP_ABI_MAGIC, AMP_ABI_VERSION, %(entry)s, %(target)s, %(precision)s,
  %(summary)s, %(ni)d, %(no)d, kInputs, kOutputs, invoke};
""" % {"name": name, "params": ", ".join(params),
       "types": ", ".join(["void *"] * len(params)) or "void",
       "inputs": table("kInputs", inputs),
       "outputs": table("kOutputs", outputs),
       "entry": cstr(name), "target": cstr(target),
       "precision": cstr(precision), "summary": cstr(summary),
       "ni": len(inputs), "no": len(outputs)}


def prepare_model(args, amp_opt, work):
    """Step 1: the entry, prepared and converted (model.amp.mlirbc in
    `work`), the mixed-precision report, the signature (dynamic sizes
    given their --dim ranges) and the contraction ops by name."""
    # The entry, isolated from harness code (printing and timing calls,
    # a @main; amp-run does the same), optionally with random weights; then
    # mixed precision. Each step writes a file of its own, as MLIR bytecode:
    # weights are raw bytes there, not text (VGG-16's random weights are a
    # gigabyte of hexadecimal).
    prepared = os.path.join(work, "model.prepared.mlirbc")
    report = os.path.join(work, "mixed-precision.json")
    prepare = []
    if args.entry:
        prepare.append("entry=" + args.entry)
    if args.randomize_weights:
        prepare += ["randomize-weights", "seed=%d" % args.seed]
    run([amp_opt, args.model, "--emit-bytecode",
         "--amp-prepare-model=" + " ".join(prepare), "-o", prepared])
    source = os.path.join(work, "model.amp.mlirbc")
    if args.precision == "fp32":
        shutil.copy2(prepared, source)
    else:
        options = "target-type=%s report=%s %s" % (
            args.precision, report, args.mixed_precision_options)
        run([amp_opt, prepared, "--emit-bytecode",
             "--amp-mixed-precision=" + options.strip(), "-o", source])
    # The signature, from a text copy without the weights (and with the
    # arguments' names, their locations).
    signature_text = run([amp_opt, source,
                          "--mlir-elide-elementsattrs-if-larger=16",
                          "--mlir-elide-resource-strings-if-larger=16",
                          "--mlir-print-debuginfo",
                          "--mlir-print-local-scope"]).stdout
    name, inputs, outputs = find_signature(signature_text, args.entry)
    apply_dims(inputs, args.dim)
    # The contractions (ops the layer interface calls matmuls and
    # convolutions), whose precision the summary line reports.
    layers = os.path.join(work, "layers.json")
    run([amp_opt, prepared, "-o", "/dev/null",
         "--amp-count-layers=ops=convolution,matmul remarks=false json=" +
         layers])
    with open(layers) as f:
        layer_counts = json.load(f).get("counts", {})
    return source, report, name, inputs, outputs, layer_counts


def what_was_built(args, report, layer_counts, lowered, inputs):
    """Contractions per precision, kernel kinds, the reasons a contraction
    did not get the precision asked for, and the summary line; fails with
    --strict when there is a reason."""
    counts, kinds, reasons = contraction_summary(
        report if args.precision != "fp32" else None, set(layer_counts),
        lowered, args.target)
    if args.precision == "fp32" and layer_counts:
        counts = {"f32": sum(layer_counts.values())}
    wanted = args.precision
    fell_back = sorted(p for p in counts if p != wanted)
    summary = format_summary(counts, kinds)
    if args.target == "gpu" and kinds.get("simt") and wanted != "fp32":
        reasons.append("%d contraction kernel(s) are SIMT (no Tensor Core "
                       "form for their types or shapes%s)" % (
                           kinds["simt"],
                           "; a convolution with a dynamic size has no "
                           "implicit GEMM yet" if any(
                               d < 0 for t in inputs for d in t["shape"])
                           else ""))
    if fell_back and wanted != "fp32" and not reasons:
        reasons.append("the pass kept %s (its remarks: amp-opt "
                       "--amp-mixed-precision --mlir-pass-statistics, or "
                       "report=FILE.html)" % ", ".join(
                           "%d in %s" % (counts[p], p) for p in fell_back))
    if args.strict and (reasons or fell_back) and wanted != "fp32":
        fail("--strict: not every contraction is %s: %s" % (
            wanted, summary) + "".join("\n  " + r for r in reasons))
    return counts, kinds, reasons, summary


def link_model(args, name, inputs, outputs, summary, objects, link, work):
    """OUTDIR/libmodel.so with its model table (--shared), or OUTDIR/model
    with a generated harness."""
    out = args.output
    if args.shared:
        abi = os.path.join(work, "model_abi.c")
        with open(abi, "w") as f:
            f.write(generate_abi(name, inputs, outputs, args.target,
                                 args.precision, summary))
        abi_obj = os.path.join(work, "model_abi.o")
        run([os.environ.get("CC", "cc"), "-c", "-fPIC", "-O2",
             "-I" + os.path.join(ROOT, "runtime"), abi, "-o", abi_obj])
        run([args.cxx, "-shared"] + objects + [abi_obj, "-o",
             os.path.join(out, "libmodel.so")]
            + link + ["-lm"])
        with open(os.path.join(out, "model.h"), "w") as f:
            f.write("// @%s of %s; see signature.json for the types.\n"
                    "// Memref descriptors: {allocated, aligned, offset, "
                    "sizes[rank], strides[rank]};\n// GPU builds take and "
                    "return GPU memory.\n#ifdef __cplusplus\nextern \"C\"\n"
                    "#endif\nvoid _mlir_ciface_%s(void *results, ...);\n"
                    % (name, os.path.basename(args.model), name))
    else:
        harness = os.path.join(out, "harness.cpp")
        with open(harness, "w") as f:
            f.write(generate_harness(name, inputs, outputs, args.target))
        run([args.cxx, "-O2", "-std=c++17", harness] + objects + ["-o",
             os.path.join(out, "model")] + link + ["-lm"])


def parse_args():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("model")
    parser.add_argument("-o", "--output", required=True, help="output folder")
    parser.add_argument("--entry", help="entry function (default: the first "
                        "public function with a body)")
    parser.add_argument("--target", choices=["gpu", "cpu"], default="gpu")
    parser.add_argument("--precision",
                        choices=["f16", "bf16", "f8E4M3FN", "f8E5M2", "fp32"],
                        default="f16", help="f16/bf16: run --amp-mixed-"
                        "precision first; fp32: compile the model as it is")
    parser.add_argument("--mixed-precision-options", default="",
                        help="extra options of --amp-mixed-precision")
    parser.add_argument("--randomize-weights", action="store_true",
                        help="replace the weights by seeded random values "
                        "(amp-run --randomize-weights: the same values for "
                        "the same --seed)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of --randomize-weights")
    parser.add_argument("--chip", default="sm_90a")
    parser.add_argument("--format", default="fatbin",
                        choices=["isa", "bin", "fatbin"])
    parser.add_argument("--opt-level", default="3")
    parser.add_argument("--pipeline-options", default="",
                        help="extra options of --amp-gpu-pipeline")
    parser.add_argument("--shared", action="store_true",
                        help="build libmodel.so instead of an executable: "
                        "the C API (amp_model.h) and `import amp` load it")
    parser.add_argument("--dim", action="append", default=[],
                        metavar="ARG:AXIS=MIN:MAX",
                        help="the range of a dynamic size (`?`) of an input "
                        "(ARG: its index or name); the harness takes the "
                        "sizes with --shape INPUT:DIMS at run time")
    parser.add_argument("--strict", action="store_true",
                        help="fail when a contraction does not get the "
                        "precision --precision asks for")
    parser.add_argument("--amp-opt", default=None,
                        help="amp-opt to use (default: build/bin/amp-opt)")
    parser.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin",
                        help="folder with mlir-translate and llc")
    parser.add_argument("--runtime", default=None,
                        help="libamp_cuda_runtime.so (default: "
                        "build/lib/libamp_cuda_runtime.so)")
    parser.add_argument("--cxx", default=os.environ.get("CXX", "c++"))
    parser.add_argument("--keep", action="store_true",
                        help="keep the intermediate MLIR and LLVM IR")
    return parser.parse_args()


def main():
    args = parse_args()

    amp_opt = args.amp_opt or os.path.join(ROOT, "build", "bin", "amp-opt")
    runtime = args.runtime or os.path.join(ROOT, "build", "lib",
                                           "libamp_cuda_runtime.so")
    translate = os.path.join(args.llvm_bin, "mlir-translate")
    llc = os.path.join(args.llvm_bin, "llc")
    for tool in [amp_opt, translate, llc]:
        if not os.path.exists(tool):
            fail("%s not found" % tool)
    if args.target == "gpu" and not os.path.exists(runtime):
        fail("%s not found (build it: ninja -C build amp_cuda_runtime)" %
             runtime)
    if args.target == "gpu" and args.format != "isa" and \
            not find_ptxas(args.pipeline_options):
        fail("--format %s needs a CUDA toolkit (ptxas), and none was found "
             "(toolkit= in --pipeline-options, CUDA_ROOT, CUDA_HOME, "
             "CUDA_PATH, /usr/local/cuda); --format isa needs none (PTX, "
             "compiled by the driver when the program starts)" % args.format)

    out = args.output
    os.makedirs(out, exist_ok=True)
    work = os.path.join(out, "build")
    os.makedirs(work, exist_ok=True)

    # 1. The model, prepared and converted, and its signature.
    source, report, name, inputs, outputs, layer_counts = prepare_model(
        args, amp_opt, work)

    # 2. Lowering.
    lowered = os.path.join(work, "model.llvm.mlirbc")
    if args.target == "gpu":
        pipeline = "chip=%s format=%s opt-level=%s %s" % (
            args.chip, args.format, args.opt_level, args.pipeline_options)
        run([amp_opt, source, "--amp-gpu-pipeline=" + pipeline.strip(),
             "--emit-bytecode", "-o", lowered])
    else:
        run([amp_opt, source, "--pass-pipeline=builtin.module(%s)" %
             CPU_PIPELINE, "--emit-bytecode", "-o", lowered])

    # 3. LLVM IR and object code. Large weights go to a binary file that an
    # assembler file includes: LLVM never reads them (the textual IR of
    # VGG-16's weights is gigabytes, and llc would need more than 10 GB).
    external = os.path.join(work, "model.external.mlirbc")
    # amp's own attributes (amp.policy on the module) go too: a stock
    # mlir-translate cannot read them.
    run([amp_opt, lowered, "--emit-bytecode", "--amp-strip-annotations",
         "--amp-externalize-weights=dir=" + work, "-o", external])
    weights = os.path.join(out, "weights.o")
    run([args.cxx, "-c", os.path.join(work, "weights.s"), "-o", weights])
    llvm_ir = os.path.join(work, "model.ll")
    run([translate, "--mlir-to-llvmir", external, "-o", llvm_ir])
    obj = os.path.join(out, "model.o")
    run([llc, "-O3", "-relocation-model=pic", "-filetype=obj", llvm_ir,
         "-o", obj])
    if name == "main":
        # The model's own @main would clash with the harness's main; its C
        # interface (_mlir_ciface_main) is what the harness calls.
        run([os.path.join(args.llvm_bin, "llvm-objcopy"),
             "--redefine-sym", "main=amp_model_main", obj])

    counts, kinds, reasons, summary = what_was_built(
        args, report, layer_counts, lowered, inputs)

    signature = {"entry": name, "target": args.target,
                 "precision": args.precision, "chip": args.chip,
                 "format": args.format, "inputs": inputs, "outputs": outputs,
                 "model": os.path.abspath(args.model), "summary": summary,
                 "contractions": counts, "kernels": kinds,
                 "fallbacks": reasons}
    with open(os.path.join(out, "signature.json"), "w") as f:
        json.dump(signature, f, indent=2)

    link = []
    if args.target == "gpu":
        shutil.copy2(runtime, os.path.join(out, "libamp_cuda_runtime.so"))
        # The runtime loads the driver (libcuda.so.1) when the program
        # starts: nothing of CUDA is needed to link.
        link = ["-L" + out, "-lamp_cuda_runtime", "-Wl,-rpath,$ORIGIN"]
    else:
        # memref.copy of strided views lowers to a call to MLIR's
        # memrefCopy (libmlir_c_runner_utils): the CPU reference runs on
        # this machine, next to LLVM.
        libdir = os.path.join(os.path.dirname(os.path.abspath(args.llvm_bin)),
                              "lib")
        link = ["-L" + libdir, "-lmlir_c_runner_utils",
                "-Wl,-rpath," + libdir]

    # 4. Harness (or shared library) and link.
    link_model(args, name, inputs, outputs, summary, [obj, weights], link,
               work)

    if not args.keep:
        shutil.rmtree(work)
    print("amp-compile: @%s -> %s (%s, %s%s): %s" % (
        name, os.path.join(out, "libmodel.so" if args.shared else "model"),
        args.target, args.precision,
        ", %s %s" % (args.chip, args.format) if args.target == "gpu" else "",
        summary))
    for reason in reasons[:1]:
        print("amp-compile: note: " + reason +
              (" (and %d more in signature.json)" % (len(reasons) - 1)
               if len(reasons) > 1 else ""))


if __name__ == "__main__":
    main()
