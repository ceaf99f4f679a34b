//===- Probes.cpp - Watch values of a compiled model as it runs -----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Probes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::amp::runner;

namespace {
/// The sink the probes report to (set by ProbeSink::symbols).
ProbeSink *activeSink = nullptr;

/// An unranked memref as the C interface passes it.
struct UnrankedDescriptor {
  int64_t rank;
  void *descriptor;
};

template <typename T> void probe(int64_t id, UnrankedDescriptor *memref) {
  if (!activeSink)
    return;
  const int64_t *words = static_cast<const int64_t *>(memref->descriptor);
  const T *aligned = reinterpret_cast<const T *>(words[1]);
  int64_t offset = words[2], rank = memref->rank;
  const int64_t *sizes = words + 3, *strides = words + 3 + rank;
  int64_t total = 1;
  for (int64_t d = 0; d < rank; ++d)
    total *= sizes[d];
  static thread_local std::vector<double> values;
  values.resize(total);
  // Walk the (possibly strided) elements in row-major order.
  std::vector<int64_t> index(rank, 0);
  int64_t at = offset;
  for (int64_t n = 0; n < total; ++n) {
    values[n] = static_cast<double>(aligned[at]);
    for (int64_t d = rank - 1; d >= 0; --d) {
      at += strides[d];
      if (++index[d] < sizes[d])
        break;
      at -= index[d] * strides[d];
      index[d] = 0;
    }
  }
  activeSink->observe(id, values);
}

constexpr llvm::StringLiteral kProbeF32 = "__amp_probe_f32";
constexpr llvm::StringLiteral kProbeF64 = "__amp_probe_f64";
constexpr llvm::StringLiteral kReadOnly = "bufferization.access";
} // namespace

extern "C" void ampProbeF32(int64_t id, UnrankedDescriptor *memref) {
  probe<float>(id, memref);
}
extern "C" void ampProbeF64(int64_t id, UnrankedDescriptor *memref) {
  probe<double>(id, memref);
}

/// Declares the probe taking `element` tensors.
static func::FuncOp declareProbe(ModuleOp module, StringRef name,
                                 Type element) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  b.setInsertionPointToStart(module.getBody());
  auto type =
      b.getFunctionType({b.getI64Type(), UnrankedTensorType::get(element)}, {});
  auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
  fn.setPrivate();
  fn->setAttr("llvm.emit_c_interface", b.getUnitAttr());
  // The probe only reads its argument: no copy before the call (the
  // attribute is removed after bufferization, see stripProbeAttributes).
  fn.setArgAttr(1, kReadOnly, b.getStringAttr("read"));
  return fn;
}

void mlir::amp::runner::insertProbes(ModuleOp module,
                                     ArrayRef<ProbePoint> points,
                                     int64_t firstId) {
  OpBuilder b(module.getContext());
  for (auto [id, p] : llvm::enumerate(points)) {
    Value value = p.op ? Value(p.op->getResult(p.result)) : Value(p.argument);
    auto type = cast<RankedTensorType>(value.getType());
    Type element = type.getElementType();
    Location loc = p.op ? p.op->getLoc() : p.argument.getLoc();
    if (p.op)
      b.setInsertionPointAfter(p.op);
    else
      b.setInsertionPointToStart(p.argument.getOwner());
    if (!element.isF32() && !element.isF64()) {
      // f16, bf16 and the rest are widened for the probe.
      element = b.getF32Type();
      value = arith::ExtFOp::create(b, loc, type.clone(element), value);
    }
    func::FuncOp probeFn =
        declareProbe(module, element.isF64() ? kProbeF64 : kProbeF32, element);
    Value unranked =
        tensor::CastOp::create(b, loc, UnrankedTensorType::get(element), value);
    Value idValue = arith::ConstantIntOp::create(
        b, loc, b.getI64Type(), firstId + static_cast<int64_t>(id));
    func::CallOp::create(b, loc, probeFn, ValueRange{idValue, unranked});
  }
}

void mlir::amp::runner::stripProbeAttributes(ModuleOp lowered) {
  lowered.walk([](LLVM::LLVMFuncOp fn) {
    for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
      fn.removeArgAttr(i, kReadOnly);
  });
}

ProbeSink::~ProbeSink() {
  if (activeSink == this)
    activeSink = nullptr;
}

void ProbeSink::activate() { activeSink = this; }

std::vector<std::pair<std::string, void *>> ProbeSink::symbols() {
  activate();
  return getProbeSymbols();
}

std::vector<std::pair<std::string, void *>>
mlir::amp::runner::getProbeSymbols() {
  return {{("_mlir_ciface_" + kProbeF32).str(),
           reinterpret_cast<void *>(&ampProbeF32)},
          {("_mlir_ciface_" + kProbeF64).str(),
           reinterpret_cast<void *>(&ampProbeF64)}};
}
