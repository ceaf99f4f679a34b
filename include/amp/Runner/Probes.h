//===- Probes.h - Watch values of a compiled model as it runs ----*- C++
//-*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A probe is a call, inserted after an op, of an external function that
// receives one of the op's results (a float ranked tensor; 16-bit floats are
// widened to f32 first) and a probe id. The JIT resolves the function to the
// ProbeSink given to ProbeSink::symbols, which sees every element of the
// value, row-major, each time the probe runs. `amp-run --calibrate` records
// ranges this way; `amp-tune` measures the error of every op's output.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_PROBES_H
#define AMP_RUNNER_PROBES_H

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir {
namespace amp {
namespace runner {

/// A value to watch: result `result` of `op`, or (op null) a block
/// argument, watched at the start of its block.
struct ProbePoint {
  Operation *op;
  unsigned result;
  BlockArgument argument = {};
};

/// Inserts a probe after each point (the id of points[i] is firstId + i)
/// and declares the probe functions in `module`.
void insertProbes(ModuleOp module, ArrayRef<ProbePoint> points,
                  int64_t firstId = 0);

/// The symbols the JIT must resolve for the probes (name, address); they
/// report to the active sink (ProbeSink::activate).
std::vector<std::pair<std::string, void *>> getProbeSymbols();

/// Removes, from the module lowered to the LLVM dialect, the bufferization
/// hint the probes' declarations carry (LLVM does not know it).
void stripProbeAttributes(ModuleOp lowered);

/// Receives what the probes of one compiled module see.
class ProbeSink {
public:
  virtual ~ProbeSink();
  /// Called each time probe `id` runs, with every element of its value in
  /// row-major order.
  virtual void observe(int64_t id, ArrayRef<double> values) = 0;

  /// From this call on, probes report to this sink (one sink at a time;
  /// models that run at once call observe on their own threads); it must
  /// outlive the code's runs.
  void activate();

  /// activate(), then getProbeSymbols().
  std::vector<std::pair<std::string, void *>> symbols();
};

} // namespace runner
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_PROBES_H
