//===- WeightQuantization.h - Weight-only formats and their rounding -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The weight-only formats of --amp-mixed-precision (`weight-only=`, the
// `amp.weights` annotation, amp-tune's --precisions) and the round-to-
// nearest quantization of a weight into one of them. IR-free: a weight is a
// row-major array whose innermost dimension is the reduction (K-major, as
// the contraction reads it), and the result is the bytes, scales and zero
// points that the constants of the IR form hold (docs/weight-only.md):
//
//   int8          q = RNE(w / s), |q| <= 127, s = amax / 127 per channel
//   int4-gG       q = RNE(w / s) in [-8, 7], s = amax / 7 per group of G
//                 consecutive K elements of a channel (G = 32, 64, 128)
//   int4-gG-asym  q = RNE(w / s) + z in [0, 15], s = (max - min) / 15 and
//                 z = RNE(-min / s) over the group, min <= 0 <= max
//   e4m3          q = E4M3(w / s) (RNE, saturating), s = amax / 448 per
//                 channel
//
// and every format reads back as w' = (q - z) * s in f32, rounded to the
// contraction's 16-bit type: the exact numerics of the CPU and GPU forms.
// Two int4 values share a byte, element 2j in the low nibble. int4 scales
// are f16 (f32 when one of them is not a normal f16), the others f32.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UTILS_WEIGHTQUANTIZATION_H
#define AMP_UTILS_WEIGHTQUANTIZATION_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace amp {

/// How a weight-only contraction stores its weight.
enum class WeightFormat { Int8, Int4, E4M3 };

/// A weight-only format: "int8", "int4-g128", "int4-g64-asym", "e4m3".
struct WeightQuantSpec {
  WeightFormat format = WeightFormat::Int8;
  /// int4: the group size along K (32, 64 or 128); 0 for the per-channel
  /// formats.
  int64_t group = 0;
  /// int4 only: unsigned values with a zero point per group.
  bool asymmetric = false;

  /// The spelling that parseWeightQuantSpec reads.
  std::string str() const;
  /// Bits per stored weight (8 or 4).
  unsigned getBits() const { return format == WeightFormat::Int4 ? 4 : 8; }
  bool operator==(const WeightQuantSpec &other) const {
    return format == other.format && group == other.group &&
           asymmetric == other.asymmetric;
  }
  bool operator!=(const WeightQuantSpec &other) const {
    return !(*this == other);
  }
};

/// Parses a format name; on failure sets `error` to a sentence that lists
/// the names.
std::optional<WeightQuantSpec> parseWeightQuantSpec(StringRef text,
                                                    std::string &error);

/// A weight of `rows` x `cols` (cols: the innermost, reduction dimension),
/// quantized. `channels` divides `rows`: rows / channels consecutive rows
/// share a channel's scale in the per-channel formats.
struct QuantizedWeight {
  WeightQuantSpec spec;
  int64_t rows = 0, cols = 0, channels = 0;
  /// int8: one two's-complement byte per value; int4: two values per byte
  /// (column 2j in the low nibble, 2j + 1 in the high one), signed for the
  /// symmetric format and unsigned for the asymmetric one; e4m3: FP8 bits.
  std::vector<uint8_t> data;
  /// The multipliers, as the dequantization reads them (f16 scales already
  /// rounded): one per channel, or one per (row, group) for int4.
  std::vector<float> scales;
  /// True if the scales are stored as f16.
  bool f16Scales = false;
  /// Asymmetric int4: one zero point (0..15) per (row, group).
  std::vector<uint8_t> zeros;

  /// Groups per row: cols / group for int4, 1 otherwise.
  int64_t getGroupsPerRow() const {
    return spec.format == WeightFormat::Int4 ? cols / spec.group : 1;
  }
  /// The stored value at (row, col), before the zero point.
  int32_t getStored(int64_t row, int64_t col) const;
  /// w' = (q - z) * s in f32: what the weight reads back as before it is
  /// rounded to the 16-bit type.
  float dequantize(int64_t row, int64_t col) const;
  /// Bytes of the packed values, the scales and the zero points.
  int64_t getByteSize() const;
};

/// Why `spec` cannot store a weight of `rows` x `cols` with `channels`
/// channels, or empty if it can.
std::string checkWeightShape(const WeightQuantSpec &spec, int64_t rows,
                             int64_t cols, int64_t channels);

/// Quantizes `values` (row-major, rows x cols) by round-to-nearest. Fails
/// (setting `error`) on a shape checkWeightShape refuses or a value that is
/// not finite.
std::optional<QuantizedWeight> quantizeWeight(ArrayRef<float> values,
                                              int64_t rows, int64_t cols,
                                              int64_t channels,
                                              const WeightQuantSpec &spec,
                                              std::string &error);

/// Rounds an f32 value to f16 (RNE) and back.
float roundToF16(float value);

} // namespace amp
} // namespace mlir

#endif // AMP_UTILS_WEIGHTQUANTIZATION_H
