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
// This file: modules, launches, streams and events, memory. The driver and
// the harness helpers are in CudaDriver.cpp, the weights and TMA
// descriptors in CudaConstants.cpp, graphs in CudaGraphs.cpp.
//
// Written from the CUDA driver API documentation (cuda.h).
//
//===----------------------------------------------------------------------===//

#include "CudaRuntimeInternal.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

using namespace amp::cuda;
using namespace amp::cuda::rt;

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
std::mutex amp::cuda::rt::streamMutex;
std::vector<CUstream> &amp::cuda::rt::freeStreams = *new std::vector<CUstream>;

Capture *amp::cuda::rt::capture = nullptr; // guarded by streamMutex

/// Whether `stream` is the capturing stream.
bool amp::cuda::rt::isCapturing(CUstream stream) {
  std::lock_guard<std::mutex> lock(streamMutex);
  return capture && capture->stream == stream;
}

bool amp::cuda::rt::captureInProgress() {
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
void amp::cuda::rt::invalidateCapture(const char *why) {
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

