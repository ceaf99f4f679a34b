//===- TensorMap.h - TMA tensor maps of the emulated driver -----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What cuTensorMapEncodeTiled writes into the opaque 128-byte CUtensorMap,
// for the emulator: our own layout (the hardware's is undocumented), checked
// by a magic number when a kernel uses the map. Encoding validates the
// arguments as the CUDA driver API documentation of cuTensorMapEncodeTiled
// describes (alignment of the address and strides, box and element-stride
// ranges, swizzle span).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_EMULATOR_TENSORMAP_H
#define AMP_EMULATOR_TENSORMAP_H

#include <cstdint>
#include <string>

namespace amp {
namespace emu {

/// CUtensorMapDataType values (cuda.h).
enum TensorMapDataType : uint8_t {
  kTmUint8 = 0,
  kTmUint16 = 1,
  kTmUint32 = 2,
  kTmInt32 = 3,
  kTmUint64 = 4,
  kTmInt64 = 5,
  kTmFloat16 = 6,
  kTmFloat32 = 7,
  kTmFloat64 = 8,
  kTmBFloat16 = 9,
  kTmFloat32Ftz = 10,
  kTmTFloat32 = 11,
  kTmTFloat32Ftz = 12,
};

struct TensorMap {
  static constexpr uint32_t kMagic = 0x544d4541; // "AEMT"
  uint32_t magic = 0;
  uint8_t dataType = 0;
  uint8_t rank = 0;
  uint8_t interleave = 0; // 0 none, 1 16B, 2 32B
  uint8_t swizzle = 0;    // 0 none, 1 32B, 2 64B, 3 128B
  uint8_t l2Promotion = 0;
  uint8_t oobFill = 0;    // 0 zeros, 1 NaN (request zero FMA)
  uint8_t elementBytes = 0;
  uint8_t reserved = 0;
  uint64_t globalAddress = 0;
  uint32_t globalDim[5] = {};
  uint64_t globalStrides[4] = {}; // bytes, of dimensions 1..rank-1
  uint16_t boxDim[5] = {};
  uint8_t elementStrides[5] = {};

  uint32_t swizzleBytes() const {
    return swizzle == 3 ? 128 : swizzle == 2 ? 64 : swizzle == 1 ? 32 : 0;
  }
  uint64_t boxBytes() const {
    uint64_t n = elementBytes;
    for (int i = 0; i < rank; ++i)
      n *= boxDim[i];
    return n;
  }
};
static_assert(sizeof(TensorMap) <= 128, "must fit a CUtensorMap");

/// Bytes of an element of a CUtensorMapDataType, 0 if unknown.
inline uint32_t tensorMapElementBytes(uint32_t dataType) {
  switch (dataType) {
  case kTmUint8:
    return 1;
  case kTmUint16:
  case kTmFloat16:
  case kTmBFloat16:
    return 2;
  case kTmUint32:
  case kTmInt32:
  case kTmFloat32:
  case kTmFloat32Ftz:
  case kTmTFloat32:
  case kTmTFloat32Ftz:
    return 4;
  case kTmUint64:
  case kTmInt64:
  case kTmFloat64:
    return 8;
  default:
    return 0;
  }
}

/// Validates and encodes; false with `why` on arguments the driver rejects.
bool encodeTensorMap(TensorMap &map, uint32_t dataType, uint32_t rank,
                     uint64_t globalAddress, const uint64_t *globalDim,
                     const uint64_t *globalStrides, const uint32_t *boxDim,
                     const uint32_t *elementStrides, uint32_t interleave,
                     uint32_t swizzle, uint32_t l2Promotion, uint32_t oobFill,
                     std::string &why);

} // namespace emu
} // namespace amp

#endif // AMP_EMULATOR_TENSORMAP_H
