//===- GenUnregistered.cpp - Unregistered ops for the graph generator -----===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Ops of no registered dialect ("foo.op", and "foo.region" with a region
// that captures a value), only where GeneratorOptions::unregisteredOps: the
// module must then be parsed with unregistered dialects allowed, and amp
// must leave what it cannot know alone.
//
//===----------------------------------------------------------------------===//

#include "GenCore.h"

using namespace mlir::amp::fuzz::gen;

static bool emitUnregistered(Generator &gen) {
  if (!gen.options.unregisteredOps || gen.options.executable)
    return false;
  gen.usesUnregistered = true;
  auto a = gen.pickFloatData(true, false);
  Val x = a ? *a : gen.getScalar();
  std::string t = x.ty.str();
  Val r{gen.fresh(), x.ty};
  if (gen.rng.chance(70)) {
    gen.line(r.name + " = \"foo.op\"(" + x.name + ") : (" + t + ") -> " + t);
  } else {
    // With a region that captures a value.
    gen.line(r.name + " = \"foo.region\"(" + x.name + ") ({");
    ++gen.indent;
    gen.line("\"foo.yield\"(" + x.name + ") : (" + t + ") -> ()");
    gen.endRegion("}) : (" + t + ") -> " + t);
  }
  gen.add(r);
  return true;
}

void mlir::amp::fuzz::gen::registerUnregisteredEmitters(EmitterTable &table) {
  static const Emitter emitters[] = {
      {emitUnregistered, 2},
  };
  table.add(emitters);
}
