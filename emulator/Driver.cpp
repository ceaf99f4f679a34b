//===- Driver.cpp - A stand-in libcuda.so.1 on the PTX emulator -----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CUDA driver entry points that libamp_cuda_runtime.so resolves
// (runtime/CudaDriverApi.h, AMP_CUDA_DRIVER_ENTRY_POINTS), and a few more
// that tools probing for a GPU call, implemented over the emulator: one
// emulated device with one context; modules are PTX (cubins cannot be
// emulated: the error says how to build PTX); streams and events exist but
// every operation completes before its call returns. A stream capture
// (cuStreamBeginCapture) records the launches, copies and fills issued to
// the stream instead of running them, and a graph launch runs the record in
// order; allocations made during the capture keep their addresses for the
// graph's life, as a real graph's do. Captures behave as in relaxed mode;
// synchronizing a capturing stream (or the context while one captures)
// fails and invalidates the capture, as on a GPU.
//
// As with a real driver, a kernel that faults leaves the context unusable:
// the launch and every later call return the error (ILLEGAL_ADDRESS,
// MISALIGNED_ADDRESS, ILLEGAL_INSTRUCTION, LAUNCH_FAILED), and the
// emulator's message, which names the check, the kernel, the PTX line and
// the thread, is printed on stderr.
//
// Settings come from the environment (see Options::fromEnvironment, and
// AMP_EMULATOR_FILL=nan|zero for the contents of new allocations: by default
// every byte is 0xff, so that a kernel reading memory it never wrote sees
// NaNs, as it could see garbage on a GPU).
//
//===----------------------------------------------------------------------===//

#include "Emulator.h"
#include "TensorMap.h"

#include "CudaDriverApi.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

using namespace amp::cuda;
using amp::emu::Device;
using amp::emu::LaunchConfig;
using amp::emu::LaunchError;
using amp::emu::LaunchResult;
using amp::emu::Options;

#define AMP_DRIVER_EXPORT extern "C" __attribute__((visibility("default")))

// The handles the API hands out point to these (CudaDriverApi.h declares
// the structs in amp::cuda).
namespace amp {
namespace cuda {
struct CUctx_st {
  int unused;
};
struct CUmod_st {
  std::shared_ptr<amp::emu::Module> module;
};
struct CUfunc_st {
  CUmod_st *module;
  const amp::emu::Kernel *kernel;
  uint32_t maxDynamicShared;
};
/// What a stream capture recorded: the operations in the order they were
/// issued, and the allocations the captured work freed (kept until the
/// record goes: a replay uses them again).
struct GraphRecording {
  std::vector<std::function<CUresult()>> operations;
  /// Allocated during the capture, [start, end): as on a GPU, the driver
  /// cannot describe them (cuPointerGetAttribute) until the capture ends.
  std::vector<std::pair<CUdeviceptr, CUdeviceptr>> allocations;
  std::vector<CUdeviceptr> freedInside;
  bool invalidated = false;
  ~GraphRecording();
};
struct CUgraph_st {
  std::shared_ptr<GraphRecording> recording;
};
struct CUgraphExec_st {
  std::shared_ptr<GraphRecording> recording;
};
struct CUstream_st {
  /// The capture in progress on this stream, or null.
  std::shared_ptr<GraphRecording> capture;
};
struct CUevent_st {
  int unused;
};
} // namespace cuda
} // namespace amp

