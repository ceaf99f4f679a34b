//===- OpNames.cpp - Check op names given in pass options -----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Utils/OpNames.h"

#include "mlir/IR/Dialect.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::amp;

std::optional<StringRef> mlir::amp::suggestOpName(MLIRContext *ctx,
                                                  StringRef name) {
  StringRef dialect = name.split('.').first;
  std::optional<StringRef> best;
  unsigned bestDistance = 3;
  for (RegisteredOperationName op : ctx->getRegisteredOperations()) {
    StringRef candidate = op.getStringRef();
    if (candidate.split('.').first != dialect)
      continue;
    unsigned distance = candidate.edit_distance(name, true, bestDistance);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  return best;
}

OpNameStatus mlir::amp::checkOpName(MLIRContext *ctx, StringRef name,
                                    std::string &reason, bool loadDialect) {
  reason.clear();
  // Loading the dialect (if it is in the registry) registers its ops.
  StringRef dialect = name.split('.').first;
  bool dialectKnown = (loadDialect ? ctx->getOrLoadDialect(dialect)
                                   : ctx->getLoadedDialect(dialect)) != nullptr;
  if (RegisteredOperationName::lookup(name, ctx))
    return OpNameStatus::Registered;
  if (!dialectKnown && ctx->allowsUnregisteredDialects())
    return OpNameStatus::Unregistered;
  llvm::raw_string_ostream os(reason);
  if (!dialectKnown)
    os << "(no dialect '" << dialect << "' is "
       << (loadDialect ? "registered" : "loaded") << ")";
  else if (std::optional<StringRef> near = suggestOpName(ctx, name))
    os << "(did you mean '" << *near << "'?)";
  return OpNameStatus::Unknown;
}
