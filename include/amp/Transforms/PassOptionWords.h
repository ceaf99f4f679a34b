//===- PassOptionWords.h - Pass options that take one of a few words -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The enum-valued options of the mixed-precision passes (Passes.td lists
// their words with clEnumValN). llvm::cl's parser for enums rejects a word
// with "Cannot find option named 'x'!"; WordParser says instead which option
// it was and which words it takes. It is installed as llvm::cl::parser<E>
// for each such enum, so that the pass options TableGen generates use it.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_PASSOPTIONWORDS_H
#define AMP_TRANSFORMS_PASSOPTIONWORDS_H

#include "amp/Analysis/MixedPrecisionOptions.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace mlir {
namespace amp {

/// llvm::cl::parser<T> for an enum T, with an error that lists the words.
template <typename T>
class WordParser : public llvm::cl::generic_parser_base {
protected:
  class OptionInfo : public GenericOptionInfo {
  public:
    OptionInfo(llvm::StringRef name, T v, llvm::StringRef helpStr)
        : GenericOptionInfo(name, helpStr), V(v) {}
    llvm::cl::OptionValue<T> V;
  };
  llvm::SmallVector<OptionInfo, 4> Values;

public:
  using parser_data_type = T;

  WordParser(llvm::cl::Option &option) : generic_parser_base(option) {}

  unsigned getNumOptions() const override { return unsigned(Values.size()); }
  llvm::StringRef getOption(unsigned n) const override {
    return Values[n].Name;
  }
  llvm::StringRef getDescription(unsigned n) const override {
    return Values[n].HelpStr;
  }
  const llvm::cl::GenericOptionValue &getOptionValue(unsigned n) const override {
    return Values[n].V;
  }

  /// Returns true on error, as llvm::cl's parsers do.
  bool parse(llvm::cl::Option &option, llvm::StringRef, llvm::StringRef arg,
             T &value) {
    for (const OptionInfo &info : Values)
      if (info.Name == arg) {
        value = info.V.getValue();
        return false;
      }
    std::string words;
    for (const OptionInfo &info : Values)
      words += (words.empty() ? "" : ", ") + info.Name.str();
    return option.error("'" + arg + "' is not one of: " + words);
  }

  template <typename DT>
  void addLiteralOption(llvm::StringRef name, const DT &value,
                        llvm::StringRef helpStr) {
    Values.push_back(OptionInfo(name, static_cast<T>(value), helpStr));
    AddLiteralOption(Owner, name);
  }

  void removeLiteralOption(llvm::StringRef name) {
    Values.erase(Values.begin() + findOption(name));
  }
};

} // namespace amp
} // namespace mlir

// WordParser as the command-line parser of the options' enums.
template <>
class llvm::cl::parser<mlir::amp::UnknownOpPolicy>
    : public mlir::amp::WordParser<mlir::amp::UnknownOpPolicy> {
public:
  using WordParser::WordParser;
};
template <>
class llvm::cl::parser<mlir::amp::GrayStrategy>
    : public mlir::amp::WordParser<mlir::amp::GrayStrategy> {
public:
  using WordParser::WordParser;
};
template <>
class llvm::cl::parser<mlir::amp::RangeAnalysisKind>
    : public mlir::amp::WordParser<mlir::amp::RangeAnalysisKind> {
public:
  using WordParser::WordParser;
};
template <>
class llvm::cl::parser<mlir::amp::ScaleGranularity>
    : public mlir::amp::WordParser<mlir::amp::ScaleGranularity> {
public:
  using WordParser::WordParser;
};

#endif // AMP_TRANSFORMS_PASSOPTIONWORDS_H
