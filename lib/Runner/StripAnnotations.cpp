//===- StripAnnotations.cpp - Remove amp's attributes ---------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The --amp-strip-annotations pass: every discardable `amp.*` attribute goes,
// so that tools without amp's dialect can read the module.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Passes.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPSTRIPANNOTATIONSPASS
#include "amp/Runner/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {

struct AmpStripAnnotationsPass
    : public amp::impl::AmpStripAnnotationsPassBase<AmpStripAnnotationsPass> {
  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      SmallVector<StringAttr> names;
      for (NamedAttribute attr : op->getDiscardableAttrs())
        if (attr.getName().getValue().starts_with("amp."))
          names.push_back(attr.getName());
      for (StringAttr name : names)
        op->removeDiscardableAttr(name);
      numRemoved += names.size();
    });
  }
};

} // namespace
