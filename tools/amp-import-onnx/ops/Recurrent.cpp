//===- Recurrent.cpp - LSTM and GRU, unrolled over the time steps ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The sequence length is static, so the recurrence is unrolled: the input
// projection of every time step is one tosa.matmul ([seq * batch, input] x
// [input, gates * hidden]) before the loop, and each step is one more
// tosa.matmul of the hidden state with the recurrent weights (two for a
// GRU without linear_before_reset), slices of the gates, the activations
// (tosa.sigmoid, tosa.tanh, relu as tosa.clamp) and element-wise updates.
// amp's pass colors the matmuls green (f16 operands, f32 accumulation) and
// the gates and state updates as it colors those ops anywhere else.
//
// Gate orders are ONNX's: LSTM i, o, f, c (peepholes i, o, f), GRU z, r, h.
// Directions forward, reverse and bidirectional, both layouts, clip, LSTM
// peepholes and GRU's linear_before_reset are read; sequence_lens must be
// known at import time and equal to the sequence length.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace mlir;
using namespace amp::onnximport;

namespace {
enum class RnnKind { LSTM, GRU };
enum class Activation { Sigmoid, Tanh, Relu };

/// What the recurrence reads from the node's attributes and shapes.
struct RnnConfig {
  RnnKind kind;
  /// 4 (LSTM) or 3 (GRU).
  int64_t numGates;
  int64_t seq, batch, inputSize, hidden, numDirs;
  bool batchFirst, linearBeforeReset;
  std::string direction;
  std::optional<double> clip;
  /// Per direction: f, g, h (LSTM) or f, g (GRU).
  SmallVector<Activation> activations;
};

/// One direction's weights, in the forms the steps use.
struct DirectionWeights {
  /// [input, gates * hidden] and [hidden, gates * hidden].
  Value wT, rT;
  /// [gates * hidden] each, or null.
  Value wBias, rBias;
  /// [batch, hidden].
  Value h0, c0;
  /// [3 * hidden] (LSTM peepholes), or null.
  Value peepholes;
};

/// The hidden state (and LSTM cell) after a step.
struct RnnState {
  Value h, c;
};
} // namespace

/// The activations: the attribute's (names of ONNX ops) or the defaults.
static LogicalResult readActivations(NodeContext &ctx, RnnConfig &cfg) {
  int64_t perDir = cfg.kind == RnnKind::LSTM ? 3 : 2;
  const amp::onnximport::Attribute *attr = ctx.attr("activations");
  if (!attr || attr->strings.empty()) {
    for (int64_t d = 0; d < cfg.numDirs; ++d) {
      cfg.activations.push_back(Activation::Sigmoid);
      for (int64_t i = 1; i < perDir; ++i)
        cfg.activations.push_back(Activation::Tanh);
    }
    return success();
  }
  if (static_cast<int64_t>(attr->strings.size()) != perDir * cfg.numDirs)
    return ctx.error("'activations' has " + Twine(attr->strings.size()) +
                     " entries; expected " + Twine(perDir * cfg.numDirs));
  for (const std::string &name : attr->strings) {
    StringRef n(name);
    if (n.equals_insensitive("Sigmoid"))
      cfg.activations.push_back(Activation::Sigmoid);
    else if (n.equals_insensitive("Tanh"))
      cfg.activations.push_back(Activation::Tanh);
    else if (n.equals_insensitive("Relu"))
      cfg.activations.push_back(Activation::Relu);
    else
      return ctx.unsupported("activations",
                             "'" + name + "' (Sigmoid, Tanh or Relu)");
  }
  return success();
}

