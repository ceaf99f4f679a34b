# -*- Python -*-
# lit configuration of the amp test suite.

import ctypes
import os
import shutil
import subprocess
import sys

import lit.formats
import lit.util
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "AMP"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lib", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.amp_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%amp_src_root", config.amp_src_root))
config.substitutions.append(("%amp_obj_root", config.amp_obj_root))
config.substitutions.append(("%amp_lib_dir", config.amp_lib_dir))
config.substitutions.append(
    ("%amp_plugin", os.path.join(config.amp_lib_dir, "AmpPlugin.so")))
config.substitutions.append(
    ("%corpus", os.path.join(config.amp_src_root, "third_party", "corpus")))
# Longer names first: lit substitutes in order.
config.substitutions.append(("%cmake_generator", config.cmake_generator))
config.substitutions.append(("%cmake_make_program", config.cmake_make_program))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%mlir_dir", config.mlir_dir))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

llvm_config.with_environment("PATH", config.amp_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# Sanitizer builds (AMP_USE_SANITIZER): amp's tools carry the sanitizer
# runtime, but the stock mlir-opt that loads AmpPlugin.so does not, so it runs
# with the runtime preloaded. Leak checking stays on.
def _sanitizer_runtime():
    import subprocess
    if "Address" in config.amp_use_sanitizer:
        names = ["libclang_rt.asan-x86_64.so", "libasan.so"]
    elif "Undefined" in config.amp_use_sanitizer:
        names = ["libclang_rt.ubsan_standalone-x86_64.so", "libubsan.so"]
    else:
        return None
    for name in names:
        path = subprocess.run([config.cxx_compiler, f"-print-file-name={name}"],
                              capture_output=True, text=True).stdout.strip()
        if os.path.isabs(path) and os.path.exists(path):
            return path
    return None


if config.amp_use_sanitizer:
    config.available_features.add("sanitizers")
    if "Address" in config.amp_use_sanitizer:
        config.available_features.add("asan")

# The stock mlir-opt of the same LLVM, for the plugin tests. Feature
# `plugin-host`: it can load this build's AmpPlugin.so (always, except in a
# sanitizer build whose runtime cannot be found).
mlir_opt = os.path.join(config.llvm_tools_dir, "mlir-opt")
runtime = _sanitizer_runtime()
if runtime:
    mlir_opt = f"env LD_PRELOAD={runtime} {mlir_opt}"
if not config.amp_use_sanitizer or runtime:
    config.available_features.add("plugin-host")
tools = [
    "amp-compile-bench",
    ToolSubst("amp-import-onnx", unresolved="ignore"),
    ToolSubst("amp-convert-onnx", unresolved="ignore"),
    ToolSubst("amp-onnx-fuzzer", unresolved="ignore"),
    "amp-opt",
    "amp-run",
    "amp-tune",
    ToolSubst("%mlir-opt", command=mlir_opt,
              unresolved="ignore" if runtime else "fatal"),
]
llvm_config.add_tool_substitutions(tools, [config.amp_tools_dir])

# Fuzzers. The fuzz targets always exist; with AMP_ENABLE_FUZZERS they are
# libFuzzer binaries (feature `libfuzzer`), otherwise they only replay the
# inputs they are given.
if config.amp_enable_fuzzers in ("ON", "1", "TRUE", "YES", "On", "True"):
    config.available_features.add("libfuzzer")
config.substitutions.append(
    ("%make_seeds", os.path.join(config.amp_src_root, "fuzz", "make-seeds.py")))

# mlir-runner and its runtime libraries, for the numerical tests.
mlir_runner = os.path.join(config.llvm_tools_dir, "mlir-runner")
runner_libs = [os.path.join(config.llvm_lib_dir, name + ".so")
               for name in ("libmlir_runner_utils", "libmlir_c_runner_utils")]
if os.path.exists(mlir_runner) and all(map(os.path.exists, runner_libs)):
    config.available_features.add("mlir-runner")
    config.substitutions.append(("%mlir-runner", mlir_runner))
    config.substitutions.append(("%mlir_runner_utils", runner_libs[0]))
    config.substitutions.append(("%mlir_c_runner_utils", runner_libs[1]))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(
    ("%extract-ptx", "%s %s" % (sys.executable, os.path.join(
        config.amp_src_root, "scripts", "amp-extract-ptx.py"))))
config.substitutions.append(
    ("%amp-compile", "%s %s --amp-opt %s --llvm-bin %s --runtime %s" % (
        sys.executable,
        os.path.join(config.amp_src_root, "tools", "amp-compile",
                     "amp-compile.py"),
        os.path.join(config.amp_tools_dir, "amp-opt"), config.llvm_tools_dir,
        os.path.join(config.amp_lib_dir, "libamp_cuda_runtime.so"))))
config.substitutions.append(
    ("%amp-compare", "%s %s" % (sys.executable, os.path.join(
        config.amp_src_root, "scripts", "amp-compare.py"))))
config.substitutions.append(("%llvm_tools_dir", config.llvm_tools_dir))

# Optional parts, for REQUIRES: lines.
#  ptxas        a CUDA toolkit was found when amp was configured;
#  cuda-driver  a CUDA driver and at least one GPU are usable here.
if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
    config.substitutions.append(
        ("%cuda_root", os.path.dirname(os.path.dirname(config.ptxas))))

#  cuda-headers  the toolkit's cuda.h, to check runtime/CudaDriverApi.h
#                against it.
if config.cuda_include_dir and os.path.exists(
        os.path.join(config.cuda_include_dir, "cuda.h")):
    config.available_features.add("cuda-headers")
    config.substitutions.append(("%cuda_include_dir", config.cuda_include_dir))

#  amp-cuda-runtime  libamp_cuda_runtime.so was built (always, with or
#                    without a toolkit); GPU-free tests inspect, link and
#                    run against it.
amp_cuda_runtime = os.path.join(config.amp_lib_dir, "libamp_cuda_runtime.so")
if os.path.exists(amp_cuda_runtime):
    config.available_features.add("amp-cuda-runtime")
config.substitutions.append(("%amp_cuda_runtime", amp_cuda_runtime))


def _cuda_compute_capability():
    """(major, minor) of GPU 0, or None when no GPU is usable."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None
    count = ctypes.c_int(0)
    if cuda.cuInit(0) != 0:
        return None
    if cuda.cuDeviceGetCount(ctypes.byref(count)) != 0 or count.value < 1:
        return None
    major, minor = ctypes.c_int(0), ctypes.c_int(0)
    # CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75, MINOR = 76.
    cuda.cuDeviceGetAttribute(ctypes.byref(major), 75, 0)
    cuda.cuDeviceGetAttribute(ctypes.byref(minor), 76, 0)
    return major.value, minor.value


#  cuda-driver  a usable GPU (the GPU-run tests need sm_80 or newer);
#  cuda-sm90    it is an sm_90 (Hopper) GPU: the wgmma (sm_90a) tests.
_capability = _cuda_compute_capability()
if _capability and _capability >= (8, 0):
    config.available_features.add("cuda-driver")
if _capability and _capability[0] == 9:
    config.available_features.add("cuda-sm90")

#  gpu-emulator  amp's PTX emulator and its stand-in libcuda.so.1 (always
#                built). The tests in test/GPU run their programs with
#                %gpu-run (any sm_80+ GPU) or %gpu-run-sm90 (wgmma): on the
#                GPU when there is one, else under amp-emulate. `lit --param
#                gpu=emulator` uses the emulator even where a GPU is.
amp_emulate = os.path.join(config.amp_tools_dir, "amp-emulate")
emulated_driver = os.path.join(config.amp_lib_dir, "emulator", "libcuda.so.1")
if os.path.exists(amp_emulate) and os.path.exists(emulated_driver):
    config.available_features.add("gpu-emulator")
    config.substitutions.append(("%amp-emulate", amp_emulate))
force_emulator = lit_config.params.get("gpu") == "emulator"
on_gpu = "cuda-driver" in config.available_features and not force_emulator
on_sm90 = "cuda-sm90" in config.available_features and not force_emulator
# Longer names first: lit substitutes in order.
config.substitutions.append(
    ("%gpu-run-sm90", "env" if on_sm90 else amp_emulate))
config.substitutions.append(("%gpu-run", "env" if on_gpu else amp_emulate))
if on_gpu or on_sm90:
    config.available_features.add("real-gpu")
#  torch  PyTorch imports in this Python (the PyTorch versions of the
#         end-to-end models, bench/gpu/torch_e2e.py, are checked on the CPU).
if subprocess.run([sys.executable, "-c", "import torch"],
                  capture_output=True).returncode == 0:
    config.available_features.add("torch")

# FP8 on the CPU and in amp-compile, which the FP8 GPU tests compare with:
#   amp-cpu-fp8    amp-compile's CPU lowering expands FP8 conversions
#                  (--amp-expand-fp8): a CPU FP8 build of an FP8 model
#   amp-fp8-mixed-precision  --amp-mixed-precision takes FP8 target types
with open(os.path.join(config.amp_src_root, "tools", "amp-compile",
                       "amp-compile.py")) as _f:
    if "amp-expand-fp8" in _f.read():
        config.available_features.add("amp-cpu-fp8")
_probe = subprocess.run(
    [os.path.join(config.amp_tools_dir, "amp-opt"), "-",
     "--amp-mixed-precision=target-type=f8E4M3FN"],
    input="module {}", capture_output=True, text=True)
if _probe.returncode == 0:
    config.available_features.add("amp-fp8-mixed-precision")

# `lit --param gpu_record=DIR`: the GPU-run tests also record their programs
# and reference outputs in DIR, for bench/gpu/device-run.sh on a GPU host
# without LLVM (test/GPU/Inputs/run-vs-cpu.sh).
if lit_config.params.get("gpu_record"):
    config.environment["AMP_GPU_RECORD"] = os.path.abspath(
        lit_config.params["gpu_record"])

# Pass statistics are compiled out of release builds of LLVM.
llvm_config_tool = os.path.join(config.llvm_tools_dir, "llvm-config")
if os.path.exists(llvm_config_tool):
    mode = subprocess.run([llvm_config_tool, "--assertion-mode"],
                          capture_output=True, text=True).stdout.strip()
    if mode == "ON":
        config.available_features.add("pass-statistics")

# The integration tests of the slowest corpus models (minutes each on a small
# machine) run only when asked: `lit --param long_tests=1 build/test` or
# AMP_LONG_TESTS=1 in the environment.
if lit_config.params.get("long_tests") or os.environ.get("AMP_LONG_TESTS"):
    config.available_features.add("long-tests")

#  chromium  a Chromium (Debian's `chromium`) to load the HTML reports in;
#            %chromium runs it headless, without the sandbox (which cannot
#            start as root) or a GPU. Each test passes its own
#            --user-data-dir, so that tests running at once do not share a
#            profile.
for _name in ("chromium", "chromium-browser", "google-chrome"):
    _chromium = shutil.which(_name)
    if _chromium:
        config.available_features.add("chromium")
        config.substitutions.append((
            "%chromium",
            _chromium + " --headless --no-sandbox --disable-gpu --no-first-run"
            " --no-default-browser-check --disable-extensions --hide-scrollbars"
            " --virtual-time-budget=10000"))
        break

# Tests that build a small CMake project need a C++ compiler and CMake.
if shutil.which(config.cmake_command) and os.path.exists(config.cxx_compiler):
    config.available_features.add("cmake")
# The compilers of the sanitizer configuration test: clang-22 as `make
# check-asan` uses it when it is installed, else the build's own compiler.
sanitizer_cxx = shutil.which("clang++-22")
sanitizer_cc = shutil.which("clang-22")
if not (sanitizer_cxx and sanitizer_cc):
    sanitizer_cxx = config.cxx_compiler
    sanitizer_cc = shutil.which("cc") or "cc"
config.substitutions.append(("%sanitizer-cxx", sanitizer_cxx))
config.substitutions.append(("%sanitizer-cc", sanitizer_cc))

# ONNX (issue 34).
#   amp-import-onnx  the importer was built (CMake found libonnx-dev);
#   python-onnx      this Python imports onnx (python3-onnx), to write the
#                    small test models;
#   onnx-testdata    Debian's libonnx-testdata node tests are installed.
if os.path.exists(os.path.join(config.amp_tools_dir, "amp-import-onnx")):
    config.available_features.add("amp-import-onnx")
if subprocess.run([sys.executable, "-c", "import onnx"],
                  capture_output=True).returncode == 0:
    config.available_features.add("python-onnx")
onnx_testdata = "/usr/share/libonnx-testdata/data/node"
if os.path.isdir(onnx_testdata):
    config.available_features.add("onnx-testdata")
config.substitutions.append(("%onnx_testdata", onnx_testdata))

# ONNX Runtime (issue 44): onnxruntime-node from the npm registry, which
# scripts/install-onnxruntime.sh (run by `make check`) puts in .deps/.
#   onnxruntime      node and the package are there; %ort-run runs a model
#                    in ORT's CPU provider (scripts/ort-run.js).
#   amp-convert-onnx the exporter was built.
ort_modules = os.environ.get(
    "AMP_ONNXRUNTIME_NODE_MODULES",
    os.path.join(config.amp_src_root, ".deps", "onnxruntime", "node_modules"))
node = shutil.which("node")
if node and os.path.isfile(
        os.path.join(ort_modules, "onnxruntime-node", "package.json")):
    config.available_features.add("onnxruntime")
config.substitutions.append(("%ort_modules", ort_modules))
config.substitutions.append(
    ("%ort-run", "env NODE_PATH=%s %s %s" % (
        ort_modules, node or "node",
        os.path.join(config.amp_src_root, "scripts", "ort-run.js"))))
if os.path.exists(os.path.join(config.amp_tools_dir, "amp-convert-onnx")):
    config.available_features.add("amp-convert-onnx")
