//===- MatmulOperands.cpp - What every matmul kernel starts from ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The driver of the matmul kernels of --amp-gpu-matmul-to-mma: which
// matmuls they take, the operands and sizes seen from inside a kernel
// (prepareMatmul: the fill folded into the kernel, the fused epilogue of
// MatmulEpilogue.cpp and the operand sources of OperandSource.cpp found),
// what a kernel replaced (finishMatmul), the grouped block order and the
// kernel's name. The kernels call it and the layers below it only.
//
//===----------------------------------------------------------------------===//

#include "MatmulKernels.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <tuple>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::detail;

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

/// The memref types of A, B and C (null where one is not a memref).
static std::tuple<MemRefType, MemRefType, MemRefType>
getOperandTypes(linalg::LinalgOp op) {
  return {dyn_cast<MemRefType>(op.getDpsInputs()[0].getType()),
          dyn_cast<MemRefType>(op.getDpsInputs()[1].getType()),
          dyn_cast<MemRefType>(op.getDpsInits()[0].getType())};
}

/// Whether the kernels can stage these operand buffers: in the global
/// (default) memory space, the innermost dimension contiguous.
static bool areStageable(ArrayRef<MemRefType> types) {
  for (MemRefType t : types) {
    if (t.getMemorySpace())
      return false;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(t.getStridesAndOffset(strides, offset)) || strides.empty() ||
        strides.back() != 1)
      return false;
  }
  return true;
}

/// The element type of A and B when `op` is a linalg.matmul or
/// linalg.batch_matmul on memrefs with default maps, A and B of one type
/// among f16, bf16 and f32, and C of f32.
Type mlir::amp::detail::matmulInputType(linalg::LinalgOp op) {
  if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()))
    return {};
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return {};
  // Only the default maps: no transposed or broadcast operands.
  if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation())) {
    if (matmul.hasUserDefinedMaps())
      return {};
  } else if (cast<linalg::BatchMatmulOp>(op.getOperation())
                 .hasUserDefinedMaps()) {
    return {};
  }
  auto [aType, bType, cType] = getOperandTypes(op);
  if (!aType || !bType || !cType)
    return {};
  Type elt = aType.getElementType();
  if (!(elt.isF16() || elt.isBF16() || elt.isF32()) ||
      bType.getElementType() != elt || !cType.getElementType().isF32())
    return {};
  if (!areStageable({aType, bType, cType}))
    return {};
  return elt;
}

/// The element type of A and B when `op` is a Tensor Core matmul.
Type mlir::amp::detail::tensorCoreInputType(linalg::LinalgOp op) {
  Type elt = matmulInputType(op);
  return elt && (elt.isF16() || elt.isBF16()) ? elt : Type();
}

std::pair<Type, Type> mlir::amp::detail::fp8InputTypes(linalg::LinalgOp op) {
  if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()) ||
      !op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return {};
  // The FP8 contract: B read as (n, k), i.e. stored N x K (K-major).
  MLIRContext *ctx = op.getContext();
  bool isBatch = isa<linalg::BatchMatmulOp>(op.getOperation());
  unsigned b = 0, m = isBatch ? 1 : 0, n = m + 1, k = m + 2;
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  auto map = [&](ArrayRef<AffineExpr> results) {
    return AffineMap::get(k + 1, 0, results, ctx);
  };
  SmallVector<AffineMap> want =
      isBatch ? SmallVector<AffineMap>{map({d(b), d(m), d(k)}),
                                       map({d(b), d(n), d(k)}),
                                       map({d(b), d(m), d(n)})}
              : SmallVector<AffineMap>{map({d(m), d(k)}), map({d(n), d(k)}),
                                       map({d(m), d(n)})};
  if (op.getIndexingMapsArray() != ArrayRef<AffineMap>(want))
    return {};
  auto [aType, bType, cType] = getOperandTypes(op);
  if (!aType || !bType || !cType)
    return {};
  auto isFP8 = [](Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); };
  if (!isFP8(aType.getElementType()) || !isFP8(bType.getElementType()) ||
      !cType.getElementType().isF32())
    return {};
  if (!areStageable({aType, bType, cType}))
    return {};
  return {aType.getElementType(), bType.getElementType()};
}

