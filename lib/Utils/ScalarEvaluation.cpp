//===- ScalarEvaluation.cpp - Evaluate scalar arith/math ops --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The table of ScalarEvaluation.h: one entry per op, either a float function
// of one or two operands, an integer function of two, or an op of its own
// (constants, comparisons, selects, conversions).
//
//===----------------------------------------------------------------------===//

#include "amp/Utils/ScalarEvaluation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amp;

bool mlir::amp::isEvaluableScalarType(Type type) {
  if (type.isF32() || type.isF64() || type.isIndex())
    return true;
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.isSignless() && integer.getWidth() <= 64;
}

double mlir::amp::roundToFloatType(Type type, double value) {
  return type.isF32() ? static_cast<double>(static_cast<float>(value)) : value;
}

namespace {
using Values = ArrayRef<ScalarValue>;

unsigned getWidth(Type type) {
  return type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
}
/// `bits` as an integer of `type`: its low bits, sign-extended.
int64_t wrapTo(Type type, uint64_t bits) {
  unsigned width = getWidth(type);
  return width >= 64 ? static_cast<int64_t>(bits)
                     : llvm::SignExtend64(bits, width);
}
/// The value `v` of integer type `type`, read as unsigned.
uint64_t asUnsigned(Type type, int64_t v) {
  unsigned width = getWidth(type);
  return width >= 64 ? static_cast<uint64_t>(v)
                     : static_cast<uint64_t>(v) & llvm::maskTrailingOnes<uint64_t>(width);
}
Type resultType(Operation *op) { return op->getResult(0).getType(); }
Type operandType(Operation *op, unsigned i) {
  return op->getOperand(i).getType();
}
ScalarValue floatValue(Operation *op, double v) {
  return {roundToFloatType(resultType(op), v), 0};
}
ScalarValue intValue(Operation *op, uint64_t bits) {
  return {0, wrapTo(resultType(op), bits)};
}
ScalarValue boolValue(bool b) { return {0, b ? -1 : 0}; }

bool compareFloats(arith::CmpFPredicate predicate, double a, double b) {
  using P = arith::CmpFPredicate;
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (predicate) {
  case P::AlwaysFalse:
    return false;
  case P::AlwaysTrue:
    return true;
  case P::OEQ:
    return !unordered && a == b;
  case P::OGT:
    return !unordered && a > b;
  case P::OGE:
    return !unordered && a >= b;
  case P::OLT:
    return !unordered && a < b;
  case P::OLE:
    return !unordered && a <= b;
  case P::ONE:
    return !unordered && a != b;
  case P::ORD:
    return !unordered;
  case P::UEQ:
    return unordered || a == b;
  case P::UGT:
    return unordered || a > b;
  case P::UGE:
    return unordered || a >= b;
  case P::ULT:
    return unordered || a < b;
  case P::ULE:
    return unordered || a <= b;
  case P::UNE:
    return unordered || a != b;
  case P::UNO:
    return unordered;
  }
  return false;
}

bool compareIntegers(arith::CmpIPredicate predicate, int64_t a, int64_t b,
                     uint64_t ua, uint64_t ub) {
  using P = arith::CmpIPredicate;
  switch (predicate) {
  case P::eq:
    return a == b;
  case P::ne:
    return a != b;
  case P::slt:
    return a < b;
  case P::sle:
    return a <= b;
  case P::sgt:
    return a > b;
  case P::sge:
    return a >= b;
  case P::ult:
    return ua < ub;
  case P::ule:
    return ua <= ub;
  case P::ugt:
    return ua > ub;
  case P::uge:
    return ua >= ub;
  }
  return false;
}

/// IEEE maximum/minimum (NaN propagates, -0 < +0) and maxNum/minNum (a NaN
/// operand gives the other).
double maximum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::nan("");
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
double minimum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::nan("");
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

/// One entry of the table.
struct Evaluator {
  double (*unary)(double) = nullptr;
  double (*binary)(double, double) = nullptr;
  /// On signed values (sign-extended) and unsigned ones (zero-extended);
  /// nullopt where the op is undefined (a division by zero).
  std::optional<uint64_t> (*integer)(int64_t, int64_t, uint64_t,
                                     uint64_t) = nullptr;
  /// Ops of their own.
  std::optional<ScalarValue> (*special)(Operation *, Values) = nullptr;
};

std::optional<ScalarValue> evaluateConstant(Operation *op, Values) {
  return getScalarConstant(op);
}

std::optional<ScalarValue> evaluateConversion(Operation *op, Values v) {
  Type from = operandType(op, 0), to = resultType(op);
  if (isa<FloatType>(from) && isa<FloatType>(to))
    return floatValue(op, v[0].f);
  if (isa<FloatType>(to)) {
    if (isa<arith::UIToFPOp>(op))
      return floatValue(op, static_cast<double>(asUnsigned(from, v[0].i)));
    return floatValue(op, static_cast<double>(v[0].i));
  }
  if (isa<FloatType>(from)) {
    // fptosi/fptoui: poison out of range (left to run time).
    double t = std::trunc(v[0].f);
    unsigned width = getWidth(to);
    bool isUnsigned = isa<arith::FPToUIOp>(op);
    double lo = isUnsigned ? 0 : -std::ldexp(1.0, width - 1);
    double hi = isUnsigned ? std::ldexp(1.0, width) : std::ldexp(1.0, width - 1);
    if (!(t >= lo && t < hi) || width > 63)
      return std::nullopt;
    return intValue(op, static_cast<uint64_t>(static_cast<int64_t>(t)));
  }
  // Integer to integer: a zero extension reads the source unsigned.
  if (isa<arith::ExtUIOp, arith::IndexCastUIOp>(op))
    return intValue(op, asUnsigned(from, v[0].i));
  return intValue(op, static_cast<uint64_t>(v[0].i));
}

std::optional<ScalarValue> evaluateCmpF(Operation *op, Values v) {
  return boolValue(compareFloats(cast<arith::CmpFOp>(op).getPredicate(),
                                 v[0].f, v[1].f));
}

std::optional<ScalarValue> evaluateCmpI(Operation *op, Values v) {
  Type type = operandType(op, 0);
  return boolValue(compareIntegers(cast<arith::CmpIOp>(op).getPredicate(),
                                   v[0].i, v[1].i, asUnsigned(type, v[0].i),
                                   asUnsigned(type, v[1].i)));
}

std::optional<ScalarValue> evaluateSelect(Operation *, Values v) {
  return v[0].i ? v[1] : v[2];
}

std::optional<ScalarValue> evaluateFma(Operation *op, Values v) {
  return floatValue(op, std::fma(v[0].f, v[1].f, v[2].f));
}

std::optional<ScalarValue> evaluateFPowI(Operation *op, Values v) {
  return floatValue(op, std::pow(v[0].f, static_cast<double>(v[1].i)));
}

template <typename OpTy>
std::pair<TypeID, Evaluator> unaryF(double (*fn)(double)) {
  Evaluator e;
  e.unary = fn;
  return {TypeID::get<OpTy>(), e};
}
template <typename OpTy>
std::pair<TypeID, Evaluator> binaryF(double (*fn)(double, double)) {
  Evaluator e;
  e.binary = fn;
  return {TypeID::get<OpTy>(), e};
}
template <typename OpTy>
std::pair<TypeID, Evaluator>
binaryI(std::optional<uint64_t> (*fn)(int64_t, int64_t, uint64_t, uint64_t)) {
  Evaluator e;
  e.integer = fn;
  return {TypeID::get<OpTy>(), e};
}
template <typename... OpTys>
void addSpecial(llvm::DenseMap<TypeID, Evaluator> &table,
                std::optional<ScalarValue> (*fn)(Operation *, Values)) {
  Evaluator e;
  e.special = fn;
  (table.insert({TypeID::get<OpTys>(), e}), ...);
}

using IntResult = std::optional<uint64_t>;
uint64_t bits(int64_t v) { return static_cast<uint64_t>(v); }

/// The float ops of arith and math, evaluated in double.
void addFloatOps(llvm::DenseMap<TypeID, Evaluator> &t) {
  for (auto entry : {
           // arith, floats.
           binaryF<arith::AddFOp>([](double a, double b) { return a + b; }),
           binaryF<arith::SubFOp>([](double a, double b) { return a - b; }),
           binaryF<arith::MulFOp>([](double a, double b) { return a * b; }),
           binaryF<arith::DivFOp>([](double a, double b) { return a / b; }),
           binaryF<arith::RemFOp>(
               [](double a, double b) { return std::fmod(a, b); }),
           binaryF<arith::MaximumFOp>(maximum),
           binaryF<arith::MinimumFOp>(minimum),
           binaryF<arith::MaxNumFOp>(
               [](double a, double b) { return std::fmax(a, b); }),
           binaryF<arith::MinNumFOp>(
               [](double a, double b) { return std::fmin(a, b); }),
           unaryF<arith::NegFOp>([](double a) { return -a; }),
           // math.
           unaryF<math::AbsFOp>([](double a) { return std::fabs(a); }),
           unaryF<math::RsqrtOp>([](double a) { return 1 / std::sqrt(a); }),
           unaryF<math::SqrtOp>([](double a) { return std::sqrt(a); }),
           unaryF<math::CbrtOp>([](double a) { return std::cbrt(a); }),
           unaryF<math::ExpOp>([](double a) { return std::exp(a); }),
           unaryF<math::Exp2Op>([](double a) { return std::exp2(a); }),
           unaryF<math::ExpM1Op>([](double a) { return std::expm1(a); }),
           unaryF<math::LogOp>([](double a) { return std::log(a); }),
           unaryF<math::Log2Op>([](double a) { return std::log2(a); }),
           unaryF<math::Log10Op>([](double a) { return std::log10(a); }),
           unaryF<math::Log1pOp>([](double a) { return std::log1p(a); }),
           unaryF<math::TanhOp>([](double a) { return std::tanh(a); }),
           unaryF<math::SinhOp>([](double a) { return std::sinh(a); }),
           unaryF<math::CoshOp>([](double a) { return std::cosh(a); }),
           unaryF<math::SinOp>([](double a) { return std::sin(a); }),
           unaryF<math::CosOp>([](double a) { return std::cos(a); }),
           unaryF<math::TanOp>([](double a) { return std::tan(a); }),
           unaryF<math::AtanOp>([](double a) { return std::atan(a); }),
           unaryF<math::ErfOp>([](double a) { return std::erf(a); }),
           unaryF<math::ErfcOp>([](double a) { return std::erfc(a); }),
           unaryF<math::FloorOp>([](double a) { return std::floor(a); }),
           unaryF<math::CeilOp>([](double a) { return std::ceil(a); }),
           unaryF<math::TruncOp>([](double a) { return std::trunc(a); }),
           unaryF<math::RoundOp>([](double a) { return std::round(a); }),
           unaryF<math::RoundEvenOp>(
               [](double a) { return std::nearbyint(a); }),
           binaryF<math::PowFOp>(
               [](double a, double b) { return std::pow(a, b); }),
           binaryF<math::Atan2Op>(
               [](double a, double b) { return std::atan2(a, b); }),
           binaryF<math::CopySignOp>(
               [](double a, double b) { return std::copysign(a, b); }),
       })
    t.insert(entry);
}

/// The integer ops of arith.
void addIntegerOps(llvm::DenseMap<TypeID, Evaluator> &t) {
  for (auto entry : {
           // arith, integers (wrapping; division by zero is left alone).
           binaryI<arith::AddIOp>(
               [](int64_t a, int64_t b, uint64_t, uint64_t) -> IntResult {
                 return bits(a) + bits(b);
               }),
           binaryI<arith::SubIOp>(
               [](int64_t a, int64_t b, uint64_t, uint64_t) -> IntResult {
                 return bits(a) - bits(b);
               }),
           binaryI<arith::MulIOp>(
               [](int64_t a, int64_t b, uint64_t, uint64_t) -> IntResult {
                 return bits(a) * bits(b);
               }),
           binaryI<arith::DivSIOp>(
               [](int64_t a, int64_t b, uint64_t, uint64_t) -> IntResult {
                 if (b == 0 || (b == -1 && a == INT64_MIN))
                   return std::nullopt;
                 return bits(a / b);
               }),
           binaryI<arith::RemSIOp>(
               [](int64_t a, int64_t b, uint64_t, uint64_t) -> IntResult {
                 if (b == 0 || b == -1)
                   return b == -1 ? IntResult(0) : std::nullopt;
                 return bits(a % b);
               }),
           binaryI<arith::DivUIOp>(
               [](int64_t, int64_t, uint64_t a, uint64_t b) -> IntResult {
                 if (b == 0)
                   return std::nullopt;
                 return a / b;
               }),
           binaryI<arith::RemUIOp>(
               [](int64_t, int64_t, uint64_t a, uint64_t b) -> IntResult {
                 if (b == 0)
                   return std::nullopt;
                 return a % b;
               }),
           binaryI<arith::AndIOp>(
               [](int64_t a, int64_t b, uint64_t, uint64_t) -> IntResult {
                 return bits(a) & bits(b);
               }),
           binaryI<arith::OrIOp>(
               [](int64_t a, int64_t b, uint64_t, uint64_t) -> IntResult {
                 return bits(a) | bits(b);
               }),
           binaryI<arith::XOrIOp>(
               [](int64_t a, int64_t b, uint64_t, uint64_t) -> IntResult {
                 return bits(a) ^ bits(b);
               }),
           binaryI<arith::MaxSIOp>(
               [](int64_t a, int64_t b, uint64_t, uint64_t) -> IntResult {
                 return bits(std::max(a, b));
               }),
           binaryI<arith::MinSIOp>(
               [](int64_t a, int64_t b, uint64_t, uint64_t) -> IntResult {
                 return bits(std::min(a, b));
               }),
           binaryI<arith::MaxUIOp>([](int64_t, int64_t, uint64_t a, uint64_t b)
                                       -> IntResult { return std::max(a, b); }),
           binaryI<arith::MinUIOp>([](int64_t, int64_t, uint64_t a, uint64_t b)
                                       -> IntResult { return std::min(a, b); }),
       })
    t.insert(entry);
}

/// Constants, conversions, comparisons, select, fma and fpowi.
void addSpecialOps(llvm::DenseMap<TypeID, Evaluator> &t) {
  addSpecial<arith::ConstantOp>(t, evaluateConstant);
  addSpecial<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp,
             arith::FPToSIOp, arith::FPToUIOp, arith::IndexCastOp,
             arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
             arith::TruncIOp>(t, evaluateConversion);
  addSpecial<arith::CmpFOp>(t, evaluateCmpF);
  addSpecial<arith::CmpIOp>(t, evaluateCmpI);
  addSpecial<arith::SelectOp>(t, evaluateSelect);
  addSpecial<math::FmaOp>(t, evaluateFma);
  addSpecial<math::FPowIOp>(t, evaluateFPowI);
}

const llvm::DenseMap<TypeID, Evaluator> &getTable() {
  static const llvm::DenseMap<TypeID, Evaluator> table = [] {
    llvm::DenseMap<TypeID, Evaluator> t;
    addFloatOps(t);
    addIntegerOps(t);
    addSpecialOps(t);
    return t;
  }();
  return table;
}
} // namespace

