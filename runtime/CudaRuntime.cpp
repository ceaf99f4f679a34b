//===- CudaRuntime.cpp - amp's CUDA runtime for MLIR-generated code -------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The mgpu* entry points that MLIR 22's gpu-to-llvm lowering (and the
// gpu.binary translation) call, implemented over the CUDA driver API, plus
// the amp-specific entry points the amp GPU pipeline emits:
//
//  - ampDeviceConstant_<type>: the device copy of a constant global (the
//    weights), uploaded on first use and cached for the life of the process;
//  - ampTensorMap2D_<type>: a cached TMA descriptor for a row-major matrix;
//  - ampCuda*: helpers for harnesses (errors, device name, host<->device
//    copies, timing events);
//  - ampGraph*: capture one call of a compiled function into a CUDA graph
//    and replay it (small models are bound by the host's launches).
//
// The driver (libcuda.so.1, or the library named by the environment variable
// AMP_CUDA_DRIVER, such as amp-emulate's stand-in) is loaded with dlopen on
// first use, and its entry points are resolved with dlsym from the table in
// CudaDriverApi.h: the runtime builds without a CUDA toolkit and needs only
// libc at load time. Without a driver, the first entry point called prints
// one line saying so and exits with status 1 (nothing can run without one).
//
// The runtime's tables are never destroyed: a model loaded with dlopen
// (libamp_model) unloads its kernels from global destructors that run after
// the runtime's own static destructors would have.
//
// Every entry point makes the primary context of the default device current
// first (initializing the driver on first use), so the module loads that
// global constructors run before main work too. Errors are reported on
// stderr with the failing call and remembered (ampCudaLastError), so that a
// harness can fail loudly instead of printing garbage.
//
// Written from the CUDA driver API documentation (cuda.h).
//
//===----------------------------------------------------------------------===//

#include "CudaDriverApi.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

#define AMP_EXPORT extern "C" __attribute__((visibility("default")))

using namespace amp::cuda;

/// Whether a call is being captured into a graph (ampGraphCaptureBegin).
static bool captureInProgress();

