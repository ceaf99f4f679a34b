//===- MathModels.cpp - amp external models for math ops ------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Colors of math ops. Red follows the RFC's rule, "f where |f(x)| >> |x|",
// and the union of the FP32 lists of TensorFlow AMP, PyTorch autocast and TVM
// (exp, log, pow, rsqrt, erf, hyperbolic and inverse trig functions).
//
//===----------------------------------------------------------------------===//

#include "ModelUtils.h"

#include "amp/ExternalModels/ExternalModels.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::amp;

void mlir::amp::registerMathExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, math::MathDialect *) {
    models::attachElementwiseModels<
        Color::red, math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp,
        math::Log10Op, math::Log1pOp, math::Log2Op, math::PowFOp,
        math::FPowIOp, math::RsqrtOp, math::ErfOp, math::ErfcOp, math::SinhOp,
        math::CoshOp, math::TanOp, math::AcosOp, math::AsinOp, math::AcoshOp,
        math::AsinhOp, math::AtanhOp>(ctx);
    models::attachElementwiseModels<
        Color::gray, math::AbsFOp, math::CeilOp, math::FloorOp, math::RoundOp,
        math::RoundEvenOp, math::TruncOp, math::SqrtOp, math::CbrtOp,
        math::TanhOp, math::SinOp, math::CosOp, math::SincosOp, math::AtanOp,
        math::Atan2Op, math::CopySignOp, math::FmaOp, math::ClampFOp,
        math::IsFiniteOp, math::IsInfOp, math::IsNaNOp, math::IsNormalOp>(ctx);
  });
}