namespace {

/// The driver's state. It is never destroyed: programs unload modules and
/// free memory from their own global destructors, which may run after ours.
struct State {
  std::mutex mutex;
  Options options;
  Device *device = nullptr;
  CUctx_st context;
  CUresult sticky = CUDA_SUCCESS;
  std::set<CUmod_st *> modules;
  std::set<CUfunc_st *> functions;
  std::set<CUstream_st *> streams;
  std::set<CUevent_st *> events;
  std::set<CUgraph_st *> graphs;
  std::set<CUgraphExec_st *> graphExecs;
  std::map<uint64_t, void *> managed; // device address -> host block
  bool fillZero = false;
};
State &state = *new State;
thread_local CUcontext current = nullptr;

#define LOCK std::lock_guard<std::mutex> lock(state.mutex)

/// Counts a driver call for --profile (inside the profiled range).
static void noteCall(const char *name) {
  if (state.device && state.options.profile)
    state.device->profiler().countCall(name);
}

void printStatistics() {
  if (state.device)
    state.device->printStatistics();
}

CUresult notInitialized() { return CUDA_ERROR_NOT_INITIALIZED; }

/// The checks every call in a context does.
CUresult ready() {
  if (!state.device)
    return notInitialized();
  if (state.sticky != CUDA_SUCCESS)
    return state.sticky;
  return CUDA_SUCCESS;
}

CUresult fromLaunch(const LaunchResult &r) {
  switch (r.error) {
  case LaunchError::None:
    return CUDA_SUCCESS;
  case LaunchError::InvalidValue:
    return CUDA_ERROR_INVALID_VALUE;
  case LaunchError::IllegalAddress:
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  case LaunchError::MisalignedAddress:
    return CUDA_ERROR_MISALIGNED_ADDRESS;
  case LaunchError::IllegalInstruction:
    return CUDA_ERROR_ILLEGAL_INSTRUCTION;
  case LaunchError::LaunchFailed:
    return CUDA_ERROR_LAUNCH_FAILED;
  }
  return CUDA_ERROR_UNKNOWN;
}

/// Host bytes of [address, address + bytes): device memory (checked) or
/// host memory (taken as is, as with unified addressing).
uint8_t *bytesAt(CUdeviceptr address, size_t bytes, const char *what) {
  if (!state.device->memory().isDeviceAddress(address))
    return reinterpret_cast<uint8_t *>(address);
  std::string why;
  uint8_t *p = state.device->memory().translate(address, bytes, &why);
  if (!p)
    fprintf(
        stderr,
        "amp-emulator: error: %s of %zu bytes at state.device address 0x%llx: "
        "%s\n",
        what, bytes, static_cast<unsigned long long>(address), why.c_str());
  return p;
}

CUresult launch(CUfunc_st *f, const LaunchConfig &config, void **params,
                void **extra) {
  if (!state.functions.count(f))
    return CUDA_ERROR_INVALID_HANDLE;
  std::vector<void *> fromBuffer;
  if (!params && extra) {
    // CU_LAUNCH_PARAM_BUFFER_POINTER (1), CU_LAUNCH_PARAM_BUFFER_SIZE (2),
    // CU_LAUNCH_PARAM_END (0).
    char *buffer = nullptr;
    for (int i = 0; extra[i]; i += 2) {
      if (extra[i] == reinterpret_cast<void *>(1))
        buffer = static_cast<char *>(extra[i + 1]);
    }
    if (!buffer)
      return CUDA_ERROR_INVALID_VALUE;
    for (const auto &p : f->kernel->params)
      fromBuffer.push_back(buffer + p.offset);
    params = fromBuffer.data();
  }
  LaunchConfig c = config;
  c.maxDynamicSharedBytes = f->maxDynamicShared;
  LaunchResult r =
      state.device->launch(*f->module->module, *f->kernel, c, params);
  if (r.ok())
    return CUDA_SUCCESS; // (in warn mode, the reports were printed)
  fprintf(stderr, "amp-emulator: error: %s\n", r.message.c_str());
  CUresult e = fromLaunch(r);
  if (e != CUDA_ERROR_INVALID_VALUE)
    state.sticky = e; // the context is lost, as on a GPU
  return e;
}

/// The capture in progress on `stream`, or null.
GraphRecording *capturing(CUstream stream) {
  return stream && state.streams.count(stream) ? stream->capture.get()
                                               : nullptr;
}

/// Records a launch into `graph`: the parameters are copied now, as the
/// driver does, since the caller's buffers are gone by the replay.
CUresult recordLaunch(GraphRecording &graph, CUfunc_st *f,
                      const LaunchConfig &config, void **params, void **extra) {
  if (!state.functions.count(f))
    return CUDA_ERROR_INVALID_HANDLE;
  const amp::emu::Kernel &kernel = *f->kernel;
  const char *buffer = nullptr;
  if (!params) {
    for (int i = 0; extra && extra[i]; i += 2)
      if (extra[i] == reinterpret_cast<void *>(1))
        buffer = static_cast<const char *>(extra[i + 1]);
    if (!buffer)
      return CUDA_ERROR_INVALID_VALUE;
  }
  std::vector<uint8_t> bytes(kernel.paramBytes);
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const amp::emu::Param &p = kernel.params[i];
    const void *from = params ? params[i] : buffer + p.offset;
    std::memcpy(bytes.data() + p.offset, from, p.size);
  }
  graph.operations.push_back([f, config, bytes]() mutable {
    std::vector<void *> values;
    for (const amp::emu::Param &p : f->kernel->params)
      values.push_back(bytes.data() + p.offset);
    return launch(f, config, values.data(), nullptr);
  });
  return CUDA_SUCCESS;
}

/// Destroys `handle` if it is one of the `live` handles of its kind.
template <typename T> CUresult destroyHandle(std::set<T *> &live, T *handle) {
  if (!live.erase(handle))
    return CUDA_ERROR_INVALID_HANDLE;
  delete handle;
  return CUDA_SUCCESS;
}

/// Whether any stream is capturing (the context cannot be synchronized).
bool anyCapture() {
  for (CUstream_st *s : state.streams)
    if (s->capture)
      return true;
  return false;
}

} // namespace

//===----------------------------------------------------------------------===//
// Errors, initialization, devices
//===----------------------------------------------------------------------===//

