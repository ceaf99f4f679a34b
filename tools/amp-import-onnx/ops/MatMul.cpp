//===- MatMul.cpp - MatMul and Gemm ---------------------------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Both become tosa.matmul, which is batched ([B, M, K] x [B, K, N]). A
// weight without batch dimensions (the common [..., K] x [K, N] of linear
// layers) folds the left operand's batch dimensions into M, so the weight is
// never tiled; otherwise both operands are broadcast to the common batch.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <limits>
#include <numeric>

using namespace mlir;
using namespace amp::onnximport;


LogicalResult amp::onnximport::convertMatMul(NodeContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value lhs = ctx.input(0), rhs = ctx.input(1);
  Type elementType = getElementType(lhs);
  if (!isa<FloatType>(elementType) || elementType.isF64())
    return ctx.error("only f32, f16 and bf16 matmuls are supported");
  if (getElementType(rhs) != elementType)
    return ctx.error("the operands have different element types");
  SmallVector<int64_t> a(getShape(lhs)), c(getShape(rhs));
  if (a.empty() || c.empty())
    return ctx.error("the operands must have rank >= 1");
  bool lhsVector = a.size() == 1, rhsVector = c.size() == 1;
  if (lhsVector)
    a.insert(a.begin(), 1);
  if (rhsVector)
    c.push_back(1);
  int64_t m = a[a.size() - 2], k = a.back(), n = c.back();
  if (ShapedType::isDynamic(k) || ShapedType::isDynamic(c[c.size() - 2]))
    return ctx.dynamicUnsupported("the contraction dimension");
  if (c[c.size() - 2] != k)
    return ctx.error("the contraction dimensions differ (" + Twine(k) + " and " +
                     Twine(c[c.size() - 2]) + ")");
  ArrayRef<int64_t> batchA = ArrayRef<int64_t>(a).drop_back(2);
  ArrayRef<int64_t> batchB = ArrayRef<int64_t>(c).drop_back(2);
  std::optional<std::vector<int64_t>> batch = broadcastShapes(batchA, batchB);
  if (!batch)
    return ctx.error("the batch dimensions do not broadcast");
  // A dynamic dimension is never tiled: with one, the batch dimensions of
  // both operands must be the broadcast ones already.
  SmallVector<int64_t> outShape(batch->begin(), batch->end());
  if (!lhsVector)
    outShape.push_back(m);
  if (!rhsVector)
    outShape.push_back(n);
  if (hasDynamicDims(*batch) &&
      (batchA != ArrayRef<int64_t>(*batch) ||
       (product(batchB) != 1 && batchB != ArrayRef<int64_t>(*batch))))
    return ctx.dynamicUnsupported("a broadcast batch dimension");
  if (getNumDynamicDims(outShape) > 1 ||
      (hasDynamicDims(batchB) && ShapedType::isDynamic(m)))
    return ctx.dynamicUnsupported("more than one dimension of the result");
  lhs = reshape(b, loc, lhs, a);
  rhs = reshape(b, loc, rhs, c);
  Value result;
  if (product(batchB) == 1 && !batchA.empty() && !hasDynamicDims(batchB)) {
    // [batch..., M, K] x [K, N]: one [1, batch*M, K] x [1, K, N].
    Value l = reshape(b, loc, lhs,
                      {1, mergeSizes(ArrayRef<int64_t>(a).drop_back()), k});
    Value r = reshape(b, loc, rhs, {1, k, n});
    result = matmul3d(b, loc, l, r);
  } else {
    SmallVector<int64_t> fullA(batch->begin(), batch->end()),
        fullB(batch->begin(), batch->end());
    fullA.append({m, k});
    fullB.append({k, n});
    int64_t bt = mergeSizes(*batch);
    Value l = reshape(b, loc, broadcastTo(b, loc, lhs, fullA), {bt, m, k});
    Value r = reshape(b, loc, broadcastTo(b, loc, rhs, fullB), {bt, k, n});
    result = matmul3d(b, loc, l, r);
  }
  ctx.setOutput(0, reshape(b, loc, result, outShape));
  return success();
}

LogicalResult amp::onnximport::convertGemm(NodeContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value lhs = ctx.input(0), rhs = ctx.input(1);
  Type elementType = getElementType(lhs);
  if (!isa<FloatType>(elementType) || elementType.isF64())
    return ctx.error("only f32, f16 and bf16 Gemm is supported");
  if (getTensorType(lhs).getRank() != 2 || getTensorType(rhs).getRank() != 2)
    return ctx.error("A and B must be matrices");
  if (ctx.getInt("transA", 0))
    lhs = transpose(b, loc, lhs, {1, 0});
  if (ctx.getInt("transB", 0))
    rhs = transpose(b, loc, rhs, {1, 0});
  int64_t m = getShape(lhs)[0], k = getShape(lhs)[1], n = getShape(rhs)[1];
  if (ShapedType::isDynamic(k) || ShapedType::isDynamic(getShape(rhs)[0]))
    return ctx.dynamicUnsupported("the contraction dimension");
  if (ShapedType::isDynamic(m) && ShapedType::isDynamic(n))
    return ctx.dynamicUnsupported("more than one dimension of the result");
  if (getShape(rhs)[0] != k)
    return ctx.error("the contraction dimensions differ");
  double alpha = ctx.getFloat("alpha", 1.0f), beta = ctx.getFloat("beta", 1.0f);
  Value result = matmul3d(b, loc, reshape(b, loc, lhs, {1, m, k}),
                          reshape(b, loc, rhs, {1, k, n}));
  result = reshape(b, loc, result, {m, n});
  if (alpha != 1.0)
    result = mul(b, loc, result, scalarConst(b, loc, elementType, alpha, 2));
  if (ctx.hasInput(2) && beta != 0.0) {
    Value bias = ctx.input(2);
    auto shape = broadcastShape({result, bias});
    if (failed(shape) || ArrayRef<int64_t>(*shape) != ArrayRef<int64_t>{m, n})
      return ctx.error("C does not broadcast to [M, N]");
    if (beta != 1.0)
      bias = mul(b, loc, bias,
                 scalarConst(b, loc, elementType, beta,
                             getTensorType(bias).getRank()));
    result = add(b, loc, result, bias);
  }
  ctx.setOutput(0, result);
  return success();
}