/// Reads and checks the attributes and shapes; failure is reported.
static FailureOr<RnnConfig> readConfig(NodeContext &ctx, RnnKind kind) {
  RnnConfig cfg;
  cfg.kind = kind;
  cfg.numGates = kind == RnnKind::LSTM ? 4 : 3;
  Value x = ctx.input(0), w = ctx.input(1), r = ctx.input(2);
  Type elementType = getElementType(x);
  if (!isa<FloatType>(elementType) || elementType.isF64())
    return ctx.error("only f32, f16 and bf16 recurrences are supported");
  if (getTensorType(x).getRank() != 3 || getTensorType(w).getRank() != 3 ||
      getTensorType(r).getRank() != 3)
    return ctx.error("X, W and R must have rank 3");
  cfg.batchFirst = ctx.getInt("layout", 0) != 0;
  ArrayRef<int64_t> xs = getShape(x);
  cfg.seq = cfg.batchFirst ? xs[1] : xs[0];
  cfg.batch = cfg.batchFirst ? xs[0] : xs[1];
  cfg.inputSize = xs[2];
  cfg.numDirs = getShape(w)[0];
  cfg.hidden = ctx.getInt("hidden_size", getShape(r)[2]);
  cfg.direction = ctx.getString("direction", "forward");
  if (cfg.direction != "forward" && cfg.direction != "reverse" &&
      cfg.direction != "bidirectional")
    return ctx.unsupported("direction",
                           "'" + cfg.direction +
                               "' (forward, reverse or bidirectional)");
  if (cfg.numDirs != (cfg.direction == "bidirectional" ? 2 : 1))
    return ctx.error("W has " + Twine(cfg.numDirs) +
                     " directions, which direction '" + cfg.direction +
                     "' does not have");
  int64_t gh = cfg.numGates * cfg.hidden;
  if (getShape(w)[1] != gh || getShape(w)[2] != cfg.inputSize ||
      getShape(r) != ArrayRef<int64_t>{cfg.numDirs, gh, cfg.hidden})
    return ctx.error("W or R does not match hidden_size " + Twine(cfg.hidden) +
                     " and the input size " + Twine(cfg.inputSize));
  if (kind == RnnKind::LSTM && ctx.getInt("input_forget", 0) != 0)
    return ctx.unsupported("input_forget", "1 (coupled input-forget gates)");
  cfg.linearBeforeReset = ctx.getInt("linear_before_reset", 0) != 0;
  if (ctx.attr("clip"))
    cfg.clip = ctx.getFloat("clip", 0.0f);
  if (cfg.clip && *cfg.clip <= 0)
    return ctx.unsupported(
        "clip", llvm::formatv("{0} (must be positive)", *cfg.clip).str());
  if (ctx.hasInput(4)) {
    std::optional<std::vector<int64_t>> lens = ctx.constInts(4);
    if (!lens || llvm::any_of(*lens, [&](int64_t n) { return n != cfg.seq; }))
      return ctx.error("sequence_lens must be known at import time and equal "
                       "to the sequence length (" +
                       Twine(cfg.seq) + ")");
  }
  if (failed(readActivations(ctx, cfg)))
    return failure();
  return cfg;
}

/// Slice `index` of dimension 0 of `value` ([n, ...]), without that
/// dimension.
static Value takeFirst(OpBuilder &b, Location loc, Value value, int64_t index) {
  SmallVector<int64_t> shape(getShape(value));
  SmallVector<int64_t> starts(shape.size(), 0);
  starts[0] = index;
  shape[0] = 1;
  Value part = slice(b, loc, value, starts, shape);
  return reshape(b, loc, part, ArrayRef<int64_t>(shape).drop_front());
}

/// Columns [start, start + size) of a matrix.
static Value columns(OpBuilder &b, Location loc, Value value, int64_t start,
                     int64_t size) {
  int64_t rows = getShape(value)[0];
  return slice(b, loc, value, {0, start}, {rows, size});
}

