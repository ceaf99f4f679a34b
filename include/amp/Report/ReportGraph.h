//===- ReportGraph.h - The dataflow graph of a converted module -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The graph the HTML report draws, read from the module after the
// conversion. Its nodes are the ops of the report (the "ops" array of the
// JSON report, one per decision), found in the module by function, op name
// and location, plus one node per function argument and per returned value.
// An edge joins the op that defines a value to an op that reads it; ops
// that are not in the report (constants, tensor.empty, fills, the casts the
// conversion inserted) are looked through, and an edge that goes through
// casts carries their bytes (read and written, as the report's cast_bytes
// counts them) and the types they convert between.
//
// Where a function has layers (ops with LayerOpInterface: convolutions,
// matmuls, poolings), every layer starts a group that holds it and the ops
// after it up to the next layer, in program order; the page can collapse a
// group into one node.
//
// Format (an object):
//   {"functions": [{"name", "inputs": [node...], "outputs": [node...]}...],
//    "io": [{"function", "name", "type", "kind": "input"|"output"}...],
//    "layers": [{"function", "name", "head": node, "kind"}...],
//    "layer": [group per report op, -1 for none...],
//    "edges": [[from, to, cast bytes, "f32->f16" or ""]...],
//    "unmatched": <report ops not found in the module>}
// Node i < ops.size() is report op i; node ops.size() + k is io[k]. Each
// report op found in the module also gets "types" (its operand and result
// types, as the converted module has them) and, where the location names a
// readable file, "source" (that line, trimmed).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_REPORT_REPORTGRAPH_H
#define AMP_REPORT_REPORTGRAPH_H

#include "mlir/IR/Operation.h"
#include "llvm/Support/JSON.h"

namespace mlir {
namespace amp {

/// Builds the graph of `converted` (a module after --amp-mixed-precision)
/// for `ops`, the "ops" array of its JSON report, and adds "types" and
/// "source" to the ops it finds.
llvm::json::Object buildReportGraph(Operation *converted,
                                    llvm::json::Array &ops);

} // namespace amp
} // namespace mlir

#endif // AMP_REPORT_REPORTGRAPH_H