static const std::pair<CUresult, const char *> kErrorNames[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT"},
    {CUDA_ERROR_NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
    {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS"},
    {CUDA_ERROR_ILLEGAL_INSTRUCTION, "CUDA_ERROR_ILLEGAL_INSTRUCTION"},
    {CUDA_ERROR_MISALIGNED_ADDRESS, "CUDA_ERROR_MISALIGNED_ADDRESS"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED"},
    {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED"},
    {CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
     "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"},
    {CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
     "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"},
    {CUDA_ERROR_ILLEGAL_STATE, "CUDA_ERROR_ILLEGAL_STATE"},
    {CUDA_ERROR_INVALID_CLUSTER_SIZE, "CUDA_ERROR_INVALID_CLUSTER_SIZE"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN"},
};

static const char *errorDescription(CUresult e) {
  switch (e) {
  case CUDA_SUCCESS:
    return "no error";
  case CUDA_ERROR_INVALID_VALUE:
    return "invalid argument";
  case CUDA_ERROR_OUT_OF_MEMORY:
    return "out of memory";
  case CUDA_ERROR_NOT_INITIALIZED:
    return "initialization error";
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
    return "no kernel image is available for execution on the state.device";
  case CUDA_ERROR_INVALID_PTX:
    return "a PTX JIT compilation failed";
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    return "an illegal memory access was encountered";
  case CUDA_ERROR_MISALIGNED_ADDRESS:
    return "misaligned address";
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    return "an illegal instruction was encountered";
  case CUDA_ERROR_LAUNCH_FAILED:
    return "unspecified launch failure";
  default:
    return "see the emulator's message above";
  }
}

AMP_DRIVER_EXPORT CUresult cuGetErrorName(CUresult error, const char **pStr) {
  noteCall("cuGetErrorName");
  for (const auto &e : kErrorNames)
    if (e.first == error) {
      *pStr = e.second;
      return CUDA_SUCCESS;
    }
  *pStr = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}

AMP_DRIVER_EXPORT CUresult cuGetErrorString(CUresult error, const char **pStr) {
  noteCall("cuGetErrorString");
  *pStr = errorDescription(error);
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuInit(unsigned int flags) {
  noteCall("cuInit");
  LOCK;
  if (flags)
    return CUDA_ERROR_INVALID_VALUE;
  if (!state.device) {
    state.options = Options::fromEnvironment();
    state.device = new Device(state.options);
    std::atexit(printStatistics);
    const char *fill = std::getenv("AMP_EMULATOR_FILL");
    state.fillZero = fill && std::string(fill) == "zero";
  }
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuDriverGetVersion(int *version) {
  noteCall("cuDriverGetVersion");
  *version = 13000;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuDeviceGetCount(int *count) {
  noteCall("cuDeviceGetCount");
  LOCK;
  if (!state.device)
    return notInitialized();
  *count = 1;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuDeviceGet(CUdevice *dev, int ordinal) {
  noteCall("cuDeviceGet");
  LOCK;
  if (!state.device)
    return notInitialized();
  if (ordinal != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *dev = 0;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuDeviceGetAttribute(int *pi,
                                                CUdevice_attribute attrib,
                                                CUdevice dev) {
  noteCall("cuDeviceGetAttribute");
  LOCK;
  if (!state.device)
    return notInitialized();
  if (dev != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  using L = amp::emu::DeviceLimits;
  int sm = state.options.smVersion;
  switch (attrib) {
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *pi = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
    *pi = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
    *pi = 64;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
    *pi = 2147483647;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
    *pi = 65535;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
    *pi = static_cast<int>(L::kDefaultSharedPerBlock);
    break;
  case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY:
    *pi = 65536;
    break;
  case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
    *pi = 32;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK:
    *pi = 65536;
    break;
  case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
    *pi = 1980000;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *pi = static_cast<int>(L::kMultiprocessors);
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR:
    *pi = 2048;
    break;
  case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
  case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY:
  case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED:
    *pi = 1;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *pi = sm / 10;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *pi = sm % 10;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
    *pi = static_cast<int>(L::kSharedPerSM);
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *pi = static_cast<int>(L::kMaxSharedPerBlockOptin);
    break;
  case CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH:
    *pi = sm >= 90;
    break;
  default:
    *pi = 0;
    break;
  }
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
  noteCall("cuDeviceGetName");
  LOCK;
  if (!state.device)
    return notInitialized();
  if (dev != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  snprintf(name, static_cast<size_t>(len), "amp PTX emulator (sm_%d)",
           state.options.smVersion);
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev) {
  noteCall("cuDeviceTotalMem_v2");
  LOCK;
  if (!state.device)
    return notInitialized();
  *bytes = state.device->memory().totalBytes();
  return CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Contexts
//===----------------------------------------------------------------------===//

AMP_DRIVER_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx,
                                                    CUdevice dev) {
  noteCall("cuDevicePrimaryCtxRetain");
  LOCK;
  if (!state.device)
    return notInitialized();
  if (dev != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *pctx = &state.context;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice) {
  noteCall("cuDevicePrimaryCtxRelease_v2");
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuCtxGetCurrent(CUcontext *pctx) {
  noteCall("cuCtxGetCurrent");
  if (!state.device)
    return notInitialized();
  *pctx = current;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx) {
  noteCall("cuCtxSetCurrent");
  if (!state.device)
    return notInitialized();
  if (ctx && ctx != &state.context)
    return CUDA_ERROR_INVALID_CONTEXT;
  current = ctx;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuCtxGetDevice(CUdevice *dev) {
  noteCall("cuCtxGetDevice");
  if (!state.device)
    return notInitialized();
  if (!current)
    return CUDA_ERROR_INVALID_CONTEXT;
  *dev = 0;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuCtxSynchronize() {
  noteCall("cuCtxSynchronize");
  LOCK;
  if (!current)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (anyCapture()) {
    fprintf(stderr, "amp-emulator: error: cuCtxSynchronize while a stream "
                    "is capturing\n");
    for (CUstream_st *s : state.streams)
      if (s->capture)
        s->capture->invalidated = true;
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  }
  return ready();
}

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

static CUresult loadModule(CUmodule *module, const void *image,
                           std::string &log) {
  if (CUresult e = ready())
    return e;
  if (!current)
    return CUDA_ERROR_INVALID_CONTEXT;
  const char *text = static_cast<const char *>(image);
  uint32_t magic;
  std::memcpy(&magic, image, 4);
  if (!std::memcmp(text, "\177ELF", 4) || magic == 0xba55ed50u) {
    log = "the module is a cubin or fatbin (machine code for a real GPU); "
          "the emulator runs PTX: build with `--format isa` (amp-compile) "
          "or `format=isa` (--amp-gpu-pipeline)";
    fprintf(stderr, "amp-emulator: error: %s\n", log.c_str());
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  }
  std::string error;
  std::shared_ptr<amp::emu::Module> parsed =
      state.device->loadModule(std::string(text), error);
  if (!parsed) {
    log = "PTX the emulator cannot load: " + error;
    fprintf(stderr, "amp-emulator: error: %s\n", log.c_str());
    return error.find("targets") != std::string::npos
               ? CUDA_ERROR_NO_BINARY_FOR_GPU
               : CUDA_ERROR_INVALID_PTX;
  }
  auto *m = new CUmod_st{std::move(parsed)};
  state.modules.insert(m);
  *module = m;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuModuleLoadData(CUmodule *module,
                                            const void *image) {
  noteCall("cuModuleLoadData");
  LOCK;
  std::string log;
  return loadModule(module, image, log);
}

AMP_DRIVER_EXPORT CUresult cuModuleLoadDataEx(CUmodule *module,
                                              const void *image,
                                              unsigned int numOptions,
                                              CUjit_option *jitOptions,
                                              void **optionValues) {
  noteCall("cuModuleLoadDataEx");
  LOCK;
  std::string log;
  CUresult e = loadModule(module, image, log);
  if (e != CUDA_SUCCESS) {
    char *buffer = nullptr;
    size_t size = 0;
    for (unsigned i = 0; i < numOptions; ++i) {
      if (jitOptions[i] == CU_JIT_ERROR_LOG_BUFFER)
        buffer = static_cast<char *>(optionValues[i]);
      if (jitOptions[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
        size = reinterpret_cast<size_t>(optionValues[i]);
    }
    if (buffer && size)
      snprintf(buffer, size, "%s", log.c_str());
  }
  return e;
}

AMP_DRIVER_EXPORT CUresult cuModuleUnload(CUmodule module) {
  noteCall("cuModuleUnload");
  LOCK;
  if (!state.modules.erase(module))
    return CUDA_ERROR_INVALID_HANDLE;
  for (auto it = state.functions.begin(); it != state.functions.end();) {
    if ((*it)->module == module) {
      delete *it;
      it = state.functions.erase(it);
    } else {
      ++it;
    }
  }
  delete module;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuModuleGetFunction(CUfunction *hfunc,
                                               CUmodule module,
                                               const char *name) {
  noteCall("cuModuleGetFunction");
  LOCK;
  if (CUresult e = ready())
    return e;
  if (!state.modules.count(module))
    return CUDA_ERROR_INVALID_HANDLE;
  const amp::emu::Kernel *k = module->module->findKernel(name);
  if (!k)
    return CUDA_ERROR_NOT_FOUND;
  for (CUfunc_st *f : state.functions)
    if (f->module == module && f->kernel == k) {
      *hfunc = f;
      return CUDA_SUCCESS;
    }
  auto *f =
      new CUfunc_st{module, k, amp::emu::DeviceLimits::kDefaultSharedPerBlock};
  state.functions.insert(f);
  *hfunc = f;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr,
                                                size_t *bytes, CUmodule module,
                                                const char *name) {
  noteCall("cuModuleGetGlobal_v2");
  LOCK;
  if (!state.modules.count(module))
    return CUDA_ERROR_INVALID_HANDLE;
  auto &m = *module->module;
  auto it = m.symbolIndex.find(name);
  if (it == m.symbolIndex.end() || !m.symbols[it->second].address)
    return CUDA_ERROR_NOT_FOUND;
  if (dptr)
    *dptr = m.symbols[it->second].address;
  if (bytes)
    *bytes = m.symbols[it->second].size;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuFuncSetAttribute(CUfunction hfunc,
                                              CUfunction_attribute attrib,
                                              int value) {
  noteCall("cuFuncSetAttribute");
  LOCK;
  if (!state.functions.count(hfunc))
    return CUDA_ERROR_INVALID_HANDLE;
  if (attrib == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
    uint32_t limit = amp::emu::DeviceLimits::kMaxSharedPerBlockOptin -
                     hfunc->kernel->staticSharedBytes;
    if (value < 0 || static_cast<uint32_t>(value) > limit)
      return CUDA_ERROR_INVALID_VALUE;
    hfunc->maxDynamicShared = static_cast<uint32_t>(value);
    return CUDA_SUCCESS;
  }
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuFuncGetAttribute(int *pi,
                                              CUfunction_attribute attrib,
                                              CUfunction hfunc) {
  noteCall("cuFuncGetAttribute");
  LOCK;
  if (!state.functions.count(hfunc))
    return CUDA_ERROR_INVALID_HANDLE;
  switch (attrib) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *pi = 1024;
    break;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    *pi = static_cast<int>(hfunc->kernel->staticSharedBytes);
    break;
  case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
    *pi = static_cast<int>(hfunc->kernel->localBytes);
    break;
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    *pi = static_cast<int>(hfunc->maxDynamicShared);
    break;
  default:
    *pi = 0;
    break;
  }
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuLaunchKernel(
    CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
    void **kernelParams, void **extra) {
  noteCall("cuLaunchKernel");
  LOCK;
  if (CUresult e = ready())
    return e;
  LaunchConfig c;
  c.grid = {gridDimX, gridDimY, gridDimZ};
  c.block = {blockDimX, blockDimY, blockDimZ};
  c.dynamicSharedBytes = sharedMemBytes;
  if (GraphRecording *graph = capturing(hStream))
    return recordLaunch(*graph, f, c, kernelParams, extra);
  return launch(f, c, kernelParams, extra);
}

AMP_DRIVER_EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *config,
                                            CUfunction f, void **kernelParams,
                                            void **extra) {
  noteCall("cuLaunchKernelEx");
  LOCK;
  if (CUresult e = ready())
    return e;
  LaunchConfig c;
  c.grid = {config->gridDimX, config->gridDimY, config->gridDimZ};
  c.block = {config->blockDimX, config->blockDimY, config->blockDimZ};
  c.dynamicSharedBytes = config->sharedMemBytes;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const CUlaunchAttribute &a = config->attrs[i];
    if (a.id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
      c.cluster = {a.value.clusterDim.x, a.value.clusterDim.y,
                   a.value.clusterDim.z};
      if (!c.cluster.x || !c.cluster.y || !c.cluster.z ||
          c.cluster.count() > 16)
        return CUDA_ERROR_INVALID_CLUSTER_SIZE;
    }
  }
  if (GraphRecording *graph = capturing(config->hStream))
    return recordLaunch(*graph, f, c, kernelParams, extra);
  return launch(f, c, kernelParams, extra);
}

//===----------------------------------------------------------------------===//
// Streams and events (every operation completes within its call)
//===----------------------------------------------------------------------===//

AMP_DRIVER_EXPORT CUresult cuStreamCreate(CUstream *phStream, unsigned int) {
  noteCall("cuStreamCreate");
  LOCK;
  if (CUresult e = ready())
    return e;
  auto *s = new CUstream_st{};
  state.streams.insert(s);
  *phStream = s;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuStreamDestroy_v2(CUstream stream) {
  noteCall("cuStreamDestroy_v2");
  LOCK;
  if (stream && state.streams.count(stream) && stream->capture)
    return CUDA_ERROR_ILLEGAL_STATE; // end the capture first
  if (!state.streams.erase(stream))
    return CUDA_ERROR_INVALID_HANDLE;
  delete stream;
  return CUDA_SUCCESS;
}

static CUresult checkStream(CUstream stream) {
  if (stream && !state.streams.count(stream))
    return CUDA_ERROR_INVALID_HANDLE;
  return ready();
}

/// Fails a synchronization of a capturing stream (and the capture).
static CUresult notWhileCapturing(CUstream stream, const char *what) {
  GraphRecording *graph = capturing(stream);
  if (!graph)
    return CUDA_SUCCESS;
  fprintf(stderr, "amp-emulator: error: %s of a capturing stream\n", what);
  graph->invalidated = true;
  return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

AMP_DRIVER_EXPORT CUresult cuStreamSynchronize(CUstream stream) {
  noteCall("cuStreamSynchronize");
  LOCK;
  if (CUresult e = checkStream(stream))
    return e;
  return notWhileCapturing(stream, "cuStreamSynchronize");
}

AMP_DRIVER_EXPORT CUresult cuStreamQuery(CUstream stream) {
  noteCall("cuStreamQuery");
  LOCK;
  if (CUresult e = checkStream(stream))
    return e;
  return notWhileCapturing(stream, "cuStreamQuery");
}

AMP_DRIVER_EXPORT CUresult cuStreamBeginCapture_v2(CUstream stream,
                                                   CUstreamCaptureMode mode) {
  noteCall("cuStreamBeginCapture_v2");
  LOCK;
  if (CUresult e = checkStream(stream))
    return e;
  if (mode < CU_STREAM_CAPTURE_MODE_GLOBAL ||
      mode > CU_STREAM_CAPTURE_MODE_RELAXED)
    return CUDA_ERROR_INVALID_VALUE;
  if (!stream)
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED; // the legacy stream
  if (stream->capture)
    return CUDA_ERROR_ILLEGAL_STATE;
  stream->capture = std::make_shared<GraphRecording>();
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuStreamEndCapture(CUstream stream,
                                              CUgraph *phGraph) {
  noteCall("cuStreamEndCapture");
  LOCK;
  if (CUresult e = checkStream(stream))
    return e;
  if (!phGraph)
    return CUDA_ERROR_INVALID_VALUE;
  if (!stream || !stream->capture)
    return CUDA_ERROR_ILLEGAL_STATE;
  std::shared_ptr<GraphRecording> recording = std::move(stream->capture);
  stream->capture = nullptr;
  *phGraph = nullptr;
  if (recording->invalidated)
    return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
  auto *graph = new CUgraph_st{std::move(recording)};
  state.graphs.insert(graph);
  *phGraph = graph;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuStreamWaitEvent(CUstream stream, CUevent event,
                                             unsigned int) {
  noteCall("cuStreamWaitEvent");
  LOCK;
  if (!state.events.count(event))
    return CUDA_ERROR_INVALID_HANDLE;
  return checkStream(stream);
}

AMP_DRIVER_EXPORT CUresult cuEventCreate(CUevent *phEvent, unsigned int) {
  noteCall("cuEventCreate");
  LOCK;
  if (CUresult e = ready())
    return e;
  auto *ev = new CUevent_st{0};
  state.events.insert(ev);
  *phEvent = ev;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuEventDestroy_v2(CUevent event) {
  noteCall("cuEventDestroy_v2");
  LOCK;
  return destroyHandle(state.events, event);
}

AMP_DRIVER_EXPORT CUresult cuEventSynchronize(CUevent event) {
  noteCall("cuEventSynchronize");
  LOCK;
  if (!state.events.count(event))
    return CUDA_ERROR_INVALID_HANDLE;
  return ready();
}

AMP_DRIVER_EXPORT CUresult cuEventRecord(CUevent event, CUstream stream) {
  noteCall("cuEventRecord");
  LOCK;
  if (!state.events.count(event))
    return CUDA_ERROR_INVALID_HANDLE;
  return checkStream(stream);
}

// Profiler ranges: what `amp-emulate --profile` counts once a program marks
// one (amp-compile's harness marks its timed calls).
AMP_DRIVER_EXPORT CUresult cuProfilerStart() {
  LOCK;
  if (CUresult e = ready())
    return e;
  state.device->profiler().start();
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuProfilerStop() {
  LOCK;
  if (CUresult e = ready())
    return e;
  state.device->profiler().stop();
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuEventElapsedTime(float *ms, CUevent, CUevent) {
  noteCall("cuEventElapsedTime");
  *ms = 0;
  return CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

static CUresult allocate(CUdeviceptr *dptr, size_t bytes) {
  if (CUresult e = ready())
    return e;
  if (!current)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (!bytes)
    return CUDA_ERROR_INVALID_VALUE;
  uint64_t address = state.device->memory().allocate(bytes);
  if (!address)
    return CUDA_ERROR_OUT_OF_MEMORY;
  std::memset(state.device->memory().translate(address, bytes, nullptr),
              state.fillZero ? 0 : 0xff, bytes);
  *dptr = address;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize) {
  noteCall("cuMemAlloc_v2");
  LOCK;
  return allocate(dptr, bytesize);
}

AMP_DRIVER_EXPORT CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize,
                                           CUstream stream) {
  noteCall("cuMemAllocAsync");
  LOCK;
  if (CUresult e = checkStream(stream))
    return e;
  CUresult e = allocate(dptr, bytesize);
  if (GraphRecording *graph = capturing(stream); graph && e == CUDA_SUCCESS)
    graph->allocations.push_back({*dptr, *dptr + bytesize});
  return e;
}

// One pool per device; the emulator's allocations are host memory, so its
// attributes change nothing.
AMP_DRIVER_EXPORT CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool,
                                                     CUdevice dev) {
  noteCall("cuDeviceGetDefaultMemPool");
  LOCK;
  if (CUresult e = ready())
    return e;
  if (!pool || dev != 0)
    return CUDA_ERROR_INVALID_VALUE;
  static int defaultPool;
  *pool = reinterpret_cast<CUmemoryPool>(&defaultPool);
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuMemPoolSetAttribute(CUmemoryPool pool,
                                                 CUmemPool_attribute attr,
                                                 void *value) {
  noteCall("cuMemPoolSetAttribute");
  LOCK;
  if (!pool || !value || attr != CU_MEMPOOL_ATTR_RELEASE_THRESHOLD)
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize,
                                             unsigned int) {
  noteCall("cuMemAllocManaged");
  LOCK;
  if (CUresult e = ready())
    return e;
  if (!bytesize)
    return CUDA_ERROR_INVALID_VALUE;
  void *p = std::aligned_alloc(256, (bytesize + 255) / 256 * 256);
  if (!p)
    return CUDA_ERROR_OUT_OF_MEMORY;
  std::memset(p, state.fillZero ? 0 : 0xff, bytesize);
  state.device->memory().registerHost(p, bytesize);
  state.managed[reinterpret_cast<uint64_t>(p)] = p;
  *dptr = reinterpret_cast<CUdeviceptr>(p);
  return CUDA_SUCCESS;
}

static CUresult freeMemory(CUdeviceptr dptr) {
  if (CUresult e = ready())
    return e;
  auto it = state.managed.find(dptr);
  if (it != state.managed.end()) {
    state.device->memory().unregisterHost(it->second);
    std::free(it->second);
    state.managed.erase(it);
    return CUDA_SUCCESS;
  }
  if (!state.device->memory().free(dptr)) {
    fprintf(stderr,
            "amp-emulator: error: cuMemFree of 0x%llx, which is not the "
            "start of a live allocation (double free?)\n",
            static_cast<unsigned long long>(dptr));
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr) {
  noteCall("cuMemFree_v2");
  LOCK;
  return freeMemory(dptr);
}

AMP_DRIVER_EXPORT CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream stream) {
  noteCall("cuMemFreeAsync");
  LOCK;
  if (CUresult e = checkStream(stream))
    return e;
  if (GraphRecording *graph = capturing(stream)) {
    if (!state.device->memory().isDeviceAddress(dptr))
      return CUDA_ERROR_INVALID_VALUE;
    graph->freedInside.push_back(dptr);
    return CUDA_SUCCESS;
  }
  return freeMemory(dptr);
}

AMP_DRIVER_EXPORT CUresult cuPointerGetAttribute(void *data,
                                                 CUpointer_attribute attribute,
                                                 CUdeviceptr ptr) {
  noteCall("cuPointerGetAttribute");
  LOCK;
  if (!state.device)
    return notInitialized();
  for (CUstream_st *s : state.streams)
    if (s->capture)
      for (const auto &range : s->capture->allocations)
        if (ptr >= range.first && ptr < range.second)
          return CUDA_ERROR_INVALID_VALUE; // not mapped before the capture ends
  bool isManaged = state.managed.count(ptr) > 0;
  bool isDevice = state.device->memory().isDeviceAddress(ptr);
  switch (attribute) {
  case CU_POINTER_ATTRIBUTE_IS_MANAGED:
    *static_cast<unsigned *>(data) = isManaged;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
    // CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2.
    *static_cast<unsigned *>(data) = isDevice || isManaged ? 2 : 1;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_CONTEXT:
    *static_cast<CUcontext *>(data) = &state.context;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
    *static_cast<int *>(data) = 0;
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

static CUresult copy(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  if (CUresult e = ready())
    return e;
  if (!bytes)
    return CUDA_SUCCESS;
  uint8_t *d = bytesAt(dst, bytes, "copy to");
  uint8_t *s = bytesAt(src, bytes, "copy from");
  if (!d || !s)
    return CUDA_ERROR_INVALID_VALUE;
  std::memmove(d, s, bytes);
  if (state.options.profile) {
    amp::emu::DeviceMemory &mem = state.device->memory();
    state.device->profiler().recordCopy(bytes, mem.isDeviceAddress(dst) &&
                                                   mem.isDeviceAddress(src));
  }
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src,
                                    size_t bytes) {
  noteCall("cuMemcpy");
  LOCK;
  return copy(dst, src, bytes);
}

AMP_DRIVER_EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src,
                                         size_t bytes, CUstream stream) {
  noteCall("cuMemcpyAsync");
  LOCK;
  if (CUresult e = checkStream(stream))
    return e;
  if (GraphRecording *graph = capturing(stream)) {
    graph->operations.push_back([=] { return copy(dst, src, bytes); });
    return CUDA_SUCCESS;
  }
  return copy(dst, src, bytes);
}

AMP_DRIVER_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src,
                                           size_t bytes) {
  noteCall("cuMemcpyHtoD_v2");
  LOCK;
  return copy(dst, reinterpret_cast<CUdeviceptr>(src), bytes);
}

AMP_DRIVER_EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src,
                                           size_t bytes) {
  noteCall("cuMemcpyDtoH_v2");
  LOCK;
  return copy(reinterpret_cast<CUdeviceptr>(dst), src, bytes);
}

AMP_DRIVER_EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src,
                                           size_t bytes) {
  noteCall("cuMemcpyDtoD_v2");
  LOCK;
  return copy(dst, src, bytes);
}

template <typename T>
static CUresult fill(CUdeviceptr dst, T value, size_t count, CUstream stream) {
  if (CUresult e = checkStream(stream))
    return e;
  if (GraphRecording *graph = capturing(stream)) {
    graph->operations.push_back(
        [=] { return fill<T>(dst, value, count, nullptr); });
    return CUDA_SUCCESS;
  }
  if (dst % sizeof(T))
    return CUDA_ERROR_INVALID_VALUE;
  uint8_t *d = bytesAt(dst, count * sizeof(T), "memset of");
  if (!d)
    return CUDA_ERROR_INVALID_VALUE;
  if (state.options.profile)
    state.device->profiler().recordFill(count * sizeof(T));
  for (size_t i = 0; i < count; ++i)
    std::memcpy(d + i * sizeof(T), &value, sizeof(T));
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int ui,
                                            size_t n, CUstream stream) {
  noteCall("cuMemsetD32Async");
  LOCK;
  return fill<uint32_t>(dst, ui, n, stream);
}

AMP_DRIVER_EXPORT CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short us,
                                            size_t n, CUstream stream) {
  noteCall("cuMemsetD16Async");
  LOCK;
  return fill<uint16_t>(dst, us, n, stream);
}

AMP_DRIVER_EXPORT CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char uc,
                                         size_t n) {
  noteCall("cuMemsetD8_v2");
  LOCK;
  return fill<uint8_t>(dst, uc, n, nullptr);
}

AMP_DRIVER_EXPORT CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int ui,
                                          size_t n) {
  noteCall("cuMemsetD32_v2");
  LOCK;
  return fill<uint32_t>(dst, ui, n, nullptr);
}

AMP_DRIVER_EXPORT CUresult cuMemHostRegister_v2(void *p, size_t bytesize,
                                                unsigned int) {
  noteCall("cuMemHostRegister_v2");
  LOCK;
  if (CUresult e = ready())
    return e;
  state.device->memory().registerHost(p, bytesize);
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuMemHostUnregister(void *p) {
  noteCall("cuMemHostUnregister");
  LOCK;
  if (!state.device)
    return notInitialized();
  return state.device->memory().unregisterHost(p) ? CUDA_SUCCESS
                                                  : CUDA_ERROR_INVALID_VALUE;
}

AMP_DRIVER_EXPORT CUresult cuMemGetInfo_v2(size_t *free, size_t *total) {
  noteCall("cuMemGetInfo_v2");
  LOCK;
  if (!state.device)
    return notInitialized();
  *total = state.device->memory().totalBytes();
  *free = *total - state.device->memory().bytesInUse();
  return CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Graphs (what a stream capture recorded, replayed in order)
//===----------------------------------------------------------------------===//

amp::cuda::GraphRecording::~GraphRecording() {
  for (CUdeviceptr p : freedInside)
    freeMemory(p);
}

AMP_DRIVER_EXPORT CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec,
                                                       CUgraph hGraph,
                                                       unsigned long long) {
  noteCall("cuGraphInstantiateWithFlags");
  LOCK;
  if (CUresult e = ready())
    return e;
  if (!phGraphExec || !state.graphs.count(hGraph))
    return CUDA_ERROR_INVALID_VALUE;
  // The emulator never reuses an address: outputs the graph leaves
  // allocated need no freeing at the next launch.
  auto *exec = new CUgraphExec_st{hGraph->recording};
  state.graphExecs.insert(exec);
  *phGraphExec = exec;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuGraphLaunch(CUgraphExec hGraphExec,
                                         CUstream hStream) {
  noteCall("cuGraphLaunch");
  LOCK;
  if (CUresult e = checkStream(hStream))
    return e;
  if (!state.graphExecs.count(hGraphExec))
    return CUDA_ERROR_INVALID_HANDLE;
  if (capturing(hStream)) {
    fprintf(stderr, "amp-emulator: error: a graph launch into a capture "
                    "(child graphs) is not emulated\n");
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  for (auto &operation : hGraphExec->recording->operations)
    if (CUresult e = operation())
      return e;
  return CUDA_SUCCESS;
}

AMP_DRIVER_EXPORT CUresult cuGraphExecDestroy(CUgraphExec hGraphExec) {
  noteCall("cuGraphExecDestroy");
  LOCK;
  return destroyHandle(state.graphExecs, hGraphExec);
}

AMP_DRIVER_EXPORT CUresult cuGraphDestroy(CUgraph hGraph) {
  noteCall("cuGraphDestroy");
  LOCK;
  return destroyHandle(state.graphs, hGraph);
}

//===----------------------------------------------------------------------===//
// Tensor maps
//===----------------------------------------------------------------------===//

AMP_DRIVER_EXPORT CUresult cuTensorMapEncodeTiled(
    CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
    cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill) {
  noteCall("cuTensorMapEncodeTiled");
  LOCK;
  if (!tensorMap || reinterpret_cast<uintptr_t>(tensorMap) % 64)
    return CUDA_ERROR_INVALID_VALUE;
  amp::emu::TensorMap map;
  std::string why;
  if (!amp::emu::encodeTensorMap(map, tensorDataType, tensorRank,
                                 reinterpret_cast<uint64_t>(globalAddress),
                                 globalDim, globalStrides, boxDim,
                                 elementStrides, interleave, swizzle,
                                 l2Promotion, oobFill, why)) {
    fprintf(stderr, "amp-emulator: error: cuTensorMapEncodeTiled: %s\n",
            why.c_str());
    return CUDA_ERROR_INVALID_VALUE;
  }
  std::memset(tensorMap, 0, sizeof(CUtensorMap));
  std::memcpy(tensorMap, &map, sizeof(map));
  return CUDA_SUCCESS;
}

// Every entry point the runtime resolves is defined above with the exact
// signature of CudaDriverApi.h (a mismatch does not compile).
#define AMP_DRIVER_CHECK(name, symbol, need, ret, params)                      \
  static_assert(std::is_same<decltype(&symbol), PFN_##name>::value,            \
                #symbol " does not match CudaDriverApi.h");
AMP_CUDA_DRIVER_ENTRY_POINTS(AMP_DRIVER_CHECK)
#undef AMP_DRIVER_CHECK