namespace {

//===----------------------------------------------------------------------===//
// The driver, loaded at run time
//===----------------------------------------------------------------------===//

/// The driver's entry points (null for a missing optional one).
struct Driver {
#define AMP_DRIVER_FIELD(name, symbol, need, ret, params) PFN_##name name;
  AMP_CUDA_DRIVER_ENTRY_POINTS(AMP_DRIVER_FIELD)
#undef AMP_DRIVER_FIELD
  /// What was loaded, for messages.
  const char *path;
};

/// Loads the driver and resolves its entry points; exits with one line on
/// stderr when there is no driver or it lacks a required entry point.
Driver loadDriver() {
  const char *fromEnv = getenv("AMP_CUDA_DRIVER");
  const char *path = fromEnv && *fromEnv ? fromEnv : "libcuda.so.1";
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *error = dlerror();
    fprintf(stderr,
            "amp-cuda-runtime: cannot load the CUDA driver (%s%s); a GPU "
            "build needs the NVIDIA driver, or run it under "
            "build/bin/amp-emulate\n",
            fromEnv && *fromEnv ? "AMP_CUDA_DRIVER=" : "",
            error ? error : path);
    exit(1);
  }
  Driver driver;
  driver.path = path;
#define AMP_DRIVER_RESOLVE(name, symbol, need, ret, params)                    \
  driver.name = reinterpret_cast<PFN_##name>(dlsym(handle, #symbol));          \
  if (!driver.name && EntryPointNeed::need == EntryPointNeed::Required) {      \
    fprintf(stderr,                                                            \
            "amp-cuda-runtime: the CUDA driver %s has no %s (it is too old, "  \
            "or not a CUDA driver)\n",                                         \
            path, #symbol);                                                    \
    exit(1);                                                                   \
  }
  AMP_CUDA_DRIVER_ENTRY_POINTS(AMP_DRIVER_RESOLVE)
#undef AMP_DRIVER_RESOLVE
  return driver;
}

/// The driver, loaded on first use.
const Driver &driver() {
  static const Driver loaded = loadDriver();
  return loaded;
}

//===----------------------------------------------------------------------===//
// Errors and context
//===----------------------------------------------------------------------===//

CUresult lastError = CUDA_SUCCESS;

/// Reports a failed call on stderr and remembers its error; returns
/// `result`.
CUresult report(CUresult result, const char *expr, const char *where) {
  if (result == CUDA_SUCCESS)
    return result;
  lastError = result;
  const char *name = nullptr, *text = nullptr;
  driver().cuGetErrorName(result, &name);
  driver().cuGetErrorString(result, &text);
  if (name)
    fprintf(stderr, "amp-cuda-runtime: %s failed in %s: %s (%s)\n", expr, where,
            name, text ? text : "");
  else
    fprintf(stderr, "amp-cuda-runtime: %s failed in %s: error %d\n", expr,
            where, static_cast<int>(result));
  return result;
}

/// Calls the driver's entry point `fn` and reports a failure with the call
/// as written.
#define CUDA_CALL(fn, ...)                                                     \
  report(driver().fn(__VA_ARGS__), #fn "(" #__VA_ARGS__ ")", __func__)

/// Whether the driver has the optional entry point `fn`; reports which
/// feature needs it otherwise.
#define CUDA_HAS(fn, feature)                                                  \
  hasEntryPoint(driver().fn != nullptr, #fn, feature)

bool hasEntryPoint(bool present, const char *name, const char *feature) {
  if (present)
    return true;
  fprintf(stderr,
          "amp-cuda-runtime: %s needs %s, which the CUDA driver %s does not "
          "have (too old)\n",
          feature, name, driver().path);
  lastError = CUDA_ERROR_NOT_SUPPORTED;
  return false;
}

int defaultDevice = 0;
std::mutex contextMutex;
CUcontext contexts[64] = {};

/// Makes the primary context of the default device current on this thread.
CUcontext ensureContext() {
  driver(); // exits here, outside the lock, without a driver
  std::lock_guard<std::mutex> lock(contextMutex);
  static bool initialized = false;
  if (!initialized) {
    CUDA_CALL(cuInit, 0);
    initialized = true;
  }
  int device = defaultDevice;
  if (device < 0 || device >= 64)
    device = 0;
  if (!contexts[device]) {
    CUdevice dev;
    CUDA_CALL(cuDeviceGet, &dev, device);
    CUDA_CALL(cuDevicePrimaryCtxRetain, &contexts[device], dev);
  }
  // Once made current on a thread, the context is taken to stay current
  // there (it is the primary context, which the CUDA runtime API and
  // frameworks such as PyTorch use too): no driver call per entry point.
  static thread_local CUcontext currentHere = nullptr;
  if (currentHere != contexts[device]) {
    CUcontext current = nullptr;
    driver().cuCtxGetCurrent(&current);
    if (current != contexts[device])
      CUDA_CALL(cuCtxSetCurrent, contexts[device]);
    currentHere = contexts[device];
  }
  return contexts[device];
}

CUdevice currentDevice() {
  CUdevice dev = 0;
  CUDA_CALL(cuCtxGetDevice, &dev);
  return dev;
}

int deviceAttribute(CUdevice_attribute attribute) {
  int value = 0;
  CUDA_CALL(cuDeviceGetAttribute, &value, attribute, currentDevice());
  return value;
}

/// Whether cuMemAllocAsync / cuMemFreeAsync can be used (stream-ordered,
/// pooled allocations: cheap per-call buffers).
bool hasMemoryPools() {
  static int pools = -1;
  if (pools < 0) {
    pools = driver().cuMemAllocAsync && driver().cuMemFreeAsync
                ? deviceAttribute(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED)
                : 0;
    // The default pool hands its memory back to the OS at every
    // synchronization (release threshold 0), so each call of a model maps
    // its buffers again (on an H200, a 4096^3 GEMM call took 60 us more
    // than its kernel; cuBLAS through PyTorch, 13 us). Keep it, as PyTorch's
    // caching allocator does; it is freed when the process ends.
    CUmemoryPool pool = nullptr;
    if (pools > 0 && driver().cuDeviceGetDefaultMemPool &&
        driver().cuMemPoolSetAttribute &&
        CUDA_CALL(cuDeviceGetDefaultMemPool, &pool, currentDevice()) ==
            CUDA_SUCCESS) {
      cuuint64_t keep = UINT64_MAX;
      CUDA_CALL(cuMemPoolSetAttribute, pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                &keep);
    }
  }
  return pools > 0;
}

//===----------------------------------------------------------------------===//
// Memref descriptors
//===----------------------------------------------------------------------===//

/// A ranked memref descriptor: {allocated, aligned, offset, sizes[rank],
/// strides[rank]} (MLIR's LLVM lowering).
struct RankedDescriptor {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizesAndStrides[1]; // rank sizes, then rank strides
};

int64_t descSize(const RankedDescriptor *d, int64_t i) {
  return d->sizesAndStrides[i];
}
int64_t descStride(const RankedDescriptor *d, int64_t rank, int64_t i) {
  return d->sizesAndStrides[rank + i];
}
char *descData(const RankedDescriptor *d, int64_t elementBytes) {
  return static_cast<char *>(d->aligned) + d->offset * elementBytes;
}
size_t descriptorBytes(int64_t rank) {
  return sizeof(void *) * 2 + sizeof(int64_t) * (1 + 2 * rank);
}

/// Bytes spanned by a memref (from its first to one past its last element).
size_t spannedBytes(const RankedDescriptor *d, int64_t rank,
                    int64_t elementBytes) {
  int64_t last = 0;
  for (int64_t i = 0; i < rank; ++i) {
    if (descSize(d, i) == 0)
      return 0;
    last += (descSize(d, i) - 1) * descStride(d, rank, i);
  }
  return static_cast<size_t>(last + 1) * elementBytes;
}

/// The {rank, descriptor} pair MLIR passes and returns unranked memrefs as.
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};

//===----------------------------------------------------------------------===//
// TMA descriptors
//===----------------------------------------------------------------------===//

/// Encodes a tiled tensor map for a memref and returns its device address.
/// `boxDims` are in memref order (outermost first), like the memref sizes.
void *encodeTensorMap(int64_t rank, const RankedDescriptor *d,
                      CUtensorMapDataType dataType, int64_t elementBytes,
                      const int64_t *boxDims, CUtensorMapInterleave interleave,
                      CUtensorMapSwizzle swizzle,
                      CUtensorMapL2promotion l2Promotion,
                      CUtensorMapFloatOOBfill oobFill) {
  if (rank < 1 || rank > 5) {
    fprintf(stderr,
            "amp-cuda-runtime: TMA descriptors need rank 1-5, got "
            "%lld\n",
            static_cast<long long>(rank));
    lastError = CUDA_ERROR_INVALID_VALUE;
    return nullptr;
  }
  // The driver wants the innermost dimension first.
  cuuint64_t globalDim[5], globalStrides[4];
  cuuint32_t boxDim[5], elementStrides[5];
  for (int64_t i = 0; i < rank; ++i) {
    int64_t r = rank - 1 - i;
    globalDim[i] = static_cast<cuuint64_t>(descSize(d, r));
    boxDim[i] = static_cast<cuuint32_t>(boxDims[r]);
    elementStrides[i] = 1;
    if (i > 0)
      globalStrides[i - 1] =
          static_cast<cuuint64_t>(descStride(d, rank, r) * elementBytes);
  }
  if (!CUDA_HAS(cuTensorMapEncodeTiled, "a TMA descriptor (sm_90 kernels)"))
    return nullptr;
  CUtensorMap map;
  memset(&map, 0, sizeof(map));
  CUresult result = CUDA_CALL(
      cuTensorMapEncodeTiled, &map, dataType, static_cast<cuuint32_t>(rank),
      descData(d, elementBytes), globalDim, globalStrides, boxDim,
      elementStrides, interleave, swizzle, l2Promotion, oobFill);
  if (result != CUDA_SUCCESS)
    return nullptr;
  CUdeviceptr device = 0;
  CUDA_CALL(cuMemAlloc, &device, sizeof(CUtensorMap));
  CUDA_CALL(cuMemcpyHtoD, device, &map, sizeof(CUtensorMap));
  // Copies from pageable memory may still be in flight when cuMemcpyHtoD
  // returns, and kernels run on non-blocking streams: wait here (or, during
  // a capture, which nothing may synchronize, in ampGraphCaptureEnd).
  if (!captureInProgress())
    CUDA_CALL(cuCtxSynchronize);
  return reinterpret_cast<void *>(device);
}

int64_t tensorMapElementBytes(int64_t dataType) {
  switch (dataType) {
  case CU_TENSOR_MAP_DATA_TYPE_UINT8:
    return 1;
  case CU_TENSOR_MAP_DATA_TYPE_UINT16:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
  case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16:
    return 2;
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT64:
  case CU_TENSOR_MAP_DATA_TYPE_INT64:
  case CU_TENSOR_MAP_DATA_TYPE_UINT64:
    return 8;
  default:
    return 4;
  }
}

/// Cache of amp's 2-D tensor maps: one device copy per matrix and box.
using TensorMapKey =
    std::tuple<void *, int64_t, int64_t, int64_t, int64_t, int64_t, int>;
std::map<TensorMapKey, void *> &tensorMaps = *new std::map<TensorMapKey, void *>;
std::mutex tensorMapMutex;

void *cachedTensorMap2D(const UnrankedMemRef &m, CUtensorMapDataType type,
                        int64_t boxRows, int64_t boxCols) {
  ensureContext();
  auto *d = static_cast<const RankedDescriptor *>(m.descriptor);
  if (m.rank != 2) {
    fprintf(stderr, "amp-cuda-runtime: ampTensorMap2D needs a 2-D memref\n");
    lastError = CUDA_ERROR_INVALID_VALUE;
    return nullptr;
  }
  int64_t bytes = tensorMapElementBytes(type);
  TensorMapKey key{descData(d, bytes),
                   descSize(d, 0),
                   descSize(d, 1),
                   descStride(d, 2, 0),
                   boxRows,
                   boxCols,
                   int(type)};
  std::lock_guard<std::mutex> lock(tensorMapMutex);
  auto it = tensorMaps.find(key);
  if (it != tensorMaps.end())
    return it->second;
  int64_t box[2] = {boxRows, boxCols};
  void *map = encodeTensorMap(
      2, d, type, bytes, box, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (map)
    tensorMaps.emplace(key, map);
  return map;
}

//===----------------------------------------------------------------------===//
// Device copies of constants
//===----------------------------------------------------------------------===//

std::map<std::pair<const void *, size_t>, void *> &deviceConstants =
    *new std::map<std::pair<const void *, size_t>, void *>;
std::mutex constantsMutex;

UnrankedMemRef deviceConstant(UnrankedMemRef host, int64_t elementBytes) {
  ensureContext();
  auto *d = static_cast<const RankedDescriptor *>(host.descriptor);
  int64_t rank = host.rank;
  size_t bytes = spannedBytes(d, rank, elementBytes);
  const char *data = descData(d, elementBytes);
  void *device = nullptr;
  {
    std::lock_guard<std::mutex> lock(constantsMutex);
    auto key = std::make_pair(static_cast<const void *>(data), bytes);
    auto it = deviceConstants.find(key);
    if (it != deviceConstants.end()) {
      device = it->second;
    } else if (bytes > 0) {
      CUdeviceptr ptr = 0;
      CUDA_CALL(cuMemAlloc, &ptr, bytes);
      CUDA_CALL(cuMemcpyHtoD, ptr, data, bytes);
      // See encodeTensorMap: the upload must land before kernels on
      // non-blocking streams read it.
      CUDA_CALL(cuCtxSynchronize);
      device = reinterpret_cast<void *>(ptr);
      deviceConstants.emplace(key, device);
    }
  }
  // The caller copies the returned descriptor and frees it (MLIR's
  // convention for unranked results).
  auto *out = static_cast<RankedDescriptor *>(malloc(descriptorBytes(rank)));
  memcpy(out, d, descriptorBytes(rank));
  out->allocated = device;
  out->aligned = device;
  out->offset = 0;
  return {rank, out};
}

} // namespace

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

AMP_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  defaultDevice = device;
  ensureContext();
}

AMP_EXPORT CUmodule mgpuModuleLoad(void *data, size_t /*gpuBlobSize*/) {
  ensureContext();
  CUmodule module = nullptr;
  CUDA_CALL(cuModuleLoadData, &module, data);
  return module;
}

AMP_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  ensureContext();
  CUmodule module = nullptr;
  char errorLog[8192] = {0};
  size_t logSize = sizeof(errorLog);
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel)),
                    errorLog, reinterpret_cast<void *>(logSize)};
  CUresult result =
      CUDA_CALL(cuModuleLoadDataEx, &module, data, 3, options, values);
  if (result != CUDA_SUCCESS && errorLog[0])
    fprintf(stderr, "amp-cuda-runtime: PTX JIT log:\n%s\n", errorLog);
  return module;
}

