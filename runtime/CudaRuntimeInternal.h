//===- CudaRuntimeInternal.h - What the runtime's files share ---------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The driver and its errors (CudaDriver.cpp), memref descriptors, and the
// state of a graph capture in progress (CudaRuntime.cpp), for the files of
// libamp_cuda_runtime.so: CudaDriver.cpp (loading the driver, contexts,
// helpers for harnesses), CudaRuntime.cpp (modules, launches, streams,
// memory), CudaConstants.cpp (device copies of the weights, TMA
// descriptors) and CudaGraphs.cpp (capture and replay). Nothing here is
// exported.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CUDARUNTIMEINTERNAL_H
#define AMP_RUNTIME_CUDARUNTIMEINTERNAL_H

#include "CudaDriverApi.h"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#define AMP_EXPORT extern "C" __attribute__((visibility("default")))

namespace amp {
namespace cuda {
namespace rt {

//===----------------------------------------------------------------------===//
// The driver, its errors and the context (CudaDriver.cpp)
//===----------------------------------------------------------------------===//

/// The driver's entry points (null for a missing optional one).
struct Driver {
#define AMP_DRIVER_FIELD(name, symbol, need, ret, params) PFN_##name name;
  AMP_CUDA_DRIVER_ENTRY_POINTS(AMP_DRIVER_FIELD)
#undef AMP_DRIVER_FIELD
  /// What was loaded, for messages.
  const char *path;
};

/// The driver, loaded on first use (exits with one line on stderr when
/// there is none).
const Driver &driver();

/// The last error any entry point reported (ampCudaTakeLastError).
extern CUresult lastError;
/// The device mgpuSetDefaultDevice chose.
extern int defaultDevice;

/// Reports a failed call on stderr and remembers its error; returns
/// `result`.
CUresult report(CUresult result, const char *expr, const char *where);
bool hasEntryPoint(bool present, const char *name, const char *feature);

/// Calls the driver's entry point `fn` and reports a failure with the call
/// as written.
#define CUDA_CALL(fn, ...)                                                     \
  report(driver().fn(__VA_ARGS__), #fn "(" #__VA_ARGS__ ")", __func__)

/// Whether the driver has the optional entry point `fn`; reports which
/// feature needs it otherwise.
#define CUDA_HAS(fn, feature)                                                  \
  hasEntryPoint(driver().fn != nullptr, #fn, feature)

/// Makes the primary context of the default device current on this thread.
CUcontext ensureContext();
CUdevice currentDevice();
int deviceAttribute(CUdevice_attribute attribute);
/// Whether cuMemAllocAsync / cuMemFreeAsync can be used.
bool hasMemoryPools();

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

inline int64_t descSize(const RankedDescriptor *d, int64_t i) {
  return d->sizesAndStrides[i];
}
inline int64_t descStride(const RankedDescriptor *d, int64_t rank, int64_t i) {
  return d->sizesAndStrides[rank + i];
}
inline char *descData(const RankedDescriptor *d, int64_t elementBytes) {
  return static_cast<char *>(d->aligned) + d->offset * elementBytes;
}
inline size_t descriptorBytes(int64_t rank) {
  return sizeof(void *) * 2 + sizeof(int64_t) * (1 + 2 * rank);
}

/// Bytes spanned by a memref (from its first to one past its last element).
inline size_t spannedBytes(const RankedDescriptor *d, int64_t rank,
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
// A graph capture in progress (CudaRuntime.cpp, CudaGraphs.cpp)
//===----------------------------------------------------------------------===//

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
extern Capture *capture; // guarded by streamMutex
/// Guards `capture` and the free streams.
extern std::mutex streamMutex;
/// Streams to recycle (each call of a compiled function asks for one).
extern std::vector<CUstream> &freeStreams;

/// Whether `stream` is the capturing stream.
bool isCapturing(CUstream stream);
/// Whether this thread is capturing a call.
bool captureInProgress();
/// Marks this thread's capture in progress, if any, as not replayable.
void invalidateCapture(const char *why);

} // namespace rt
} // namespace cuda
} // namespace amp

extern "C" {
amp::cuda::CUstream mgpuStreamCreate();
void mgpuStreamDestroy(amp::cuda::CUstream stream);
}

#endif // AMP_RUNTIME_CUDARUNTIMEINTERNAL_H