bool mlir::amp::isFP8Matmul(linalg::LinalgOp op) {
  return static_cast<bool>(fp8InputTypes(op).first);
}

bool mlir::amp::isTensorCoreMatmul(linalg::LinalgOp op) {
  return static_cast<bool>(tensorCoreInputType(op)) || isFP8Matmul(op);
}

bool mlir::amp::isSimtF32Matmul(linalg::LinalgOp op) {
  Type elt = matmulInputType(op);
  return elt && elt.isF32();
}

//===----------------------------------------------------------------------===//
// Block order
//===----------------------------------------------------------------------===//

/// Rows of block tiles that consecutive blocks cover (see groupedTile).
constexpr int64_t kGroupRows = 8;

/// The (row, column) block tile of the current block, in a grouped order:
/// consecutive blocks walk kGroupRows rows of tiles column by column, so
/// that the blocks resident at a time share rows of A and columns of B in
/// L2 (a row-major order would stream all of B for every row of tiles).
std::pair<Value, Value>
mlir::amp::detail::groupedTile(IndexBuilder &ib, gpu::LaunchOp launch) {
  Value tilesN = launch.getGridSize().x, tilesM = launch.getGridSize().y;
  Value linear = ib.add(
      ib.b.createOrFold<arith::MulIOp>(ib.loc, launch.getBlockIds().y, tilesN),
      launch.getBlockIds().x);
  Value groupSize = ib.mul(tilesN, kGroupRows);
  Value group = ib.b.createOrFold<arith::DivUIOp>(ib.loc, linear, groupSize);
  Value firstRow = ib.mul(group, kGroupRows);
  Value rows = ib.b.createOrFold<arith::MinUIOp>(
      ib.loc, ib.sub(tilesM, firstRow), ib.c(kGroupRows));
  Value within = ib.b.createOrFold<arith::RemUIOp>(ib.loc, linear, groupSize);
  Value row =
      ib.add(firstRow, ib.b.createOrFold<arith::RemUIOp>(ib.loc, within, rows));
  Value col = ib.b.createOrFold<arith::DivUIOp>(ib.loc, within, rows);
  return {row, col};
}

static FloatAttr splatF32Global(Value v) {
  auto getGlobal = v.getDefiningOp<memref::GetGlobalOp>();
  if (!getGlobal)
    return {};
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      getGlobal, getGlobal.getNameAttr());
  if (!global || !global.getConstant())
    return {};
  auto value =
      dyn_cast_or_null<DenseElementsAttr>(global.getConstantInitValue());
  if (!value || !value.isSplat() || !value.getElementType().isF32())
    return {};
  return value.getSplatValue<FloatAttr>();
}

namespace {
/// What wrote C last before a matmul, when it is one value everywhere.
struct InitialValue {
  /// The value (f32), defined before the matmul.
  Value value;
  /// A constant to create instead (a splat global).
  FloatAttr constant;
  /// The ops to erase (the fill, or the copy and what filled its source).
  SmallVector<Operation *> writers;
};
} // namespace

static int64_t numElements(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  return type.hasStaticShape() ? type.getNumElements() : -1;
}

/// The one value `op` writes into every element of its buffer output: a
/// linalg.fill, or a generic without inputs that yields a value from
/// outside (a fill in generic form); null otherwise.
static Value fillValue(Operation *op) {
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.hasPureBufferSemantics() ? fill.getInputs()[0] : Value();
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureBufferSemantics() ||
      generic.getNumDpsInputs() != 0 || generic.getNumDpsInits() != 1 ||
      generic.getNumLoops() != generic.getNumParallelLoops() ||
      !generic.getIndexingMapsArray()[0].isIdentity())
    return {};
  Block &body = generic.getRegion().front();
  Value yielded = body.getTerminator()->getOperand(0);
  if (Operation *def = yielded.getDefiningOp();
      def && def->getBlock() == &body)
    return {};
  if (isa<BlockArgument>(yielded) &&
      cast<BlockArgument>(yielded).getOwner() == &body)
    return {};
  return yielded;
}