// The lowered code looks a kernel up by name before each of its launches,
// and raises its shared-memory limit before each launch that needs more
// than 48 KiB: both are remembered, per module and per function, so that a
// launch costs one driver call (small models are bound by the host's
// launches).
static std::mutex functionMutex;
static auto &functions =
    *new std::map<std::pair<CUmodule, const char *>, CUfunction>;
static auto &sharedMemoryLimits = *new std::map<CUfunction, int32_t>;

AMP_EXPORT void mgpuModuleUnload(CUmodule module) {
  if (!module)
    return;
  {
    std::lock_guard<std::mutex> lock(functionMutex);
    for (auto it = functions.begin(); it != functions.end();) {
      if (it->first.first == module) {
        sharedMemoryLimits.erase(it->second);
        it = functions.erase(it);
      } else {
        ++it;
      }
    }
  }
  // Modules are unloaded by global destructors. A tool that shuts the
  // driver down first (Nsight Compute does) has already freed them: nothing
  // to do, nothing to report.
  CUcontext current = nullptr;
  if (driver().cuCtxGetCurrent(&current) == CUDA_ERROR_DEINITIALIZED)
    return;
  ensureContext();
  CUDA_CALL(cuModuleUnload, module);
}

AMP_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  ensureContext();
  CUfunction function = nullptr;
  if (!module) {
    fprintf(stderr,
            "amp-cuda-runtime: kernel %s: its module failed to "
            "load\n",
            name);
    lastError = CUDA_ERROR_INVALID_HANDLE;
    return nullptr;
  }
  // `name` is a constant of the lowered module: its address names it.
  std::lock_guard<std::mutex> lock(functionMutex);
  auto key = std::make_pair(module, name);
  if (auto it = functions.find(key); it != functions.end())
    return it->second;
  if (CUDA_CALL(cuModuleGetFunction, &function, module, name) == CUDA_SUCCESS)
    functions.emplace(key, function);
  return function;
}

