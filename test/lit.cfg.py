# -*- Python -*-
# lit configuration of the amp test suite.

import ctypes
import os
import shutil

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
    "amp-opt",
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

# Optional parts, for REQUIRES: lines.
#  ptxas        a CUDA toolkit was found when amp was configured;
#  cuda-driver  a CUDA driver and at least one GPU are usable here.
if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))


def _cuda_driver_usable():
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int(0)
    if cuda.cuInit(0) != 0:
        return False
    if cuda.cuDeviceGetCount(ctypes.byref(count)) != 0:
        return False
    return count.value > 0


if _cuda_driver_usable():
    config.available_features.add("cuda-driver")

# Pass statistics are compiled out of release builds of LLVM.
llvm_config_tool = os.path.join(config.llvm_tools_dir, "llvm-config")
if os.path.exists(llvm_config_tool):
    import subprocess
    mode = subprocess.run([llvm_config_tool, "--assertion-mode"],
                          capture_output=True, text=True).stdout.strip()
    if mode == "ON":
        config.available_features.add("pass-statistics")

# Tests that build a small CMake project need a C++ compiler and CMake.
if shutil.which(config.cmake_command) and os.path.exists(config.cxx_compiler):
    config.available_features.add("cmake")