std::optional<ScalarValue> mlir::amp::getScalarConstant(Operation *op) {
  auto constant = dyn_cast<arith::ConstantOp>(op);
  if (!constant || !isEvaluableScalarType(constant.getType()))
    return std::nullopt;
  if (auto f = dyn_cast<FloatAttr>(constant.getValue()))
    return ScalarValue{f.getValueAsDouble(), 0};
  if (auto i = dyn_cast<IntegerAttr>(constant.getValue()))
    return ScalarValue{0, wrapTo(constant.getType(), i.getValue().getZExtValue())};
  return std::nullopt;
}

bool mlir::amp::isEvaluableScalarOp(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return false;
  const auto &table = getTable();
  if (!table.count(op->getName().getTypeID()))
    return false;
  if (isa<arith::ConstantOp>(op))
    return getScalarConstant(op).has_value();
  // A truncation with another rounding mode than to-nearest-even.
  if (auto trunc = dyn_cast<arith::TruncFOp>(op); trunc && trunc.getRoundingmode())
    return false;
  return isEvaluableScalarType(resultType(op)) &&
         llvm::all_of(op->getOperandTypes(), isEvaluableScalarType);
}

std::optional<ScalarValue>
mlir::amp::evaluateScalarOp(Operation *op, ArrayRef<ScalarValue> operands) {
  const Evaluator &e = getTable().find(op->getName().getTypeID())->second;
  if (e.special)
    return e.special(op, operands);
  if (e.unary)
    return floatValue(op, e.unary(operands[0].f));
  if (e.binary)
    return floatValue(op, e.binary(operands[0].f, operands[1].f));
  Type type = resultType(op);
  std::optional<uint64_t> result =
      e.integer(operands[0].i, operands[1].i, asUnsigned(type, operands[0].i),
                asUnsigned(type, operands[1].i));
  if (!result)
    return std::nullopt;
  return intValue(op, *result);
}