/// Allows `function` to use `bytes` of dynamic shared memory (needed above
/// 48 KiB); reports a clear error when the device cannot.
static bool prepareSharedMemory(CUfunction function, int32_t bytes) {
  constexpr int32_t kDefaultLimit = 48 * 1024;
  if (bytes <= kDefaultLimit)
    return true;
  std::lock_guard<std::mutex> lock(functionMutex);
  if (auto it = sharedMemoryLimits.find(function);
      it != sharedMemoryLimits.end() && bytes <= it->second)
    return true;
  int optin =
      deviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  if (bytes > optin) {
    fprintf(stderr,
            "amp-cuda-runtime: kernel needs %d bytes of shared memory, the "
            "device allows %d\n",
            bytes, optin);
    lastError = CUDA_ERROR_INVALID_VALUE;
    return false;
  }
  if (CUDA_CALL(cuFuncSetAttribute, function,
                CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                bytes) == CUDA_SUCCESS)
    sharedMemoryLimits[function] = bytes;
  return true;
}

AMP_EXPORT void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                 intptr_t gridY, intptr_t gridZ,
                                 intptr_t blockX, intptr_t blockY,
                                 intptr_t blockZ, int32_t smem, CUstream stream,
                                 void **params, void **extra,
                                 size_t /*paramsCount*/) {
  ensureContext();
  if (!function || !prepareSharedMemory(function, smem))
    return;
  CUDA_CALL(cuLaunchKernel, function, gridX, gridY, gridZ, blockX, blockY,
            blockZ, smem, stream, params, extra);
}

