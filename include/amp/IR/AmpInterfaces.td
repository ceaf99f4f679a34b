//===- AmpInterfaces.td - Interfaces of the amp dialect ----*- tablegen -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Two interfaces decide mixed precision:
//  - PrecisionPolicyAttrInterface: a policy (an attribute) that colors ops and
//    picks their accumulation and output types;
//  - MixedPrecisionOpInterface: an op's own description of how it takes part
//    in mixed precision, attached to upstream ops through external models.
// A third one serves the benchmarking utilities:
//  - LayerOpInterface: which ops are layers (convolutions, matmuls, poolings)
//    and how a layer is rebuilt with other element types (--amp-recast).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IR_AMPINTERFACES_TD
#define AMP_IR_AMPINTERFACES_TD

include "mlir/IR/OpBase.td"

//===----------------------------------------------------------------------===//
// PrecisionPolicyAttrInterface
//===----------------------------------------------------------------------===//

def PrecisionPolicyAttrInterface
    : AttrInterface<"PrecisionPolicyAttrInterface"> {
  let cppNamespace = "::mlir::amp";
  let description = [{
    A precision policy decides, for each operation, its color and its
    accumulation and output types. The default policy,
    `#amp.default_policy`, implements the default lists; a user's policy is
    any other attribute that implements this interface, defined in the
    user's own dialect or plugin, and selected with `amp.policy` on the
    module (or an enclosing op) or with the pass option `policy=`.

    Per-op annotations (`amp.color`, `amp.precision`), the pass's lists and
    `skip-layers` take precedence over the policy.

    ```mlir
    module attributes {amp.policy = #amp.default_policy<min_macs = 1000000>} {
      ...
    }
    ```
  }];

  let methods = [
    InterfaceMethod<
      /*desc=*/[{
        Returns the color of `op` and the reason for it, or `std::nullopt`
        when the policy does not know the op (it is then handled as an
        unknown op). The default lists are available to every policy through
        `mlir::amp::getDefaultColor(op)`.
      }],
      /*retTy=*/"std::optional<::mlir::amp::ColorDecision>",
      /*methodName=*/"getColor",
      /*args=*/(ins "::mlir::Operation *":$op)
    >,
    InterfaceMethod<
      /*desc=*/[{
        Returns the accumulation and output element types of `op` when it
        runs with inputs of the low-precision type `target` (the content of
        an `#amp.precision` attribute). If both are equal to `target`, the op
        computes entirely in `target`.
      }],
      /*retTy=*/"::mlir::amp::Precision",
      /*methodName=*/"getPrecision",
      /*args=*/(ins "::mlir::Operation *":$op, "::mlir::FloatType":$target)
    >,
  ];
}

//===----------------------------------------------------------------------===//
// MixedPrecisionOpInterface
//===----------------------------------------------------------------------===//