/// The last writer of `buffer`'s root before `before`, if nothing in
/// between touches the root; null otherwise.
static Operation *lastWriter(Value buffer, Operation *before) {
  Value root = bufferRoot(buffer);
  for (Operation *x = before->getPrevNode(); x; x = x->getPrevNode()) {
    // Views and allocations neither read nor write.
    if (isMemoryEffectFree(x) || isa<memref::AllocOp>(x))
      continue;
    SmallVector<Value> written = writtenBuffers(x);
    if (llvm::is_contained(written, root))
      return x;
    if (llvm::is_contained(touchedBuffers(x), root))
      return nullptr;
  }
  return nullptr;
}

/// The value every element of C holds when `op` starts, if one: a fill of
/// C's whole buffer (or its generic form), a copy of a splat constant, or a
/// copy of a filled buffer.
static std::optional<InitialValue> findInit(linalg::LinalgOp op) {
  Value c = op.getDpsInits()[0];
  Value root = bufferRoot(c);
  int64_t size = numElements(c);
  if (size < 0 || numElements(root) != size)
    return std::nullopt;
  Operation *writer = lastWriter(c, op);
  if (!writer)
    return std::nullopt;
  InitialValue init;
  init.writers.push_back(writer);
  if (Value v = fillValue(writer)) {
    if (!v.getType().isF32())
      return std::nullopt;
    init.value = v;
    return init;
  }
  auto copy = dyn_cast<memref::CopyOp>(writer);
  if (!copy || bufferRoot(copy.getTarget()) != root ||
      numElements(copy.getTarget()) != size)
    return std::nullopt;
  // Bufferization writes a constant zero output (`outs(%cst : tensor<..>)`
  // with %cst an arith.constant) as a copy from a constant global: a
  // device-to-device copy and an upload per call, for one value.
  if (FloatAttr splat = splatF32Global(copy.getSource())) {
    init.constant = splat;
    return init;
  }
  // A copy of a buffer a fill wrote (a bias broadcast to C, copied because
  // the filled tensor was used twice).
  Operation *sourceWriter = lastWriter(copy.getSource(), copy);
  Value v = sourceWriter ? fillValue(sourceWriter) : Value();
  if (!v || !v.getType().isF32() ||
      numElements(copy.getSource()) != numElements(bufferRoot(copy.getSource())))
    return std::nullopt;
  init.value = v;
  // The fill goes too when nothing else reads what it wrote.
  Value sourceRoot = bufferRoot(copy.getSource());
  bool otherReaders = false;
  SmallVector<Value> views{sourceRoot};
  for (size_t i = 0; i < views.size(); ++i)
    for (Operation *user : views[i].getUsers()) {
      if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(user)) {
        views.push_back(user->getResult(0));
        continue;
      }
      if (user != copy.getOperation() && user != sourceWriter &&
          !isa<memref::DeallocOp>(user))
        otherReaders = true;
    }
  if (!otherReaders)
    init.writers.push_back(sourceWriter);
  return init;
}