AMP_EXPORT void mgpuLaunchClusterKernel(
    CUfunction function, intptr_t clusterX, intptr_t clusterY,
    intptr_t clusterZ, intptr_t gridX, intptr_t gridY, intptr_t gridZ,
    intptr_t blockX, intptr_t blockY, intptr_t blockZ, int32_t smem,
    CUstream stream, void **params, void **extra, size_t /*paramsCount*/) {
  ensureContext();
  if (!CUDA_HAS(cuLaunchKernelEx, "a cluster launch"))
    return;
  if (!function || !prepareSharedMemory(function, smem))
    return;
  CUlaunchAttribute attribute;
  memset(&attribute, 0, sizeof(attribute));
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = static_cast<unsigned>(clusterX);
  attribute.value.clusterDim.y = static_cast<unsigned>(clusterY);
  attribute.value.clusterDim.z = static_cast<unsigned>(clusterZ);
  CUlaunchConfig config;
  memset(&config, 0, sizeof(config));
  config.gridDimX = static_cast<unsigned>(gridX);
  config.gridDimY = static_cast<unsigned>(gridY);
  config.gridDimZ = static_cast<unsigned>(gridZ);
  config.blockDimX = static_cast<unsigned>(blockX);
  config.blockDimY = static_cast<unsigned>(blockY);
  config.blockDimZ = static_cast<unsigned>(blockZ);
  config.sharedMemBytes = static_cast<unsigned>(smem);
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  CUDA_CALL(cuLaunchKernelEx, &config, function, params, extra);
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

// Every call of a compiled function creates a stream and destroys it at the
// end (gpu-async-region); recycling them keeps that off the critical path.
static std::mutex streamMutex;
static std::vector<CUstream> &freeStreams = *new std::vector<CUstream>;

/// A capture in progress (ampGraphCaptureBegin to ampGraphCaptureEnd): every
/// stream the compiled code asks for on the capturing thread is the
/// capturing stream (other threads keep their own streams), so the call's
/// work lands in one graph in the order the host issued it (which respects
/// every dependency the host code expresses); synchronizing it is skipped
/// (nothing runs during a capture). `invalid` says why the call cannot be
/// replayed (it reads device results on the host), or is null.
struct Capture {
  CUstream stream = nullptr;
  std::thread::id thread;
  const char *invalid = nullptr;
  /// What the captured call allocated, [start, end): device memory that the
  /// driver cannot describe yet (a graph's allocations are mapped when it is
  /// instantiated, so cuPointerGetAttribute fails on them).
  std::vector<std::pair<CUdeviceptr, CUdeviceptr>> allocations;
};
static Capture *capture = nullptr; // guarded by streamMutex

/// Whether `stream` is the capturing stream.
static bool isCapturing(CUstream stream) {
  std::lock_guard<std::mutex> lock(streamMutex);
  return capture && capture->stream == stream;
}

static bool captureInProgress() {
  std::lock_guard<std::mutex> lock(streamMutex);
  return capture && capture->thread == std::this_thread::get_id();
}

/// Notes an allocation of the capture in progress on `stream`, if any.
static void noteCapturedAllocation(CUstream stream, CUdeviceptr ptr,
                                   uint64_t bytes) {
  std::lock_guard<std::mutex> lock(streamMutex);
  if (capture && capture->stream == stream && ptr)
    capture->allocations.push_back({ptr, ptr + bytes});
}

/// Whether `ptr` is device memory: allocated by the capture in progress, or
/// device memory by the driver's account.
static bool isDeviceMemory(const void *ptr) {
  auto address = reinterpret_cast<CUdeviceptr>(ptr);
  {
    std::lock_guard<std::mutex> lock(streamMutex);
    if (capture)
      for (const auto &range : capture->allocations)
        if (address >= range.first && address < range.second)
          return true;
  }
  unsigned type = 0; // CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2
  driver().cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                 address);
  return type == 2;
}

/// Marks this thread's capture in progress, if any, as not replayable.
static void invalidateCapture(const char *why) {
  std::lock_guard<std::mutex> lock(streamMutex);
  if (capture && capture->thread == std::this_thread::get_id() &&
      !capture->invalid)
    capture->invalid = why;
}

AMP_EXPORT CUstream mgpuStreamCreate() {
  ensureContext();
  {
    std::lock_guard<std::mutex> lock(streamMutex);
    if (capture && capture->thread == std::this_thread::get_id())
      return capture->stream;
    if (!freeStreams.empty()) {
      CUstream stream = freeStreams.back();
      freeStreams.pop_back();
      return stream;
    }
  }
  CUstream stream = nullptr;
  CUDA_CALL(cuStreamCreate, &stream, CU_STREAM_NON_BLOCKING);
  return stream;
}

AMP_EXPORT void mgpuStreamDestroy(CUstream stream) {
  ensureContext();
  // Work still queued on the stream completes before it is reused.
  std::lock_guard<std::mutex> lock(streamMutex);
  if (capture && capture->stream == stream)
    return; // ampGraphCaptureEnd ends the capture
  if (freeStreams.size() < 16) {
    freeStreams.push_back(stream);
    return;
  }
  CUDA_CALL(cuStreamDestroy, stream);
}

AMP_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  ensureContext();
  if (isCapturing(stream))
    return; // the replay synchronizes
  CUDA_CALL(cuStreamSynchronize, stream);
}

AMP_EXPORT void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  ensureContext();
  CUDA_CALL(cuStreamWaitEvent, stream, event, 0);
}

AMP_EXPORT CUevent mgpuEventCreate() {
  ensureContext();
  CUevent event = nullptr;
  CUDA_CALL(cuEventCreate, &event, CU_EVENT_DISABLE_TIMING);
  return event;
}

AMP_EXPORT void mgpuEventDestroy(CUevent event) {
  ensureContext();
  CUDA_CALL(cuEventDestroy, event);
}

AMP_EXPORT void mgpuEventSynchronize(CUevent event) {
  ensureContext();
  // Every event of a capture is recorded on the capturing stream.
  if (captureInProgress())
    return;
  CUDA_CALL(cuEventSynchronize, event);
}

AMP_EXPORT void mgpuEventRecord(CUevent event, CUstream stream) {
  ensureContext();
  CUDA_CALL(cuEventRecord, event, stream);
}

//===----------------------------------------------------------------------===//
// Graphs: one call captured, replayed with one launch
//===----------------------------------------------------------------------===//
//
// A harness calls a compiled function once normally (so the driver, the
// modules, the device copies of the constants and the TMA descriptors of
// its inputs are ready), then
//
//   ampGraphCaptureBegin(); _mlir_ciface_f(...); g = ampGraphCaptureEnd();
//
// and from then on ampGraphLaunch(g) instead of calling f: the same kernels,
// copies and stream-ordered allocations, on the same inputs, into the same
// output buffers (the graph's allocations keep their addresses from launch
// to launch; outputs left allocated are freed at the next launch), for one
// driver call instead of one per launch and allocation. The captured call
// itself runs nothing.

