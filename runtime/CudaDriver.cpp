//===- CudaDriver.cpp - The CUDA driver, loaded at run time -----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Loads the driver (libcuda.so.1, or $AMP_CUDA_DRIVER) with dlopen and
// resolves its entry points (CudaDriverApi.h); reports errors; makes the
// primary context current; and the ampCuda* helpers harnesses and
// libamp_model call (errors, profiler ranges, copies, allocations).
//
//===----------------------------------------------------------------------===//

#include "CudaRuntimeInternal.h"

#include <dlfcn.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace amp::cuda;
using namespace amp::cuda::rt;

namespace amp {
namespace cuda {
namespace rt {


/// Loads the driver and resolves its entry points; exits with one line on
/// stderr when there is no driver or it lacks a required entry point.
static Driver loadDriver() {
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

} // namespace rt
} // namespace cuda
} // namespace amp

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
