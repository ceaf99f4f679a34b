//===- ConversionMemo.h - Conversions a function reuses --------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A model converts the same things again and again: the clamp bounds 0 and 6
// of every layer, its zero points, the tensor type of every activation. Each
// conversion asks MLIR's uniquer for an attribute or a type it made moments
// before (a hash of the whole key and a lock in a threaded context). While a
// ConversionMemo::Scope is alive, the utilities that build those results
// (convertFloatConstant, checkFloatRange, cloneWithElementType) answer from a
// table of what they built for the same inputs on this thread instead.
//
// The tables hold uniqued attributes and types, which live as long as the
// context: a memo changes how fast a result is found, never what it is. A
// pass makes one memo per function it converts, on the thread that converts
// it (functions convert in parallel); outside a scope the utilities work as
// before.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UTILS_CONVERSIONMEMO_H
#define AMP_UTILS_CONVERSIONMEMO_H

#include "amp/Utils/FloatConversion.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace amp {

class ConversionMemo {
public:
  /// Makes a memo the one this thread's conversions use while it is alive
  /// (scopes nest: the innermost wins).
  class Scope {
  public:
    explicit Scope(ConversionMemo &memo);
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

  private:
    ConversionMemo *previous;
  };

  /// The memo of the innermost live scope on this thread, or null.
  static ConversionMemo *getActive();

  /// The entry of `map` for `key`, made by `compute` the first time it is
  /// asked for (`compute` may use the memo's other tables).
  template <typename Map, typename Key, typename Compute>
  static typename Map::mapped_type &getOrCompute(Map &map, const Key &key,
                                                 Compute compute) {
    if (auto it = map.find(key); it != map.end())
      return it->second;
    auto value = compute();
    return map.try_emplace(key, std::move(value)).first->second;
  }

  /// A converted constant and what converting it found.
  struct Constant {
    TypedAttr value;
    RangeSummary summary;
  };
  llvm::DenseMap<std::pair<Attribute, Type>, Constant> constants;
  /// A direct-mapped cache in front of `constants` (a copy of the entry: the
  /// map moves its entries when it grows).
  struct RecentConstant {
    Attribute attr;
    Type target;
    Constant converted;
  };
  RecentConstant recentConstants[16];
  llvm::DenseMap<std::pair<Attribute, Type>, RangeSummary> ranges;
  llvm::DenseMap<std::pair<Type, Type>, Type> types;
  /// The value of each float attribute read (clamp bounds, scalar
  /// constants: the same few attributes in every layer).
  llvm::DenseMap<Attribute, double> floatValues;
  /// The MixedPrecisionOpInterface model of each op name, or null (kept by
  /// amp/IR, which owns the interface: getMixedPrecisionInterface).
  llvm::DenseMap<OperationName, const void *> opModels;
  /// A direct-mapped cache in front of `opModels`: a function is made of a
  /// handful of op names, asked for several times per op.
  struct RecentModel {
    const void *name = nullptr;
    const void *model = nullptr;
  };
  RecentModel recentModels[16];
};

/// The value of `attr` as a double (exact for the float types amp reads);
/// answered from the active ConversionMemo when there is one.
double getFloatAttrValue(FloatAttr attr);

/// `type` with element type `elementType` if it is shaped, otherwise
/// `elementType` (ranked tensors without the ShapedType interface lookup);
/// answered from the active ConversionMemo when there is one.
Type cloneWithElementType(Type type, Type elementType);

} // namespace amp
} // namespace mlir

#endif // AMP_UTILS_CONVERSIONMEMO_H