def MixedPrecisionOpInterface : OpInterface<"MixedPrecisionOpInterface"> {
  let cppNamespace = "::mlir::amp";
  let description = [{
    How an operation takes part in mixed precision: its color under the
    default lists, which operands carry floating-point data whose precision
    follows the op, whether it has a separate accumulator, and how it is
    rebuilt with new element types.

    Upstream ops (linalg, tosa, arith, math, tensor) receive this interface
    through external models registered per dialect
    (`mlir::amp::registerExternalModels`); an op of another dialect
    implements it directly or through its own external model.
  }];

  let methods = [
    InterfaceMethod<
      /*desc=*/[{
        Returns the op's color under the default lists (green: compute
        bound; gray: follows its inputs; red: must stay FP32).
      }],
      /*retTy=*/"::mlir::amp::Color",
      /*methodName=*/"getDefaultColor",
      /*args=*/(ins)
    >,
    InterfaceMethod<
      /*desc=*/[{
        Returns true if `operand` carries floating-point data whose element
        type follows the op's compute type. Shape operands, indices, zero
        points and other metadata are not data operands.
      }],
      /*retTy=*/"bool",
      /*methodName=*/"isDataOperand",
      /*args=*/(ins "::mlir::OpOperand &":$operand),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{
        return ::mlir::amp::hasFloatElementType(operand.get().getType()) &&
               !::llvm::cast<::mlir::amp::MixedPrecisionOpInterface>(
                    $_op.getOperation()).isAccumulatorOperand(operand);
      }]
    >,
    InterfaceMethod<
      /*desc=*/[{
        Returns true if `operand` is the accumulator (the init value of a
        contraction), whose element type is the accumulation type.
      }],
      /*retTy=*/"bool",
      /*methodName=*/"isAccumulatorOperand",
      /*args=*/(ins "::mlir::OpOperand &":$operand),
      /*methodBody=*/"",
      /*defaultImplementation=*/"return false;"
    >,
    InterfaceMethod<
      /*desc=*/[{
        Returns true if `operand` is not data but must have the element
        type the op computes in: a TOSA zero point. When it is a float
        constant, the conversion gives it that type as it does a data
        operand (converting the constant in place when only this op reads
        it, otherwise sharing one converted copy among its readers); it takes
        no part in the decisions. Otherwise `rewriteInPrecision` receives it
        unchanged and rebuilds it.
      }],
      /*retTy=*/"bool",
      /*methodName=*/"isZeroPointOperand",
      /*args=*/(ins "::mlir::OpOperand &":$operand),
      /*methodBody=*/"",
      /*defaultImplementation=*/"return false;"
    >,
    InterfaceMethod<
      /*desc=*/[{
        Returns true if the op can accumulate in a type wider than its
        inputs (for example f16 inputs with f32 accumulation).
      }],
      /*retTy=*/"bool",
      /*methodName=*/"hasSeparateAccumulator",
      /*args=*/(ins),
      /*methodBody=*/"",
      /*defaultImplementation=*/"return false;"
    >,
    InterfaceMethod<
      /*desc=*/[{
        Returns the element type of the op's float results once it computes
        with inputs of `computeType` and accumulates in `accumulateType`. By
        default: the accumulation type for ops with a separate accumulator,
        the compute type otherwise (a TOSA convolution, whose result keeps the
        input type, overrides it).
      }],
      /*retTy=*/"::mlir::Type",
      /*methodName=*/"getConvertedResultElementType",
      /*args=*/(ins "::mlir::FloatType":$computeType,
                    "::mlir::FloatType":$accumulateType),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{
        auto iface = ::llvm::cast<::mlir::amp::MixedPrecisionOpInterface>(
            $_op.getOperation());
        return iface.hasSeparateAccumulator() ? ::mlir::Type(accumulateType)
                                              : ::mlir::Type(computeType);
      }]
    >,
    InterfaceMethod<
      /*desc=*/[{
        Returns the number of multiply-accumulate operations the op
        performs, when it is known statically. Policies use it to keep small
        compute-bound ops out of low precision.
      }],
      /*retTy=*/"std::optional<int64_t>",
      /*methodName=*/"estimateMacs",
      /*args=*/(ins),
      /*methodBody=*/"",
      /*defaultImplementation=*/"return std::nullopt;"
    >,
    InterfaceMethod<
      /*desc=*/[{
        Appends to `attrs` the float attributes of the op whose values its
        converted form must hold (the bounds of a clamp): where one does not
        fit the target type, the op stays in FP32 (reason
        `constant_out_of_range`); +-FLT_MAX and infinities mean "no bound"
        and are ignored. By default every float attribute of the op,
        inherent or discardable, read by name; a model of an op none of
        whose inherent attributes is a float returns the discardable ones
        only (`amp::detail::getDiscardableFloatAttributes`), which is
        cheaper.
      }],
      /*retTy=*/"void",
      /*methodName=*/"getFloatAttributes",
      /*args=*/(ins "::llvm::SmallVectorImpl<::mlir::FloatAttr> &":$attrs),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{
        ::mlir::amp::detail::getFloatAttributes($_op.getOperation(), attrs);
      }]
    >,
    InterfaceMethod<
      /*desc=*/[{
        Rebuilds the op so that it computes in `computeType`. `operands`
        holds the new operand list: data operands already have the element
        type `computeType`, accumulator operands `accumulateType`, zero
        points that are constants `computeType`, all others are unchanged.
        The op's own operands may already be some of these (a producer
        converted before it): the types it computed in before are those of
        its results and payload, not of its operands. Returns the op that replaces this one (it may
        be this op, updated in place, regions included: equal ops must be
        rewritten alike); its float results have the element
        type `accumulateType` if the op has a separate accumulator and
        `computeType` otherwise. The caller replaces the uses of the old
        results. Returns failure, without changing the IR, if the op cannot
        compute in these types. Once it cannot fail any more, it may retype
        in place an empty tensor that only this op reads, instead of making
        a new one (`amp::getEmptyFor`).

        The default implementation updates the op in place: it sets the
        operands and changes the element type of every floating-point
        result. It fits ops without regions or type-carrying attributes.
      }],
      /*retTy=*/"::mlir::FailureOr<::mlir::Operation *>",
      /*methodName=*/"rewriteInPrecision",
      /*args=*/(ins "::mlir::RewriterBase &":$rewriter,
                    "::mlir::ValueRange":$operands,
                    "::mlir::FloatType":$computeType,
                    "::mlir::FloatType":$accumulateType),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{
        return ::mlir::amp::detail::rewriteResultsInPlace(
            $_op.getOperation(), rewriter, operands, computeType);
      }]
    >,
    InterfaceMethod<
      /*desc=*/[{
        Appends to `operands` the operands that a contraction reads in FP8
        (with `target-type=f8E4M3FN` or `f8E5M2`, or an `amp.precision`
        annotation with an FP8 `compute` type): the two inputs of a matmul
        or convolution, with the dimension of each that indexes the output
        channels, if any. Returns false when the op has no FP8 form (the
        default; for example a depthwise convolution, or a matmul with
        dynamic shapes): it then runs in the 16-bit fallback type. Every
        operand listed needs a scale before the op can be rewritten.
      }],
      /*retTy=*/"bool",
      /*methodName=*/"getFP8Operands",
      /*args=*/(ins "::llvm::SmallVectorImpl<::mlir::amp::FP8Operand> &":$operands),
      /*methodBody=*/"",
      /*defaultImplementation=*/"return false;"
    >,
    InterfaceMethod<
      /*desc=*/[{
        Rebuilds the op as an FP8 contraction and returns the FP32 value that
        replaces its (single) result; the caller replaces the uses and
        erases the op. The operands listed by `getFP8Operands` are narrowed
        by `fp8.narrow` (in the layout FP8 Tensor Cores need: a matmul's B
        K-major, as N x K), the contraction accumulates in f32 (linalg's
        own `extf` in its payload) and `fp8.rescale` undoes the scales.
        TOSA contractions become linalg ops, whose accumulator can be f32.
        Returns failure, without changing the IR, when it cannot.
      }],
      /*retTy=*/"::mlir::FailureOr<::mlir::Value>",
      /*methodName=*/"rewriteInFP8",
      /*args=*/(ins "::mlir::RewriterBase &":$rewriter,
                    "::mlir::amp::FP8Builder &":$fp8),
      /*methodBody=*/"",
      /*defaultImplementation=*/"return ::mlir::failure();"
    >,
  ];
}

