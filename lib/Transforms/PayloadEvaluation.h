//===- PayloadEvaluation.h - The constant part of a payload -----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What --amp-fold-constant-payloads (ConstantPayloads.cpp) evaluates:
// ConstantPayload marks the values of one linalg.generic's payload that read
// only constant inputs, scalar constants and loop indices, with the loops
// each varies with, and evaluates such a value at every point of its loops
// by a small program of steps (a leaf, a fixed value, a loop index, an op
// of ScalarEvaluation.h). The conversions between dense constants and
// evaluated scalars come with it.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_TRANSFORMS_PAYLOADEVALUATION_H
#define AMP_LIB_TRANSFORMS_PAYLOADEVALUATION_H

#include "amp/Utils/ScalarEvaluation.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <vector>

namespace mlir {
namespace amp {
namespace payloads {

/// Loops a value varies with, one bit each.
using DimSet = uint64_t;
constexpr unsigned kMaxLoops = 64;

/// A constant input of the op, read at a point of the loops.
struct Leaf {
  AffineMap map;
  /// Row-major strides of the constant, per result of the map.
  SmallVector<int64_t, 4> strides;
  /// The elements (one for a splat).
  std::vector<ScalarValue> elements;
  DimSet dims = 0;
};

/// One step of an evaluation program: where a value comes from.
struct Step {
  enum Kind { FromLeaf, Fixed, LoopIndex, FromOp } kind;
  unsigned index = 0; // leaf or loop
  ScalarValue fixed;
  Operation *op = nullptr;
  SmallVector<unsigned, 3> operands; // earlier steps
};

/// Builds a dense constant of `type` from evaluated elements (a splat when
/// they are all equal).
DenseElementsAttr buildElements(RankedTensorType type,
                                ArrayRef<ScalarValue> values);

/// The scalar attribute of `type` holding `value`.
TypedAttr getScalarAttr(Type type, const ScalarValue &value);

/// The constant part of one generic's payload, and its evaluation.
class ConstantPayload {
public:
  ConstantPayload(linalg::GenericOp op, int64_t maxElements)
      : op(op), maxElements(maxElements) {}

  /// Marks the constant values; false if the op cannot take part.
  bool analyze();
  /// The largest constant values read by the rest of the payload, with the
  /// loops each varies with, in payload order.
  SmallVector<std::pair<Value, DimSet>> getRoots() const;
  /// Evaluates `root` at every point of its loops (row-major over the
  /// loops in order); nullopt if some point is undefined or the result
  /// would be too large.
  std::optional<std::vector<ScalarValue>> evaluate(Value root, DimSet dims);
  SmallVector<int64_t> getShape(DimSet dims) const;
  /// The number of points of these loops.
  int64_t getCount(DimSet dims) const;
  bool isConstant(Value value) const { return dimsOf.count(value); }
  DimSet getDims(Value value) const { return dimsOf.lookup(value); }
  /// The arguments of splat inputs that the rest of the payload reads, with
  /// their value.
  SmallVector<std::pair<BlockArgument, ScalarValue>> getSplatLeaves() const;

private:
  /// True if some user of `value` is not a constant value.
  bool isReadByRest(Value value) const;
  void buildProgram(Value root, SmallVectorImpl<Step> &program,
                    llvm::DenseMap<Value, unsigned> &slotOf,
                    int64_t &leafElements);

  /// (Op accessors are not const.)
  mutable linalg::GenericOp op;
  int64_t maxElements;
  SmallVector<int64_t> loopRanges;
  SmallVector<Leaf> leaves;
  llvm::DenseMap<Value, unsigned> leafOf;
  llvm::DenseMap<Value, DimSet> dimsOf;
};

} // namespace payloads
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_TRANSFORMS_PAYLOADEVALUATION_H
