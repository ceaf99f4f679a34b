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

# The stock mlir-opt of the same LLVM, for the plugin tests.
mlir_opt = os.path.join(config.llvm_tools_dir, "mlir-opt")
tools = [
    "amp-opt",
    "amp-run",
    ToolSubst("%mlir-opt", command=mlir_opt, unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, [config.amp_tools_dir])

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

# The integration tests of the slowest corpus models (minutes each on a small
# machine) run only when asked: `lit --param long_tests=1 build/test` or
# AMP_LONG_TESTS=1 in the environment.
if lit_config.params.get("long_tests") or os.environ.get("AMP_LONG_TESTS"):
    config.available_features.add("long-tests")

# Tests that build a small CMake project need a C++ compiler and CMake.
if shutil.which(config.cmake_command) and os.path.exists(config.cxx_compiler):
    config.available_features.add("cmake")
