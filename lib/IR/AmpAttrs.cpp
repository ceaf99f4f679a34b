//===- AmpAttrs.cpp - Attributes of the amp dialect -----------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Verifiers of the amp attributes and the default precision policy.
//
//===----------------------------------------------------------------------===//

#include "amp/IR/AmpAttrs.h"
#include "amp/IR/AmpDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::amp;

#include "amp/IR/AmpEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "amp/IR/AmpAttrs.cpp.inc"

void AmpDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "amp/IR/AmpAttrs.cpp.inc"
      >();
}

/// Checks that `type`, the value of parameter `what`, is a float type.
static LogicalResult verifyFloatParameter(
    function_ref<InFlightDiagnostic()> emitError, StringRef what, Type type) {
  if (isa<FloatType>(type))
    return success();
  return emitError() << "'" << what
                     << "' must be a floating-point type, got " << type;
}

//===----------------------------------------------------------------------===//
// PrecisionAttr
//===----------------------------------------------------------------------===//

LogicalResult
PrecisionAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      Type accumulate, Type output, Type compute) {
  if (failed(verifyFloatParameter(emitError, "accumulate", accumulate)))
    return failure();
  if (compute && failed(verifyFloatParameter(emitError, "compute", compute)))
    return failure();
  return verifyFloatParameter(emitError, "output", output);
}

//===----------------------------------------------------------------------===//
// DefaultPolicyAttr
//===----------------------------------------------------------------------===//

LogicalResult
DefaultPolicyAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          Type accumulate, Type output, int64_t minMacs) {
  if (accumulate &&
      failed(verifyFloatParameter(emitError, "accumulate", accumulate)))
    return failure();
  if (output && failed(verifyFloatParameter(emitError, "output", output)))
    return failure();
  if (minMacs < 0)
    return emitError() << "'min_macs' must be non-negative, got " << minMacs;
  return success();
}

std::optional<ColorDecision>
DefaultPolicyAttr::getColor(Operation *op) const {
  std::optional<Color> color = getDefaultColor(op);
  if (!color)
    return std::nullopt;
  if (*color == Color::green && getMinMacs() > 0) {
    std::optional<int64_t> macs =
        getMixedPrecisionInterface(op).estimateMacs();
    if (macs && *macs < getMinMacs())
      return ColorDecision{Color::gray, Reason::BelowThreshold};
  }
  return ColorDecision{*color, Reason::DefaultList};
}

Precision DefaultPolicyAttr::getPrecision(Operation *op,
                                          FloatType target) const {
  auto iface = getMixedPrecisionInterface(op);
  if (!iface || !iface.hasSeparateAccumulator())
    return {target, target};
  auto accumulate = dyn_cast_or_null<FloatType>(getAccumulate());
  auto output = dyn_cast_or_null<FloatType>(getOutput());
  return {accumulate ? accumulate : Float32Type::get(getContext()),
          output ? output : target};
}

//===----------------------------------------------------------------------===//
// LayoutConfigAttr
//===----------------------------------------------------------------------===//

LogicalResult
LayoutConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         FilterLayout, ArrayRef<int64_t>, ArrayAttr ops) {
  if (!ops)
    return success();
  for (Attribute entry : ops) {
    auto name = dyn_cast<StringAttr>(entry);
    if (!name)
      return emitError() << "'ops' must hold strings, got " << entry;
    StringRef text = name.getValue();
    if (!symbolizeLayerKind(text) && !text.contains('.'))
      return emitError() << "'ops' entries must be op names (dialect.op) or "
                            "layer kinds (convolution, matmul, pooling), got '"
                         << text << "'";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Parsing and printing
//===----------------------------------------------------------------------===//
//
// Hand-written so that malformed attributes get messages that name the
// attribute and say what is expected.

/// Parses `key = value (, key = value)*` after the opening `<` of the
/// attribute `attrName`, up to and including `>`. `parseValue(key)` parses
/// the value of a known key and returns failure for an unknown one.
static ParseResult
parseKeyValueList(AsmParser &parser, StringRef attrName,
                  ArrayRef<StringRef> keys,
                  function_ref<ParseResult(StringRef)> parseValue) {
  llvm::SmallDenseSet<StringRef> seen;
  do {
    StringRef key;
    SMLoc loc = parser.getCurrentLocation();
    if (failed(parser.parseOptionalKeyword(&key))) {
      return parser.emitError(loc)
             << "expected a parameter name in " << attrName << " (one of "
             << llvm::join(keys, ", ") << ")";
    }
    if (!llvm::is_contained(keys, key))
      return parser.emitError(loc)
             << "unknown parameter '" << key << "' in " << attrName
             << " (expected " << llvm::join(keys, ", ") << ")";
    if (!seen.insert(key).second)
      return parser.emitError(loc)
             << "parameter '" << key << "' appears twice in " << attrName;
    if (parser.parseEqual() || parseValue(key))
      return failure();
  } while (succeeded(parser.parseOptionalComma()));
  if (parser.parseGreater())
    return failure();
  return success();
}

Attribute ColorAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseLess() || failed(parser.parseOptionalKeyword(&keyword))) {
    parser.emitError(loc, "expected #amp.color<green>, <gray> or <red>");
    return {};
  }
  std::optional<Color> color = symbolizeColor(keyword);
  if (!color) {
    parser.emitError(loc) << "unknown color '" << keyword
                          << "'; expected green, gray or red";
    return {};
  }
  if (parser.parseGreater())
    return {};
  return ColorAttr::get(parser.getContext(), *color);
}

void ColorAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyColor(getValue()) << ">";
}

Attribute PrecisionAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  Type accumulate, output, compute;
  if (parser.parseLess() ||
      parseKeyValueList(parser, "#amp.precision",
                        {"compute", "accumulate", "output"},
                        [&](StringRef key) {
                          return parser.parseType(
                              key == "compute"      ? compute
                              : key == "accumulate" ? accumulate
                                                    : output);
                        }))
    return {};
  if (!accumulate || !output) {
    parser.emitError(loc) << "#amp.precision needs both 'accumulate' and "
                             "'output' (missing '"
                          << (accumulate ? "output" : "accumulate") << "')";
    return {};
  }
  return PrecisionAttr::getChecked(
      [&] { return parser.emitError(loc); }, parser.getContext(), accumulate,
      output, compute);
}

void PrecisionAttr::print(AsmPrinter &printer) const {
  printer << "<";
  if (getCompute())
    printer << "compute = " << getCompute() << ", ";
  printer << "accumulate = " << getAccumulate()
          << ", output = " << getOutput() << ">";
}

Attribute DefaultPolicyAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  Type accumulate, output;
  int64_t minMacs = 0;
  if (succeeded(parser.parseOptionalLess()) &&
      parseKeyValueList(parser, "#amp.default_policy",
                        {"accumulate", "output", "min_macs"},
                        [&](StringRef key) -> ParseResult {
                          if (key == "min_macs")
                            return parser.parseInteger(minMacs);
                          return parser.parseType(
                              key == "accumulate" ? accumulate : output);
                        }))
    return {};
  return DefaultPolicyAttr::getChecked(
      [&] { return parser.emitError(loc); }, parser.getContext(), accumulate,
      output, minMacs);
}

void DefaultPolicyAttr::print(AsmPrinter &printer) const {
  SmallVector<std::string> parts;
  auto add = [&](StringRef key, auto value) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << key << " = " << value;
    parts.push_back(text);
  };
  if (getAccumulate())
    add("accumulate", getAccumulate());
  if (getOutput())
    add("output", getOutput());
  if (getMinMacs() != 0)
    add("min_macs", getMinMacs());
  if (!parts.empty())
    printer << "<" << llvm::join(parts, ", ") << ">";
}

Attribute LayoutConfigAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  FilterLayout filter = FilterLayout::hwcf;
  SmallVector<int64_t> skipLayers;
  ArrayAttr ops;
  auto parseValue = [&](StringRef key) -> ParseResult {
    if (key == "filter") {
      SMLoc valueLoc = parser.getCurrentLocation();
      StringRef keyword;
      if (failed(parser.parseOptionalKeyword(&keyword)) ||
          !symbolizeFilterLayout(keyword))
        return parser.emitError(valueLoc)
               << "expected a filter layout (hwcf or fhwc) in "
                  "#amp.layout_config";
      filter = *symbolizeFilterLayout(keyword);
      return success();
    }
    if (key == "skip_layers")
      return parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            return parser.parseInteger(skipLayers.emplace_back());
          });
    return parser.parseAttribute(ops);
  };
  if (succeeded(parser.parseOptionalLess()) &&
      parseKeyValueList(parser, "#amp.layout_config",
                        {"filter", "skip_layers", "ops"}, parseValue))
    return {};
  return LayoutConfigAttr::getChecked([&] { return parser.emitError(loc); },
                                      parser.getContext(), filter, skipLayers,
                                      ops);
}

void LayoutConfigAttr::print(AsmPrinter &printer) const {
  SmallVector<std::string> parts;
  auto add = [&](StringRef key, auto printValue) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << key << " = ";
    printValue(os);
    parts.push_back(text);
  };
  if (getFilter() != FilterLayout::hwcf)
    add("filter",
        [&](raw_ostream &os) { os << stringifyFilterLayout(getFilter()); });
  if (!getSkipLayers().empty())
    add("skip_layers", [&](raw_ostream &os) {
      os << "[";
      llvm::interleaveComma(getSkipLayers(), os);
      os << "]";
    });
  if (getOps())
    add("ops", [&](raw_ostream &os) { os << getOps(); });
  if (!parts.empty())
    printer << "<" << llvm::join(parts, ", ") << ">";
}

//===----------------------------------------------------------------------===//
// WeightsAttr
//===----------------------------------------------------------------------===//

LogicalResult WeightsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  StringRef format) {
  if (format == "none")
    return success();
  std::string error;
  if (!parseWeightQuantSpec(format, error))
    return emitError() << error << " or none";
  return success();
}

std::optional<WeightQuantSpec> WeightsAttr::getSpec() const {
  std::string error;
  return getFormat() == "none" ? std::nullopt
                               : parseWeightQuantSpec(getFormat(), error);
}