MatmulOperands mlir::amp::detail::prepareMatmul(RewriterBase &rewriter,
                                                linalg::LinalgOp op,
                                                Type inType,
                                                bool affineProducers) {
  MatmulOperands mm;
  if (std::optional<InitialValue> init = findInit(op)) {
    mm.init = init->value;
    if (init->constant) {
      rewriter.setInsertionPoint(op);
      mm.init = arith::ConstantOp::create(rewriter, op.getLoc(), init->constant);
    }
    for (Operation *writer : init->writers)
      rewriter.eraseOp(writer);
  }
  mm.epilogue = matchEpilogue(rewriter, op);
  // How many block tiles read each element of A (one per 256 columns of C)
  // and of B (one per 128 rows), for the tiled kernels.
  auto dimOf = [&](Value v, int64_t fromEnd) {
    auto type = cast<MemRefType>(v.getType());
    int64_t d = type.getDimSize(type.getRank() - fromEnd);
    return ShapedType::isDynamic(d) ? int64_t(1) << 30 : d;
  };
  auto [fp8A, fp8B] = fp8InputTypes(op);
  bool bKMajor = static_cast<bool>(fp8A);
  int64_t aRereads =
      llvm::divideCeil(dimOf(op.getDpsInputs()[1], bKMajor ? 2 : 1), 256);
  int64_t bRereads = llvm::divideCeil(dimOf(op.getDpsInputs()[0], 2), 128);
  mm.aSrc = matchOperandSource(op.getDpsInputs()[0], op, affineProducers,
                               aRereads);
  mm.bSrc = matchOperandSource(op.getDpsInputs()[1], op, affineProducers,
                               bRereads);
  rewriter.setInsertionPoint(op);
  IndexBuilder ib{rewriter, op.getLoc()};
  mm.a = op.getDpsInputs()[0];
  mm.b = op.getDpsInputs()[1];
  mm.cMat = op.getDpsInits()[0];
  mm.inType = inType;
  mm.bInType = bKMajor ? fp8B : inType;
  mm.bKMajor = bKMajor;
  bool isBatch = isa<linalg::BatchMatmulOp>(op.getOperation());
  int64_t off = isBatch ? 1 : 0;
  mm.batch = isBatch ? ib.dim(mm.a, 0) : Value();
  mm.m = ib.dim(mm.a, off);
  mm.k = ib.dim(mm.a, off + 1);
  mm.n = ib.dim(mm.b, bKMajor ? off : off + 1);
  return mm;
}

/// Moves the insertion point into an scf.if that skips empty outputs (a
/// zero-sized grid is a launch error), unless they are statically non-empty.
void mlir::amp::detail::guardNonEmpty(RewriterBase &rewriter,
                                      const MatmulOperands &mm) {
  Location loc = mm.cMat.getLoc();
  IndexBuilder ib{rewriter, loc};
  Value nonEmpty = ib.land(ib.gtZero(mm.m), ib.gtZero(mm.n));
  if (mm.batch)
    nonEmpty = ib.land(nonEmpty, ib.gtZero(mm.batch));
  if (matchPattern(nonEmpty, m_One()))
    return;
  auto guardIf = scf::IfOp::create(rewriter, loc, nonEmpty, false);
  rewriter.setInsertionPointToStart(&guardIf.getThenRegion().front());
}

void mlir::amp::detail::nameMatmulKernel(gpu::LaunchOp launch,
                                         linalg::LinalgOp op,
                                         const MatmulOperands &mm,
                                         StringRef kind) {
  std::string name;
  if (auto what = op->getAttrOfType<StringAttr>(kKernelNameAttrName))
    name = what.getValue().str();
  else
    name = mm.batch ? "batch_matmul" : "matmul";
  name += "_" + kind.str();
  if (mm.epilogue)
    if (std::string epilogue = describePayload(mm.epilogue->consumer);
        !epilogue.empty())
      name += "_" + epilogue;
  launch->setAttr(kKernelNameAttrName,
                  StringAttr::get(launch.getContext(), name));
}

void mlir::amp::detail::finishMatmul(RewriterBase &rewriter,
                                     linalg::LinalgOp op,
                                     const MatmulOperands &mm) {
  Value c = mm.cMat;
  rewriter.eraseOp(op);
  if (mm.epilogue)
    finishEpilogue(rewriter, *mm.epilogue, c);
  finishOperandSources(rewriter, {&mm.aSrc, &mm.bSrc});
}