/// The initial state input `index` ([dirs, batch, hidden], or batch first),
/// for direction `d`, or zeros.
static Value initialState(NodeContext &ctx, const RnnConfig &cfg,
                          unsigned index, int64_t d, Type elementType) {
  if (!ctx.hasInput(index))
    return splatConst(
        ctx.b, ctx.loc,
        RankedTensorType::get({cfg.batch, cfg.hidden}, elementType), 0.0);
  Value state = ctx.input(index);
  if (cfg.batchFirst)
    state = transpose(ctx.b, ctx.loc, state, {1, 0, 2});
  return takeFirst(ctx.b, ctx.loc, state, d);
}

/// Direction `d`'s weights, biases, initial state and peepholes.
static FailureOr<DirectionWeights>
readWeights(NodeContext &ctx, const RnnConfig &cfg, int64_t d) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Type elementType = getElementType(ctx.input(0));
  int64_t gh = cfg.numGates * cfg.hidden;
  DirectionWeights w;
  w.wT = transpose(b, loc, takeFirst(b, loc, ctx.input(1), d), {1, 0});
  w.rT = transpose(b, loc, takeFirst(b, loc, ctx.input(2), d), {1, 0});
  if (ctx.hasInput(3)) {
    Value bias = ctx.input(3);
    if (getShape(bias) != ArrayRef<int64_t>{cfg.numDirs, 2 * gh})
      return ctx.error("B must have shape [directions, 2 * gates * hidden]");
    Value both = takeFirst(b, loc, bias, d);
    w.wBias = slice(b, loc, both, {0}, {gh});
    w.rBias = slice(b, loc, both, {gh}, {gh});
  }
  for (unsigned index : {5u, 6u})
    if (ctx.hasInput(index) &&
        getShape(ctx.input(index)) !=
            (cfg.batchFirst
                 ? ArrayRef<int64_t>{cfg.batch, cfg.numDirs, cfg.hidden}
                 : ArrayRef<int64_t>{cfg.numDirs, cfg.batch, cfg.hidden}))
      return ctx.error("the initial state does not have the shape of one "
                       "hidden state per direction and batch");
  w.h0 = initialState(ctx, cfg, 5, d, elementType);
  if (cfg.kind == RnnKind::LSTM) {
    w.c0 = initialState(ctx, cfg, 6, d, elementType);
    if (ctx.hasInput(7)) {
      Value p = ctx.input(7);
      if (getShape(p) != ArrayRef<int64_t>{cfg.numDirs, 3 * cfg.hidden})
        return ctx.error("P must have shape [directions, 3 * hidden]");
      w.peepholes = takeFirst(b, loc, p, d);
    }
  }
  return w;
}

/// `act(x)`; with `clip`, x is clipped first (the gates' pre-activations
/// are, as ONNX Runtime does; the cell state read by the LSTM's h is not).
static Value activate(OpBuilder &b, Location loc, const RnnConfig &cfg,
                      Activation act, Value x, bool clipInput = true) {
  if (cfg.clip && clipInput)
    x = clamp(b, loc, x, -*cfg.clip, *cfg.clip);
  switch (act) {
  case Activation::Sigmoid:
    return tosa::SigmoidOp::create(b, loc, x.getType(), x);
  case Activation::Tanh:
    return tosa::TanhOp::create(b, loc, x.getType(), x);
  case Activation::Relu:
    return clamp(b, loc, x, 0.0, std::numeric_limits<double>::infinity());
  }
  llvm_unreachable("unknown activation");
}

/// [batch, k] x [k, n] as a tosa.matmul.
static Value matmul2d(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  ArrayRef<int64_t> l = getShape(lhs), r = getShape(rhs);
  Value result = matmul3d(b, loc, reshape(b, loc, lhs, {1, l[0], l[1]}),
                          reshape(b, loc, rhs, {1, r[0], r[1]}));
  return reshape(b, loc, result, {l[0], r[1]});
}

