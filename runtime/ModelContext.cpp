//===- ModelContext.cpp - Running compiled models: amp_model.h, second half ===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// amp_context: checks the caller's tensors against the model's signature,
// stages host inputs on the device, calls the entry point, and hands the
// outputs back in the memory the caller asked for.
//
// CUDA graphs. A GPU build's context remembers the input shapes it has run.
// The second call at a shape is captured into a graph (the first one loads
// the kernels and uploads the weights, which a capture cannot do), with
// input buffers of the context's own; from then on a call at that shape is
// one ampGraphRun: the input copies, the replay and the output copies on
// one stream, n + m + 2 driver calls. At most kMaxGraphs shapes keep a
// graph (the least recently used goes). A call that cannot be replayed
// (one that copies to the host in the middle) is run as ordinary calls.
//
//===----------------------------------------------------------------------===//

#include "ModelLibrary.h"

#include <cstdlib>
#include <cstring>
#include <map>

using namespace amp::runtime;

#define AMP_API extern "C" __attribute__((visibility("default")))

namespace {

constexpr size_t kMaxGraphs = 8;

/// A memref descriptor of any rank up to 8, as MLIR's C interface lays it
/// out: {allocated, aligned, offset, sizes[rank], strides[rank]}.
struct Descriptor {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizesAndStrides[2 * AMP_ABI_MAX_RANK];
};

size_t descriptorBytes(int rank) { return (3 + 2 * size_t(rank)) * 8; }

int64_t numElements(int rank, const int64_t *shape) {
  int64_t n = 1;
  for (int i = 0; i < rank; ++i)
    n *= shape[i];
  return n;
}

void fillDescriptor(Descriptor &d, void *data, int rank,
                    const int64_t *shape) {
  d.allocated = d.aligned = data;
  d.offset = 0;
  int64_t stride = 1;
  for (int i = rank - 1; i >= 0; --i) {
    d.sizesAndStrides[i] = shape[i];
    d.sizesAndStrides[rank + i] = stride;
    stride *= shape[i];
  }
}

std::string shapeText(int rank, const int64_t *shape) {
  std::string s = "[";
  for (int i = 0; i < rank; ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

/// One graph: the buffers its inputs are read from and the descriptors
/// its outputs were written to (their addresses hold from replay to
/// replay).
struct Graph {
  void *exec = nullptr;
  std::vector<void *> inputs;
  std::vector<char> results;
  int64_t lastUse = 0;
};

/// Where each output of one call is: its descriptor in the results
/// buffer.
struct Produced {
  const Descriptor *desc;
  int64_t shape[AMP_ABI_MAX_RANK];
  size_t bytes;
  char *data;
};

} // namespace

struct amp_context {
  amp_model *model;
  unsigned flags;
  /// Device copies of host inputs for ordinary calls (grown, never shrunk).
  std::vector<void *> staging;
  std::vector<size_t> stagingBytes;
  /// Runs per input shape; -1 once a shape is known not to be replayable.
  std::map<std::vector<int64_t>, int> seen;
  std::map<std::vector<int64_t>, Graph> graphs;
  amp_context_stats stats = {};

  bool useGraphs() const {
    return model->gpu && !(flags & AMP_CONTEXT_NO_GRAPHS);
  }
  void dropGraph(std::map<std::vector<int64_t>, Graph>::iterator it);
  amp_status run(const amp_tensor *inputs, amp_tensor *outputs);
  amp_status deviceError(const char *what);

private:
  amp_status check(const amp_tensor *inputs, const amp_tensor *outputs);
  amp_status ordinaryCall(const amp_tensor *inputs, std::vector<char> &results);
  amp_status capture(const amp_tensor *inputs,
                     const std::vector<int64_t> &key, Graph *&graph);
  amp_status replay(Graph &graph, const amp_tensor *inputs,
                    amp_tensor *outputs);
  amp_status deliver(std::vector<char> &results, amp_tensor *outputs,
                     const amp_tensor *inputs, bool ownResults);
  std::vector<Produced> produced(std::vector<char> &results) const;
  amp_status prepareOutput(amp_tensor &y, int index, const Produced &p,
                           bool allocate);
};

amp_status amp_context::deviceError(const char *what) {
  if (int error = model->ops.takeError())
    return fail(error == 2 ? AMP_ERROR_OUT_OF_MEMORY : AMP_ERROR_DEVICE,
                std::string(what) + ": CUDA error " + std::to_string(error) +
                    (error == 2 ? " (out of memory)" : "") +
                    " (the runtime's message is on stderr)");
  return AMP_OK;
}

/// The caller's tensors against the signature.
amp_status amp_context::check(const amp_tensor *inputs,
                              const amp_tensor *outputs) {
  const amp_abi_model &abi = *model->abi;
  for (int i = 0; i < abi.num_inputs + abi.num_outputs; ++i) {
    bool isInput = i < abi.num_inputs;
    int index = isInput ? i : i - abi.num_inputs;
    const amp_abi_tensor &t = isInput ? abi.inputs[index] : abi.outputs[index];
    const amp_tensor &x = isInput ? inputs[index] : outputs[index];
    std::string what = std::string(isInput ? "input " : "output ") +
                       std::to_string(index) +
                       (t.name && *t.name ? " (" + std::string(t.name) + ")"
                                          : std::string());
    if (x.memory != AMP_MEMORY_HOST && x.memory != AMP_MEMORY_DEVICE)
      return fail(AMP_ERROR_INVALID_ARGUMENT, what + ": unknown memory kind");
    if (x.memory == AMP_MEMORY_DEVICE && !model->gpu)
      return fail(AMP_ERROR_MEMORY_KIND,
                  what + ": device memory, but this is a CPU build of the "
                         "model (host memory only)");
    if (!isInput && !x.data)
      continue; // amp allocates it
    amp_dtype want;
    dtypeOf(t.dtype, want);
    if (x.dtype != want)
      return fail(AMP_ERROR_DTYPE, what + " is " + amp_dtype_name(x.dtype) +
                                       ", the model takes " + t.dtype);
    if (x.rank != t.rank)
      return fail(AMP_ERROR_RANK, what + " has rank " +
                                      std::to_string(x.rank) +
                                      ", the model takes rank " +
                                      std::to_string(t.rank));
    if (!isInput)
      continue; // its shape is checked against what the model produces
    for (int d = 0; d < t.rank; ++d)
      if (x.shape[d] < t.min[d] || x.shape[d] > t.max[d])
        return fail(AMP_ERROR_SHAPE,
                    what + " has shape " + shapeText(x.rank, x.shape) +
                        "; dimension " + std::to_string(d) +
                        (t.shape[d] < 0
                             ? " must be in [" + std::to_string(t.min[d]) +
                                   ", " + std::to_string(t.max[d]) + "]"
                             : " must be " + std::to_string(t.shape[d])));
    if (!x.data && numElements(x.rank, x.shape))
      return fail(AMP_ERROR_INVALID_ARGUMENT, what + ": null data");
  }
  return AMP_OK;
}

std::vector<Produced>
amp_context::produced(std::vector<char> &results) const {
  const amp_abi_model &abi = *model->abi;
  std::vector<Produced> out(abi.num_outputs);
  size_t at = 0;
  for (int o = 0; o < abi.num_outputs; ++o) {
    const amp_abi_tensor &t = abi.outputs[o];
    auto *d = reinterpret_cast<const Descriptor *>(results.data() + at);
    at += descriptorBytes(t.rank);
    size_t element = elementBytes(t.dtype);
    out[o].desc = d;
    for (int i = 0; i < t.rank; ++i)
      out[o].shape[i] = d->sizesAndStrides[i];
    out[o].bytes = size_t(numElements(t.rank, out[o].shape)) * element;
    out[o].data = static_cast<char *>(d->aligned) + d->offset * element;
  }
  return out;
}

/// Calls the entry point on the caller's inputs (host inputs staged on the
/// device for a GPU build).
amp_status amp_context::ordinaryCall(const amp_tensor *inputs,
                                     std::vector<char> &results) {
  const amp_abi_model &abi = *model->abi;
  std::vector<Descriptor> descs(abi.num_inputs);
  std::vector<void *> args(abi.num_inputs);
  for (int i = 0; i < abi.num_inputs; ++i) {
    const amp_tensor &x = inputs[i];
    void *data = x.data;
    size_t bytes =
        size_t(numElements(x.rank, x.shape)) * amp_dtype_size(x.dtype);
    if (model->gpu && x.memory == AMP_MEMORY_HOST && bytes) {
      if (stagingBytes[i] < bytes) {
        model->ops.free(staging[i]);
        staging[i] = model->ops.alloc(bytes);
        stagingBytes[i] = staging[i] ? bytes : 0;
        if (!staging[i])
          return fail(AMP_ERROR_OUT_OF_MEMORY,
                      "cannot allocate " + std::to_string(bytes) +
                          " bytes of device memory for input " +
                          std::to_string(i));
      }
      model->ops.toDevice(staging[i], x.data, bytes);
      data = staging[i];
    }
    fillDescriptor(descs[i], data, x.rank, x.shape);
    args[i] = &descs[i];
  }
  if (amp_status s = deviceError("copying the inputs to the device"))
    return s;
  abi.invoke(results.data(), args.data());
  return deviceError("running the model");
}

void amp_context::dropGraph(
    std::map<std::vector<int64_t>, Graph>::iterator it) {
  Graph &g = it->second;
  model->ops.graphDestroy(g.exec);
  for (void *p : g.inputs)
    model->ops.free(p);
  // Outputs the graph left allocated are freed at its next launch; there
  // is none.
  for (const Produced &p : produced(g.results))
    if (p.desc->allocated && !model->ops.isConstant(p.desc->allocated))
      model->ops.free(p.desc->allocated);
  graphs.erase(it);
}

/// Captures one call at the inputs' shapes into a graph reading buffers of
/// its own; `graph` is null (and the shape marked) when the call cannot be
/// replayed.
amp_status amp_context::capture(const amp_tensor *inputs,
                                const std::vector<int64_t> &key,
                                Graph *&graph) {
  graph = nullptr;
  const amp_abi_model &abi = *model->abi;
  if (graphs.size() >= kMaxGraphs) {
    auto oldest = graphs.begin();
    for (auto it = graphs.begin(); it != graphs.end(); ++it)
      if (it->second.lastUse < oldest->second.lastUse)
        oldest = it;
    dropGraph(oldest);
  }
  Graph g;
  std::vector<Descriptor> descs(abi.num_inputs);
  std::vector<void *> args(abi.num_inputs);
  for (int i = 0; i < abi.num_inputs; ++i) {
    const amp_tensor &x = inputs[i];
    size_t bytes =
        size_t(numElements(x.rank, x.shape)) * amp_dtype_size(x.dtype);
    g.inputs.push_back(bytes ? model->ops.alloc(bytes) : nullptr);
    if (bytes && !g.inputs.back()) {
      for (void *p : g.inputs)
        model->ops.free(p);
      return fail(AMP_ERROR_OUT_OF_MEMORY,
                  "cannot allocate device memory for a graph's input");
    }
    fillDescriptor(descs[i], g.inputs.back(), x.rank, x.shape);
    args[i] = &descs[i];
  }
  size_t resultBytes = 0;
  for (int o = 0; o < abi.num_outputs; ++o)
    resultBytes += descriptorBytes(abi.outputs[o].rank);
  g.results.assign(resultBytes ? resultBytes : 8, 0);
  if (model->ops.captureBegin() == 0) {
    abi.invoke(g.results.data(), args.data());
    g.exec = model->ops.captureEnd();
  }
  model->ops.takeError(); // a call that cannot be captured is not an error
  if (!g.exec) {
    for (void *p : g.inputs)
      model->ops.free(p);
    seen[key] = -1;
    return AMP_OK;
  }
  ++stats.graph_captures;
  graph = &(graphs[key] = std::move(g));
  return AMP_OK;
}

/// Checks a caller's output buffer against what the call produced, or
/// (`allocate`) gives an amp-allocated output its type and shape and, for
/// `allocate` true, new memory of the kind it asks for.
amp_status amp_context::prepareOutput(amp_tensor &y, int index,
                                      const Produced &p, bool allocate) {
  const amp_abi_tensor &t = model->abi->outputs[index];
  if (y.data) {
    if (memcmp(y.shape, p.shape, sizeof(int64_t) * y.rank) == 0)
      return AMP_OK;
    return fail(AMP_ERROR_SHAPE,
                "output " + std::to_string(index) + " has shape " +
                    shapeText(y.rank, p.shape) + ", the buffer given is " +
                    shapeText(y.rank, y.shape));
  }
  dtypeOf(t.dtype, y.dtype);
  y.rank = t.rank;
  memcpy(y.shape, p.shape, sizeof(int64_t) * y.rank);
  if (!allocate)
    return AMP_OK;
  bool device = y.memory == AMP_MEMORY_DEVICE;
  y.data = device ? model->ops.alloc(p.bytes) : malloc(p.bytes ? p.bytes : 1);
  if (!y.data && (p.bytes || !device))
    return fail(AMP_ERROR_OUT_OF_MEMORY, "cannot allocate an output");
  if (y.data)
    noteAllocation(y.data, device ? model->ops.free : free);
  return AMP_OK;
}

/// One call from `graph`: inputs copied into its buffers, one replay, and
/// the outputs copied to the caller's buffers (or to new ones).
amp_status amp_context::replay(Graph &graph, const amp_tensor *inputs,
                               amp_tensor *outputs) {
  const amp_abi_model &abi = *model->abi;
  std::vector<void *> inDst, outDst;
  std::vector<const void *> inSrc, outSrc;
  std::vector<size_t> inBytes, outBytes;
  for (int i = 0; i < abi.num_inputs; ++i) {
    const amp_tensor &x = inputs[i];
    inDst.push_back(graph.inputs[i]);
    inSrc.push_back(x.data);
    inBytes.push_back(size_t(numElements(x.rank, x.shape)) *
                      amp_dtype_size(x.dtype));
  }
  std::vector<Produced> out = produced(graph.results);
  for (int o = 0; o < abi.num_outputs; ++o) {
    amp_tensor &y = outputs[o];
    if (amp_status s = prepareOutput(y, o, out[o], /*allocate=*/true))
      return s;
    outDst.push_back(y.data);
    outSrc.push_back(out[o].data);
    outBytes.push_back(out[o].bytes);
  }
  model->ops.graphRun(graph.exec, abi.num_inputs, inDst.data(), inSrc.data(),
                      inBytes.data(), abi.num_outputs, outDst.data(),
                      outSrc.data(), outBytes.data());
  ++stats.graph_replays;
  return deviceError("replaying the model's graph");
}

/// Hands the outputs of an ordinary call to the caller and frees what is
/// left of them.
amp_status amp_context::deliver(std::vector<char> &results,
                                amp_tensor *outputs, const amp_tensor *inputs,
                                bool ownResults) {
  const amp_abi_model &abi = *model->abi;
  std::vector<Produced> out = produced(results);
  amp_status status = AMP_OK;
  std::vector<void *> keep; // buffers that are not the call's to free
  for (int i = 0; i < abi.num_inputs; ++i)
    keep.push_back(inputs[i].data);
  keep.insert(keep.end(), staging.begin(), staging.end());
  for (int o = 0; o < abi.num_outputs; ++o) {
    amp_tensor &y = outputs[o];
    void *buffer = out[o].desc->allocated;
    bool shared = !buffer || model->ops.isConstant(buffer) ||
                  model->ownsMemory(buffer);
    for (void *k : keep)
      shared |= k == buffer;
    for (int q = 0; q < o; ++q)
      shared |= out[q].desc->allocated == buffer;
    amp_memory from = model->gpu ? AMP_MEMORY_DEVICE : AMP_MEMORY_HOST;
    // An amp-allocated output takes the call's own buffer where it can.
    bool handOver = !y.data && !shared && ownResults &&
                    out[o].data == buffer && y.memory == from;
    if (status == AMP_OK)
      status = prepareOutput(y, o, out[o], /*allocate=*/!handOver);
    if (status == AMP_OK && handOver) {
      y.data = buffer;
      noteAllocation(buffer, model->ops.free);
      continue;
    }
    if (status == AMP_OK)
      status = amp_copy(model, y.data, y.memory, out[o].data, from,
                        out[o].bytes);
    if (!shared && ownResults)
      model->ops.free(buffer);
  }
  return status;
}

amp_status amp_context::run(const amp_tensor *inputs, amp_tensor *outputs) {
  if (amp_status s = check(inputs, outputs))
    return s;
  const amp_abi_model &abi = *model->abi;
  std::vector<int64_t> key;
  for (int i = 0; i < abi.num_inputs; ++i)
    key.insert(key.end(), inputs[i].shape, inputs[i].shape + inputs[i].rank);
  ++stats.runs;
  if (useGraphs()) {
    auto it = graphs.find(key);
    Graph *graph = it == graphs.end() ? nullptr : &it->second;
    if (!graph && seen[key] >= 1)
      if (amp_status s = capture(inputs, key, graph))
        return s;
    if (graph) {
      graph->lastUse = stats.runs;
      return replay(*graph, inputs, outputs);
    }
  }
  size_t resultBytes = 0;
  for (int o = 0; o < abi.num_outputs; ++o)
    resultBytes += descriptorBytes(abi.outputs[o].rank);
  std::vector<char> results(resultBytes ? resultBytes : 8, 0);
  if (amp_status s = ordinaryCall(inputs, results))
    return s;
  int &runs = seen[key];
  if (runs >= 0)
    ++runs;
  return deliver(results, outputs, inputs, /*ownResults=*/true);
}

//===----------------------------------------------------------------------===//
// The C entry points
//===----------------------------------------------------------------------===//

AMP_API amp_status amp_context_create(amp_model *model, unsigned flags,
                                      amp_context **context) {
  if (!model || !context)
    return fail(AMP_ERROR_INVALID_ARGUMENT,
                "amp_context_create: null model or context");
  if (flags & ~(AMP_CONTEXT_NO_GRAPHS | AMP_CONTEXT_WARMUP))
    return fail(AMP_ERROR_INVALID_ARGUMENT,
                "amp_context_create: unknown flags");
  auto *c = new amp_context{model, flags, {}, {}, {}, {}};
  c->staging.assign(model->abi->num_inputs, nullptr);
  c->stagingBytes.assign(model->abi->num_inputs, 0);
  *context = c;
  if (!(flags & AMP_CONTEXT_WARMUP))
    return AMP_OK;
  // Warm-up: zeros at the smallest allowed shapes (uploads the weights and
  // loads the kernels before the first real call).
  const amp_abi_model &abi = *model->abi;
  std::vector<amp_tensor> in(abi.num_inputs), out(abi.num_outputs);
  std::vector<std::vector<char>> data(abi.num_inputs);
  for (int i = 0; i < abi.num_inputs; ++i) {
    const amp_abi_tensor &t = abi.inputs[i];
    in[i] = amp_tensor{};
    dtypeOf(t.dtype, in[i].dtype);
    in[i].rank = t.rank;
    memcpy(in[i].shape, t.min, sizeof(int64_t) * t.rank);
    data[i].assign(size_t(numElements(t.rank, t.min)) *
                           elementBytes(t.dtype) + 1, 0);
    in[i].data = data[i].data();
  }
  for (amp_tensor &y : out)
    y = amp_tensor{};
  amp_status s = amp_context_run(c, in.data(), abi.num_inputs, out.data(),
                                 abi.num_outputs, nullptr);
  for (amp_tensor &y : out)
    amp_tensor_free(&y);
  if (s != AMP_OK) {
    amp_context_destroy(c);
    *context = nullptr;
  }
  return s;
}

AMP_API void amp_context_destroy(amp_context *context) {
  if (!context)
    return;
  std::lock_guard<std::mutex> lock(context->model->runMutex);
  while (!context->graphs.empty())
    context->dropGraph(context->graphs.begin());
  for (void *p : context->staging)
    context->model->ops.free(p);
  delete context;
}

AMP_API amp_status amp_context_run(amp_context *context,
                                   const amp_tensor *inputs, int numInputs,
                                   amp_tensor *outputs, int numOutputs,
                                   void *stream) {
  if (!context)
    return fail(AMP_ERROR_INVALID_ARGUMENT, "amp_context_run: null context");
  const amp_abi_model &abi = *context->model->abi;
  if (numInputs != abi.num_inputs || numOutputs != abi.num_outputs)
    return fail(AMP_ERROR_INVALID_ARGUMENT,
                "amp_context_run: the model takes " +
                    std::to_string(abi.num_inputs) + " inputs and " +
                    std::to_string(abi.num_outputs) + " outputs, not " +
                    std::to_string(numInputs) + " and " +
                    std::to_string(numOutputs));
  if ((numInputs && !inputs) || (numOutputs && !outputs))
    return fail(AMP_ERROR_INVALID_ARGUMENT,
                "amp_context_run: null inputs or outputs");
  if (stream && !context->model->gpu)
    return fail(AMP_ERROR_MEMORY_KIND,
                "amp_context_run: a stream, but this is a CPU build");
  std::lock_guard<std::mutex> lock(context->model->runMutex);
  if (stream) {
    context->model->ops.streamSynchronize(stream);
    if (amp_status s = context->deviceError("synchronizing the stream"))
      return s;
  }
  return context->run(inputs, outputs);
}

AMP_API amp_status amp_context_stats_get(const amp_context *context,
                                         amp_context_stats *stats) {
  if (!context || !stats)
    return fail(AMP_ERROR_INVALID_ARGUMENT, "null context or stats");
  *stats = context->stats;
  stats->cached_graphs = int64_t(context->graphs.size());
  return AMP_OK;
}
