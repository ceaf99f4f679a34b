//===- ModelLibrary.h - A loaded model and the memory of its device -------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pieces libamp_model's two halves share: the loaded library with its
// ABI table (ModelAbi.h), the device operations of its build (amp's CUDA
// runtime for a GPU build, the host's malloc for a CPU one), and the
// per-thread error message.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_MODELLIBRARY_H
#define AMP_RUNTIME_MODELLIBRARY_H

#include "ModelAbi.h"
#include "amp_model.h"

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace amp::runtime {

/// Records `message` as the calling thread's last error; returns `status`.
amp_status fail(amp_status status, std::string message);

/// Memory and synchronization of the model's device. For a CPU build,
/// device memory is host memory and the graph entry points are null.
struct DeviceOps {
  void *(*alloc)(size_t) = nullptr;
  void (*free)(void *) = nullptr;
  void (*toDevice)(void *, const void *, size_t) = nullptr;
  void (*toHost)(void *, const void *, size_t) = nullptr;
  int (*takeError)() = nullptr;
  int (*isConstant)(const void *) = nullptr;
  void (*synchronize)() = nullptr;
  int (*captureBegin)() = nullptr;
  void *(*captureEnd)() = nullptr;
  int (*graphLaunch)(void *) = nullptr;
  void (*graphDestroy)(void *) = nullptr;
  /// cuStreamSynchronize of the driver the runtime loaded (GPU builds).
  int (*streamSynchronize)(void *) = nullptr;
  /// ampGraphRun: copies in, one replay, copies out, one synchronization.
  int (*graphRun)(void *, int, void *const *, const void *const *,
                  const size_t *, int, void *const *, const void *const *,
                  const size_t *) = nullptr;
};

/// Remembers that `data` is an output amp allocated, freed by `release`
/// (amp_tensor_free).
void noteAllocation(void *data, void (*release)(void *));

/// Bytes of one element of `dtype` (MLIR's spelling), 0 if unknown.
size_t elementBytes(const char *dtype);
/// The C API's dtype for MLIR's spelling; false if there is none.
bool dtypeOf(const char *mlirType, amp_dtype &dtype);

} // namespace amp::runtime

struct amp_model {
  void *handle = nullptr;
  const amp_abi_model *abi = nullptr;
  std::string path;
  /// "cuda", "emulator" or "cpu".
  std::string device;
  amp::runtime::DeviceOps ops;
  bool gpu = false;
  /// Runs of this model's contexts, one at a time.
  std::mutex runMutex;
  /// Whether `ptr` is memory the model's library holds (a CPU build's
  /// constant returned as an output), which must not be freed.
  bool ownsMemory(const void *ptr) const;
};

#endif // AMP_RUNTIME_MODELLIBRARY_H
