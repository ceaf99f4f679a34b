//===- OpAttributes.h - Read an op's attributes one by one ------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Op::getAttrs() builds a dictionary of an op's properties on every call, and
// reading the operand segment sizes as an attribute builds (and uniques) an
// array attribute: both are costly when asked for every op of a large
// function.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UTILS_OPATTRIBUTES_H
#define AMP_UTILS_OPATTRIBUTES_H

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"

namespace mlir {
namespace amp {

/// Calls `fn(name, value)` for each inherent attribute of `op` that is set,
/// read one by one, but the operand and result segment sizes (structure, not
/// data), then for each discardable attribute. For an unregistered op, for
/// each of its attributes.
inline void forEachAttribute(Operation *op,
                             function_ref<void(StringAttr, Attribute)> fn) {
  std::optional<RegisteredOperationName> info = op->getRegisteredInfo();
  if (!info) {
    for (NamedAttribute attr : op->getAttrs())
      fn(attr.getName(), attr.getValue());
    return;
  }
  for (StringAttr name : info->getAttributeNames()) {
    StringRef text = name.getValue();
    if (text == "operandSegmentSizes" || text == "resultSegmentSizes")
      continue;
    if (std::optional<Attribute> value = op->getInherentAttr(name);
        value && *value)
      fn(name, *value);
  }
  for (NamedAttribute attr : op->getDiscardableAttrs())
    fn(attr.getName(), attr.getValue());
}

} // namespace amp
} // namespace mlir

#endif // AMP_UTILS_OPATTRIBUTES_H