/// One LSTM step from the step's input projection `xw` ([batch, 4H], the
/// biases added).
static RnnState lstmStep(OpBuilder &b, Location loc, const RnnConfig &cfg,
                         ArrayRef<Activation> acts, const DirectionWeights &w,
                         Value xw, RnnState s) {
  int64_t hidden = cfg.hidden;
  Value gates = add(b, loc, xw, matmul2d(b, loc, s.h, w.rT));
  auto gate = [&](int64_t k) {
    return columns(b, loc, gates, k * hidden, hidden);
  };
  auto peephole = [&](Value g, int64_t k, Value c) {
    if (!w.peepholes)
      return g;
    Value p = slice(b, loc, w.peepholes, {k * hidden}, {hidden});
    return add(b, loc, g, mul(b, loc, p, c));
  };
  Value i = activate(b, loc, cfg, acts[0], peephole(gate(0), 0, s.c));
  Value f = activate(b, loc, cfg, acts[0], peephole(gate(2), 2, s.c));
  Value candidate = activate(b, loc, cfg, acts[1], gate(3));
  Value c = add(b, loc, mul(b, loc, f, s.c), mul(b, loc, i, candidate));
  Value o = activate(b, loc, cfg, acts[0], peephole(gate(1), 1, c));
  Value h =
      mul(b, loc, o, activate(b, loc, cfg, acts[2], c, /*clipInput=*/false));
  return {h, c};
}

/// One GRU step from the step's input projection `xw` ([batch, 3H], with
/// the biases of z and r, and Rbh unless linear_before_reset).
static RnnState gruStep(OpBuilder &b, Location loc, const RnnConfig &cfg,
                        ArrayRef<Activation> acts, const DirectionWeights &w,
                        Value xw, RnnState s) {
  int64_t hidden = cfg.hidden;
  Value rZR = columns(b, loc, w.rT, 0, 2 * hidden);
  Value rH = columns(b, loc, w.rT, 2 * hidden, hidden);
  Value zr = add(b, loc, columns(b, loc, xw, 0, 2 * hidden),
                 matmul2d(b, loc, s.h, rZR));
  Value z = activate(b, loc, cfg, acts[0], columns(b, loc, zr, 0, hidden));
  Value r = activate(b, loc, cfg, acts[0], columns(b, loc, zr, hidden, hidden));
  Value recurrent;
  if (cfg.linearBeforeReset) {
    recurrent = matmul2d(b, loc, s.h, rH);
    if (w.rBias)
      recurrent = add(b, loc, recurrent,
                      slice(b, loc, w.rBias, {2 * hidden}, {hidden}));
    recurrent = mul(b, loc, r, recurrent);
  } else {
    recurrent = matmul2d(b, loc, mul(b, loc, r, s.h), rH);
  }
  Value candidate =
      activate(b, loc, cfg, acts[1],
               add(b, loc, columns(b, loc, xw, 2 * hidden, hidden), recurrent));
  // (1 - z) * candidate + z * h
  Value one = scalarConst(b, loc, getElementType(z), 1.0, 2);
  Value h = add(b, loc, mul(b, loc, sub(b, loc, one, z), candidate),
                mul(b, loc, z, s.h));
  return {h, Value()};
}

/// The biases added to the input projection of every step: both for an
/// LSTM; for a GRU all of W's and R's except Rbh under linear_before_reset.
static Value projectionBias(OpBuilder &b, Location loc, const RnnConfig &cfg,
                            const DirectionWeights &w) {
  if (!w.wBias)
    return Value();
  if (cfg.kind == RnnKind::GRU && cfg.linearBeforeReset) {
    int64_t zr = 2 * cfg.hidden;
    Value rZR = slice(b, loc, w.rBias, {0}, {zr});
    Value zeros = splatConst(
        b, loc, RankedTensorType::get({cfg.hidden}, getElementType(w.rBias)),
        0.0);
    return add(b, loc, w.wBias, concat(b, loc, {rZR, zeros}, 0));
  }
  return add(b, loc, w.wBias, w.rBias);
}

