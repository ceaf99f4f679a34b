//===- CudaConstants.cpp - Weights and TMA descriptors on the device --------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ampDeviceConstant_<type>: the device copy of a constant global (the
// weights), uploaded on first use and cached for the life of the process;
// TMA descriptors (mgpuTensorMapEncodeTiledMemref, ampTensorMap2D_<type>),
// cached per buffer and box.
//
//===----------------------------------------------------------------------===//

#include "CudaRuntimeInternal.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <tuple>

using namespace amp::cuda;
using namespace amp::cuda::rt;

namespace {

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

// FP8 matrices: TMA has no FP8 data type and copies bytes (UINT8).
#define AMP_TENSOR_MAP_2D(suffix, dataType)                                    \
  AMP_EXPORT void *ampTensorMap2D_##suffix(int64_t rank, void *descriptor,     \
                                           int64_t boxRows, int64_t boxCols) { \
    return cachedTensorMap2D({rank, descriptor}, dataType, boxRows, boxCols);  \
  }
AMP_TENSOR_MAP_2D(f16, CU_TENSOR_MAP_DATA_TYPE_FLOAT16)
AMP_TENSOR_MAP_2D(bf16, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16)
AMP_TENSOR_MAP_2D(f8E4M3FN, CU_TENSOR_MAP_DATA_TYPE_UINT8)
AMP_TENSOR_MAP_2D(f8E5M2, CU_TENSOR_MAP_DATA_TYPE_UINT8)
#undef AMP_TENSOR_MAP_2D

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

/// Whether `ptr` is the device copy of a constant (owned by the runtime:
/// harnesses must not free it when a model returns it).
AMP_EXPORT int ampDeviceConstantContains(const void *ptr) {
  std::lock_guard<std::mutex> lock(constantsMutex);
  for (const auto &entry : deviceConstants)
    if (entry.second == ptr)
      return 1;
  return 0;
}