AMP_EXPORT int ampGraphCaptureBegin() {
  ensureContext();
  if (!CUDA_HAS(cuStreamBeginCapture, "CUDA graphs") ||
      !CUDA_HAS(cuStreamEndCapture, "CUDA graphs") ||
      !CUDA_HAS(cuGraphInstantiateWithFlags, "CUDA graphs") ||
      !CUDA_HAS(cuGraphLaunch, "CUDA graphs"))
    return CUDA_ERROR_NOT_SUPPORTED;
  CUstream stream = mgpuStreamCreate();
  std::lock_guard<std::mutex> lock(streamMutex);
  if (capture) {
    fprintf(stderr, "amp-cuda-runtime: ampGraphCaptureBegin: a capture is "
                    "already in progress\n");
    return lastError = CUDA_ERROR_ILLEGAL_STATE;
  }
  // Relaxed: the runtime's own synchronous calls (a TMA descriptor's upload
  // for a buffer the graph allocates) stay legal during the capture; the
  // stream is non-blocking, so they do not join it.
  if (CUresult e = CUDA_CALL(cuStreamBeginCapture, stream,
                             CU_STREAM_CAPTURE_MODE_RELAXED)) {
    freeStreams.push_back(stream);
    return e;
  }
  capture = new Capture{stream, std::this_thread::get_id(), nullptr, {}};
  return CUDA_SUCCESS;
}

AMP_EXPORT void *ampGraphCaptureEnd() {
  ensureContext();
  Capture *done = nullptr;
  {
    std::lock_guard<std::mutex> lock(streamMutex);
    if (capture && capture->thread == std::this_thread::get_id()) {
      done = capture;
      capture = nullptr;
    }
  }
  if (!done) {
    fprintf(stderr, "amp-cuda-runtime: ampGraphCaptureEnd without "
                    "ampGraphCaptureBegin on this thread\n");
    lastError = CUDA_ERROR_ILLEGAL_STATE;
    return nullptr;
  }
  CUgraph graph = nullptr;
  CUresult ended = CUDA_CALL(cuStreamEndCapture, done->stream, &graph);
  mgpuStreamDestroy(done->stream);
  // Uploads made during the capture (TMA descriptors) are complete before
  // the first replay.
  CUDA_CALL(cuCtxSynchronize);
  const char *invalid = done->invalid;
  delete done;
  if (invalid || ended != CUDA_SUCCESS) {
    if (invalid)
      fprintf(stderr,
              "amp-cuda-runtime: the call cannot be replayed as a graph: %s\n",
              invalid);
    if (graph && driver().cuGraphDestroy)
      driver().cuGraphDestroy(graph);
    lastError = invalid ? CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED : ended;
    return nullptr;
  }
  CUgraphExec exec = nullptr;
  CUresult made = CUDA_CALL(cuGraphInstantiateWithFlags, &exec, graph,
                            CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH);
  if (driver().cuGraphDestroy)
    driver().cuGraphDestroy(graph); // the instance is independent of it
  return made == CUDA_SUCCESS ? exec : nullptr;
}

/// Replays a captured call and waits for it (like the call itself, whose
/// end synchronizes).
AMP_EXPORT int ampGraphLaunch(void *graph) {
  ensureContext();
  if (!graph) {
    fprintf(stderr, "amp-cuda-runtime: ampGraphLaunch of a null graph\n");
    return lastError = CUDA_ERROR_INVALID_VALUE;
  }
  CUstream stream = mgpuStreamCreate();
  CUresult e =
      CUDA_CALL(cuGraphLaunch, static_cast<CUgraphExec>(graph), stream);
  if (e == CUDA_SUCCESS)
    e = CUDA_CALL(cuStreamSynchronize, stream);
  mgpuStreamDestroy(stream);
  return e;
}

/// One call of a context (libamp_model) from its graph: copies `n` inputs
/// into the graph's input buffers, replays it, copies `m` outputs out of
/// its buffers, all on one stream, and waits once: n + m + 2 driver calls.
/// Copies go in any direction (unified addressing).
AMP_EXPORT int ampGraphRun(void *graph, int n, void *const *inDst,
                           const void *const *inSrc, const size_t *inBytes,
                           int m, void *const *outDst,
                           const void *const *outSrc, const size_t *outBytes) {
  ensureContext();
  if (!graph) {
    fprintf(stderr, "amp-cuda-runtime: ampGraphRun of a null graph\n");
    return lastError = CUDA_ERROR_INVALID_VALUE;
  }
  CUstream stream = mgpuStreamCreate();
  CUresult e = CUDA_SUCCESS;
  auto copy = [&](void *dst, const void *src, size_t bytes) {
    if (e == CUDA_SUCCESS && bytes)
      e = CUDA_CALL(cuMemcpyAsync, reinterpret_cast<CUdeviceptr>(dst),
                    reinterpret_cast<CUdeviceptr>(src), bytes, stream);
  };
  for (int i = 0; i < n; ++i)
    copy(inDst[i], inSrc[i], inBytes[i]);
  if (e == CUDA_SUCCESS)
    e = CUDA_CALL(cuGraphLaunch, static_cast<CUgraphExec>(graph), stream);
  for (int i = 0; i < m; ++i)
    copy(outDst[i], outSrc[i], outBytes[i]);
  CUresult synced = CUDA_CALL(cuStreamSynchronize, stream);
  mgpuStreamDestroy(stream);
  return e != CUDA_SUCCESS ? e : synced;
}