//===----------------------------------------------------------------------===//
// LayerOpInterface
//===----------------------------------------------------------------------===//

def LayerOpInterface : OpInterface<"LayerOpInterface"> {
  let cppNamespace = "::mlir::amp";
  let description = [{
    An operation that can be a *layer* for the benchmarking utilities:
    `--amp-count-layers` counts layers, `--amp-recast` changes their element
    types and `--amp-convert-layout` moves convolutions and poolings to
    channels-last. The kind of a layer (`convolution`, `matmul`, `pooling`)
    is what their `ops=` options select by default.

    Upstream ops receive this interface through external models: every
    linalg structured op (classified through linalg's
    `ConvolutionOpInterface` and `ContractionOpInterface`, so a
    `linalg.generic` that computes a matmul is a matmul layer too) and the
    TOSA convolutions, `tosa.matmul` and the TOSA poolings. An op of another
    dialect implements it directly or through its own external model.
  }];

  let methods = [
    InterfaceMethod<
      /*desc=*/[{
        Returns the kind of layer this op is, or `std::nullopt` when this
        instance is not a layer (a `linalg.generic` that computes an
        elementwise function).
      }],
      /*retTy=*/"std::optional<::mlir::amp::LayerKind>",
      /*methodName=*/"getLayerKind",
      /*args=*/(ins)
    >,
    InterfaceMethod<
      /*desc=*/[{
        Rebuilds the op so that its data inputs have the element type
        `inputType` and it accumulates in `accumulateType` (integer types
        included: `i8` inputs with `i32` accumulation). Creates the
        conversions of its operands before the op (folding those of
        constants), never those of its results. Returns the new op, which
        the caller uses to replace this one; its results have the element
        type the op produces with these types (for example the accumulation
        type for linalg ops, the TOSA 1.0 output type for TOSA ops).

        Emits an error at the op and returns failure, without changing the
        IR, when the op cannot compute with these types (for example a
        combination TOSA 1.0 does not define). The default implementation
        always does that.
      }],
      /*retTy=*/"::mlir::FailureOr<::mlir::Operation *>",
      /*methodName=*/"recast",
      /*args=*/(ins "::mlir::RewriterBase &":$rewriter,
                    "::mlir::Type":$inputType,
                    "::mlir::Type":$accumulateType),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{
        return $_op->emitError() << "'" << $_op->getName()
                                 << "' cannot be recast";
      }]
    >,
  ];
}

#endif // AMP_IR_AMPINTERFACES_TD