/// Runs direction `d` over `x` ([seq, batch, input]): the hidden states in
/// time order ([seq, batch, hidden]) and the final state.
static std::pair<Value, RnnState> runDirection(OpBuilder &b, Location loc,
                                               const RnnConfig &cfg,
                                               const DirectionWeights &w,
                                               Value x, int64_t d) {
  int64_t gh = cfg.numGates * cfg.hidden;
  Value flat = reshape(b, loc, x, {cfg.seq * cfg.batch, cfg.inputSize});
  Value xw = matmul2d(b, loc, flat, w.wT);
  if (Value bias = projectionBias(b, loc, cfg, w))
    xw = add(b, loc, xw, bias);
  xw = reshape(b, loc, xw, {cfg.seq, cfg.batch, gh});
  int64_t perDir = cfg.kind == RnnKind::LSTM ? 3 : 2;
  ArrayRef<Activation> acts =
      ArrayRef<Activation>(cfg.activations).slice(d * perDir, perDir);
  bool reverse = cfg.direction == "reverse" || d == 1;
  RnnState state{w.h0, w.c0};
  SmallVector<Value> outputs(cfg.seq);
  for (int64_t step = 0; step < cfg.seq; ++step) {
    int64_t t = reverse ? cfg.seq - 1 - step : step;
    Value xt = takeFirst(b, loc, xw, t);
    state = cfg.kind == RnnKind::LSTM
                ? lstmStep(b, loc, cfg, acts, w, xt, state)
                : gruStep(b, loc, cfg, acts, w, xt, state);
    outputs[t] = reshape(b, loc, state.h, {1, cfg.batch, cfg.hidden});
  }
  return {concat(b, loc, outputs, 0), state};
}

static LogicalResult convertRecurrent(NodeContext &ctx, RnnKind kind) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  FailureOr<RnnConfig> cfg = readConfig(ctx, kind);
  if (failed(cfg))
    return failure();
  Value x = ctx.input(0);
  if (cfg->batchFirst)
    x = transpose(b, loc, x, {1, 0, 2});
  SmallVector<Value> ys, hs, cs;
  for (int64_t d = 0; d < cfg->numDirs; ++d) {
    FailureOr<DirectionWeights> w = readWeights(ctx, *cfg, d);
    if (failed(w))
      return failure();
    auto [y, state] = runDirection(b, loc, *cfg, *w, x, d);
    ys.push_back(reshape(b, loc, y, {cfg->seq, 1, cfg->batch, cfg->hidden}));
    hs.push_back(reshape(b, loc, state.h, {1, cfg->batch, cfg->hidden}));
    if (state.c)
      cs.push_back(reshape(b, loc, state.c, {1, cfg->batch, cfg->hidden}));
  }
  // Y: [seq, dirs, batch, hidden] (batch first: [batch, seq, dirs,
  // hidden]); Y_h, Y_c: [dirs, batch, hidden] ([batch, dirs, hidden]).
  Value y = concat(b, loc, ys, 1);
  if (cfg->batchFirst)
    y = transpose(b, loc, y, {2, 0, 1, 3});
  auto finalState = [&](ArrayRef<Value> parts) {
    Value v = concat(b, loc, parts, 0);
    return cfg->batchFirst ? transpose(b, loc, v, {1, 0, 2}) : v;
  };
  if (ctx.hasOutput(0))
    ctx.setOutput(0, y);
  if (ctx.hasOutput(1))
    ctx.setOutput(1, finalState(hs));
  if (kind == RnnKind::LSTM && ctx.hasOutput(2))
    ctx.setOutput(2, finalState(cs));
  return success();
}

LogicalResult amp::onnximport::convertLSTM(NodeContext &ctx) {
  return convertRecurrent(ctx, RnnKind::LSTM);
}

LogicalResult amp::onnximport::convertGRU(NodeContext &ctx) {
  return convertRecurrent(ctx, RnnKind::GRU);
}