AMP_EXPORT void ampGraphDestroy(void *graph) {
  if (!graph)
    return;
  ensureContext();
  if (driver().cuGraphExecDestroy)
    CUDA_CALL(cuGraphExecDestroy, static_cast<CUgraphExec>(graph));
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

AMP_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, CUstream stream,
                              bool isHostShared) {
  ensureContext();
  if (sizeBytes == 0)
    return nullptr;
  CUdeviceptr ptr = 0;
  if (isHostShared)
    invalidateCapture("it allocates memory the host reads");
  if (isHostShared)
    CUDA_CALL(cuMemAllocManaged, &ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL);
  else if (hasMemoryPools())
    CUDA_CALL(cuMemAllocAsync, &ptr, sizeBytes, stream);
  else
    CUDA_CALL(cuMemAlloc, &ptr, sizeBytes);
  noteCapturedAllocation(stream, ptr, sizeBytes);
  return reinterpret_cast<void *>(ptr);
}

AMP_EXPORT void mgpuMemFree(void *ptr, CUstream stream) {
  if (!ptr)
    return;
  ensureContext();
  CUdeviceptr device = reinterpret_cast<CUdeviceptr>(ptr);
  unsigned managed = 0;
  driver().cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                 device);
  if (managed || !hasMemoryPools()) {
    if (isCapturing(stream)) {
      invalidateCapture("it frees memory synchronously");
      return;
    }
    CUDA_CALL(cuStreamSynchronize, stream);
    CUDA_CALL(cuMemFree, device);
    return;
  }
  CUDA_CALL(cuMemFreeAsync, device, stream);
}

AMP_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                           CUstream stream) {
  ensureContext();
  if (isCapturing(stream)) {
    if (!isDeviceMemory(dst))
      invalidateCapture("it copies device data to the host");
    else if (!isDeviceMemory(src))
      invalidateCapture("it copies host memory to the device");
  }
  CUDA_CALL(cuMemcpyAsync, reinterpret_cast<CUdeviceptr>(dst),
            reinterpret_cast<CUdeviceptr>(src), sizeBytes, stream);
}

AMP_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                             CUstream stream) {
  ensureContext();
  CUDA_CALL(cuMemsetD32Async, reinterpret_cast<CUdeviceptr>(dst), value, count,
            stream);
}

AMP_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             CUstream stream) {
  ensureContext();
  CUDA_CALL(cuMemsetD16Async, reinterpret_cast<CUdeviceptr>(dst), value, count,
            stream);
}

AMP_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  ensureContext();
  CUDA_CALL(cuMemHostRegister, ptr, sizeBytes, CU_MEMHOSTREGISTER_PORTABLE);
}

AMP_EXPORT void mgpuMemHostUnregister(void *ptr) {
  ensureContext();
  CUDA_CALL(cuMemHostUnregister, ptr);
}

AMP_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                          int64_t elementSizeBytes) {
  auto *d = static_cast<const RankedDescriptor *>(descriptor);
  size_t bytes = spannedBytes(d, rank, elementSizeBytes);
  if (bytes)
    mgpuMemHostRegister(descData(d, elementSizeBytes), bytes);
}

AMP_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                            int64_t elementSizeBytes) {
  auto *d = static_cast<const RankedDescriptor *>(descriptor);
  if (spannedBytes(d, rank, elementSizeBytes))
    mgpuMemHostUnregister(descData(d, elementSizeBytes));
}

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

AMP_EXPORT void *
mgpuTensorMapEncodeTiledMemref(int64_t tensorRank, void *rankedDescriptor,
                               int64_t tensorDataType, int64_t interleave,
                               int64_t swizzle, int64_t l2Promotion,
                               int64_t oobFill, int64_t *inputBoxDims) {
  ensureContext();
  auto *d = static_cast<const RankedDescriptor *>(rankedDescriptor);
  return encodeTensorMap(tensorRank, d,
                         static_cast<CUtensorMapDataType>(tensorDataType),
                         tensorMapElementBytes(tensorDataType), inputBoxDims,
                         static_cast<CUtensorMapInterleave>(interleave),
                         static_cast<CUtensorMapSwizzle>(swizzle),
                         static_cast<CUtensorMapL2promotion>(l2Promotion),
                         static_cast<CUtensorMapFloatOOBfill>(oobFill));
}

AMP_EXPORT void *ampTensorMap2D_f16(int64_t rank, void *descriptor,
                                    int64_t boxRows, int64_t boxCols) {
  return cachedTensorMap2D({rank, descriptor}, CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
                           boxRows, boxCols);
}

AMP_EXPORT void *ampTensorMap2D_bf16(int64_t rank, void *descriptor,
                                     int64_t boxRows, int64_t boxCols) {
  return cachedTensorMap2D({rank, descriptor}, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
                           boxRows, boxCols);
}

// FP8 matrices: TMA has no FP8 data type and copies bytes (UINT8).
AMP_EXPORT void *ampTensorMap2D_f8E4M3FN(int64_t rank, void *descriptor,
                                         int64_t boxRows, int64_t boxCols) {
  return cachedTensorMap2D({rank, descriptor}, CU_TENSOR_MAP_DATA_TYPE_UINT8,
                           boxRows, boxCols);
}

