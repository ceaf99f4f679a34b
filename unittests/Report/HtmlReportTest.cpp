//===- HtmlReportTest.cpp - The HTML report and its graph -----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The format a report file name selects; the page keeps any string of the
// document inside its data element; the graph of a module: report ops found
// by name and location, the ones not found counted, long chains of ops that
// are not in the report looked through without recursion.
//
//===----------------------------------------------------------------------===//

#include "amp/Report/HtmlReport.h"
#include "amp/InitAmp.h"
#include "amp/Report/ReportGraph.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::amp;

namespace {

TEST(HtmlReport, FormatFromExtension) {
  EXPECT_EQ(getReportFormat("r.json"), ReportFormat::Json);
  EXPECT_EQ(getReportFormat("dir.html/R.JSON"), ReportFormat::Json);
  EXPECT_EQ(getReportFormat("-"), ReportFormat::Json);
  EXPECT_EQ(getReportFormat("/tmp/r.html"), ReportFormat::Html);
  EXPECT_EQ(getReportFormat("r.HTM"), ReportFormat::Html);
  EXPECT_EQ(getReportFormat("r.txt"), std::nullopt);
  EXPECT_EQ(getReportFormat("report"), std::nullopt);
  EXPECT_EQ(getReportFormat("r.json.gz"), std::nullopt);
}

/// The text of the data element of `page`.
std::string dataOf(StringRef page) {
  StringRef open = "id=\"amp-report-data\">";
  size_t start = page.find(open);
  if (start == StringRef::npos)
    return "";
  start += open.size();
  return page.slice(start, page.find("</script>", start)).str();
}

TEST(HtmlReport, DataCannotCloseItsElement) {
  std::string hostile = "</script><script>document.title='x'</script><!--";
  llvm::json::Value document =
      llvm::json::Object{{"title", hostile}, {"report", llvm::json::Object{}}};
  std::string page;
  {
    llvm::raw_string_ostream os(page);
    writeHtmlReport(os, document);
  }
  // The page's own elements only: the data element and the script.
  size_t scripts = 0;
  for (size_t at = page.find("<script"); at != std::string::npos;
       at = page.find("<script", at + 1))
    ++scripts;
  EXPECT_EQ(scripts, 2u);
  EXPECT_EQ(page.find("<!--", page.find("amp-report-data")), std::string::npos);
  // The data parses back to the document, the string unchanged.
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(dataOf(page));
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(*parsed, document);
}

class ReportGraphTest : public ::testing::Test {
protected:
  ReportGraphTest() {
    DialectRegistry registry;
    registerAmpDialects(registry);
    registry.insert<arith::ArithDialect, func::FuncDialect>();
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// A report op as the JSON report writes it.
  static llvm::json::Value op(StringRef function, StringRef name,
                              StringRef loc) {
    return llvm::json::Object{
        {"function", function.str()}, {"op", name.str()}, {"loc", loc.str()}};
  }

  MLIRContext context;
};

TEST_F(ReportGraphTest, MatchesByNameAndLocationAndCountsTheRest) {
  const char *text = R"mlir(
    func.func @f(%x: f32) -> f32 {
      %a = arith.addf %x, %x : f32 loc("a")
      %b = arith.mulf %a, %a : f32 loc("b")
      %c = arith.subf %b, %a : f32 loc("c")
      return %c : f32
    })mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  ASSERT_TRUE(module);
  llvm::json::Array ops{op("f", "arith.addf", "a"), op("f", "arith.subf", "c"),
                        op("f", "arith.mulf", "elsewhere")};
  llvm::json::Object graph = buildReportGraph(*module, ops);
  EXPECT_EQ(graph.getInteger("unmatched"), 1);
  // addf -> subf through the mulf (not in the report) and directly; one
  // edge. The argument (node 3) feeds the addf; subf feeds the result.
  std::string edges;
  llvm::raw_string_ostream os(edges);
  os << llvm::json::Value(std::move(*graph.getArray("edges")));
  EXPECT_EQ(edges, "[[3,0,0,\"\"],[0,1,0,\"\"],[1,4,0,\"\"]]");
  EXPECT_EQ(ops[1].getAsObject()->getString("types"), "(f32, f32) -> f32");
}

TEST_F(ReportGraphTest, LongChainsAreLookedThroughWithoutRecursion) {
  // 200,000 ops between the two report ops: a recursive walk would exhaust
  // the stack.
  constexpr int kChain = 200000;
  std::string text = "func.func @f(%x: f32) -> f32 {\n"
                     "  %v0 = arith.negf %x : f32 loc(\"first\")\n";
  for (int i = 1; i <= kChain; ++i)
    text += "  %v" + std::to_string(i) + " = arith.addf %v" +
            std::to_string(i - 1) + ", %v" + std::to_string(i - 1) + " : f32\n";
  text += "  %last = arith.negf %v" + std::to_string(kChain) +
          " : f32 loc(\"last\")\n  return %last : f32\n}\n";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  ASSERT_TRUE(module);
  llvm::json::Array ops{op("f", "arith.negf", "first"),
                        op("f", "arith.negf", "last")};
  llvm::json::Object graph = buildReportGraph(*module, ops);
  EXPECT_EQ(graph.getInteger("unmatched"), 0);
  std::string edges;
  llvm::raw_string_ostream os(edges);
  os << llvm::json::Value(std::move(*graph.getArray("edges")));
  EXPECT_EQ(edges, "[[2,0,0,\"\"],[0,1,0,\"\"],[1,3,0,\"\"]]");
}

} // namespace
