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
executable: call `_mlir_ciface_<entry>` with memref descriptors that point to
GPU memory.

The executable:

    OUTDIR/model [--iters N] [--warmup N] [--seed S] [--inputs DIR]
                 [--save-inputs DIR] [--outputs DIR] [--quiet]

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
    if any(d == "?" for d in dims):
        fail("dynamic shapes are not supported by the harness: " + text)
    if elt not in ELEMENT_TYPES:
        fail("element type %s is not supported by the harness" % elt)
    return {"shape": [int(d) for d in dims], "type": elt}


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
            args.append(parsed)
        results = []
        for res in split_top_level(results_text):
            res = re.sub(r"\{.*\}\s*$", "", res).strip()
            parsed = parse_tensor_type(res)
            if not parsed:
                fail("result type %s of @%s is not supported by the harness"
                     % (res, name))
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
            shape = ", ".join(str(d) for d in t["shape"]) or ""
            rows.append('  {"%s", %d, %d, "%s", {%s}, %r},' % (
                t["type"], size, len(t["shape"]), kind, shape,
                float(t.get("bound", 1.0))))
        return "\n".join(rows) if rows else "  {\"\", 0, 0, \"\", {}, 1.0},"

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


def main():
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
                        help="build libmodel.so instead of an executable")
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
    args = parser.parse_args()

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

    # 1. The entry, isolated from harness code (printing and timing calls,
    # a @main; amp-run does the same), optionally with random weights; then
    # mixed precision. Each step writes a file of its own, as MLIR bytecode:
    # weights are raw bytes there, not text (VGG-16's random weights are a
    # gigabyte of hexadecimal).
    prepared = os.path.join(work, "model.prepared.mlirbc")
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
        options = "target-type=%s %s" % (args.precision,
                                          args.mixed_precision_options)
        run([amp_opt, prepared, "--emit-bytecode",
             "--amp-mixed-precision=" + options.strip(), "-o", source])
    # The signature, from a text copy without the weights.
    signature_text = run([amp_opt, source,
                          "--mlir-elide-elementsattrs-if-larger=16",
                          "--mlir-elide-resource-strings-if-larger=16"]).stdout
    name, inputs, outputs = find_signature(signature_text, args.entry)

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

    signature = {"entry": name, "target": args.target,
                 "precision": args.precision, "chip": args.chip,
                 "format": args.format, "inputs": inputs, "outputs": outputs,
                 "model": os.path.abspath(args.model)}
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
    if args.shared:
        run([args.cxx, "-shared", obj, weights, "-o",
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
        run([args.cxx, "-O2", "-std=c++17", harness, obj, weights, "-o",
             os.path.join(out, "model")] + link + ["-lm"])

    if not args.keep:
        shutil.rmtree(work)
    print("amp-compile: @%s -> %s (%s, %s%s)" % (
        name, os.path.join(out, "libmodel.so" if args.shared else "model"),
        args.target, args.precision,
        ", %s %s" % (args.chip, args.format) if args.target == "gpu" else ""))


if __name__ == "__main__":
    main()