AMP_EXPORT void *ampTensorMap2D_f8E5M2(int64_t rank, void *descriptor,
                                       int64_t boxRows, int64_t boxCols) {
  return cachedTensorMap2D({rank, descriptor}, CU_TENSOR_MAP_DATA_TYPE_UINT8,
                           boxRows, boxCols);
}

//===----------------------------------------------------------------------===//
// Constants (weights)
//===----------------------------------------------------------------------===//

#define AMP_DEVICE_CONSTANT(suffix, bytes)                                     \
  AMP_EXPORT UnrankedMemRef ampDeviceConstant_##suffix(int64_t rank,           \
                                                       void *descriptor) {     \
    return deviceConstant({rank, descriptor}, bytes);                          \
  }
AMP_DEVICE_CONSTANT(f16, 2)
AMP_DEVICE_CONSTANT(bf16, 2)
AMP_DEVICE_CONSTANT(f8E4M3FN, 1)
AMP_DEVICE_CONSTANT(f8E5M2, 1)
AMP_DEVICE_CONSTANT(f32, 4)
AMP_DEVICE_CONSTANT(f64, 8)
AMP_DEVICE_CONSTANT(i1, 1)
AMP_DEVICE_CONSTANT(i8, 1)
AMP_DEVICE_CONSTANT(i16, 2)
AMP_DEVICE_CONSTANT(i32, 4)
AMP_DEVICE_CONSTANT(i64, 8)
AMP_DEVICE_CONSTANT(index, 8)
#undef AMP_DEVICE_CONSTANT

//===----------------------------------------------------------------------===//
// Helpers for harnesses
//===----------------------------------------------------------------------===//

/// The last CUDA error any entry point reported (0 if none) and clears it.
AMP_EXPORT int ampCudaTakeLastError() {
  int error = static_cast<int>(lastError);
  lastError = CUDA_SUCCESS;
  return error;
}

/// Starts (stops) the range a profiler measures (cuProfilerStart/Stop:
/// Nsight Systems' --capture-range=cudaProfilerApi, amp-emulate
/// --profile); nothing where the driver has no such entry points.
AMP_EXPORT void ampCudaProfilerStart() {
  ensureContext();
  if (driver().cuProfilerStart)
    CUDA_CALL(cuProfilerStart);
}

AMP_EXPORT void ampCudaProfilerStop() {
  ensureContext();
  if (driver().cuProfilerStop)
    CUDA_CALL(cuProfilerStop);
}

/// Writes the default device's name into `buffer`.
AMP_EXPORT void ampCudaDeviceName(char *buffer, int size) {
  ensureContext();
  CUDA_CALL(cuDeviceGetName, buffer, size, currentDevice());
}

AMP_EXPORT void ampCudaCopyToDevice(void *dst, const void *src, size_t bytes) {
  ensureContext();
  CUDA_CALL(cuMemcpyHtoD, reinterpret_cast<CUdeviceptr>(dst), src, bytes);
  // Complete before the model's kernels (on non-blocking streams) start.
  CUDA_CALL(cuCtxSynchronize);
}

/// Copies `bytes` from `src` (device or host memory, by unified addressing)
/// to host memory.
AMP_EXPORT void ampCudaCopyToHost(void *dst, const void *src, size_t bytes) {
  ensureContext();
  CUDA_CALL(cuMemcpy, reinterpret_cast<CUdeviceptr>(dst),
            reinterpret_cast<CUdeviceptr>(src), bytes);
}

/// Device memory for harnesses, from the same allocator as the compiled
/// code's buffers (so that ampCudaFree frees both alike).
AMP_EXPORT void *ampCudaAlloc(size_t bytes) {
  ensureContext();
  CUdeviceptr ptr = 0;
  if (!bytes)
    return nullptr;
  if (hasMemoryPools()) {
    CUDA_CALL(cuMemAllocAsync, &ptr, bytes, nullptr);
    CUDA_CALL(cuCtxSynchronize);
  } else {
    CUDA_CALL(cuMemAlloc, &ptr, bytes);
  }
  return reinterpret_cast<void *>(ptr);
}

AMP_EXPORT void ampCudaFree(void *ptr) {
  if (!ptr)
    return;
  ensureContext();
  // Outputs of compiled code come from the stream-ordered pool; the null
  // stream orders the free after all work (the call has synchronized).
  if (hasMemoryPools()) {
    CUDA_CALL(cuMemFreeAsync, reinterpret_cast<CUdeviceptr>(ptr), nullptr);
    CUDA_CALL(cuCtxSynchronize);
    return;
  }
  CUDA_CALL(cuMemFree, reinterpret_cast<CUdeviceptr>(ptr));
}

AMP_EXPORT void ampCudaSynchronize() {
  ensureContext();
  CUDA_CALL(cuCtxSynchronize);
}

/// Waits for the work queued on `stream` (a CUstream; null: the legacy
/// default stream).
AMP_EXPORT int ampCudaStreamSynchronize(void *stream) {
  ensureContext();
  return CUDA_CALL(cuStreamSynchronize, static_cast<CUstream>(stream));
}

/// Whether `ptr` is the device copy of a constant (owned by the runtime:
/// harnesses must not free it when a model returns it).
AMP_EXPORT int ampDeviceConstantContains(const void *ptr) {
  std::lock_guard<std::mutex> lock(constantsMutex);
  for (const auto &entry : deviceConstants)
    if (entry.second == ptr)
      return 1;
  return 0;
}
