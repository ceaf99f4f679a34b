//===- CudaGraphs.cpp - One call captured into a CUDA graph -----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ampGraphCaptureBegin/End capture one call of a compiled function on the
// capturing stream; ampGraphLaunch replays it, and ampGraphRun replays it
// between the copies of a libamp_model context, with one synchronization.
//
//===----------------------------------------------------------------------===//

#include "CudaRuntimeInternal.h"

#include <cstdio>

using namespace amp::cuda;
using namespace amp::cuda::rt;

//===----------------------------------------------------------------------===//
// Graphs: one call captured, replayed with one launch
//===----------------------------------------------------------------------===//
//
// A harness calls a compiled function once normally (so the driver, the
// modules, the device copies of the constants and the TMA descriptors of
// its inputs are ready), then
//
//   ampGraphCaptureBegin(); _mlir_ciface_f(...); g = ampGraphCaptureEnd();
//
// and from then on ampGraphLaunch(g) instead of calling f: the same kernels,
// copies and stream-ordered allocations, on the same inputs, into the same
// output buffers (the graph's allocations keep their addresses from launch
// to launch; outputs left allocated are freed at the next launch), for one
// driver call instead of one per launch and allocation. The captured call
// itself runs nothing.

AMP_EXPORT int ampGraphCaptureBegin() {
  ensureContext();
  if (!CUDA_HAS(cuStreamBeginCapture, "CUDA graphs") ||
      !CUDA_HAS(cuStreamEndCapture, "CUDA graphs") ||
      !CUDA_HAS(cuGraphInstantiateWithFlags, "CUDA graphs") ||
      !CUDA_HAS(cuGraphLaunch, "CUDA graphs"))
    return CUDA_ERROR_NOT_SUPPORTED;
  CUstream stream = mgpuStreamCreate();
  std::lock_guard<std::mutex> lock(streamMutex);
  if (capture) {
    fprintf(stderr, "amp-cuda-runtime: ampGraphCaptureBegin: a capture is "
                    "already in progress\n");
    return lastError = CUDA_ERROR_ILLEGAL_STATE;
  }
  // Relaxed: the runtime's own synchronous calls (a TMA descriptor's upload
  // for a buffer the graph allocates) stay legal during the capture; the
  // stream is non-blocking, so they do not join it.
  if (CUresult e = CUDA_CALL(cuStreamBeginCapture, stream,
                             CU_STREAM_CAPTURE_MODE_RELAXED)) {
    freeStreams.push_back(stream);
    return e;
  }
  capture = new Capture{stream, std::this_thread::get_id(), nullptr, {}};
  return CUDA_SUCCESS;
}

AMP_EXPORT void *ampGraphCaptureEnd() {
  ensureContext();
  Capture *done = nullptr;
  {
    std::lock_guard<std::mutex> lock(streamMutex);
    if (capture && capture->thread == std::this_thread::get_id()) {
      done = capture;
      capture = nullptr;
    }
  }
  if (!done) {
    fprintf(stderr, "amp-cuda-runtime: ampGraphCaptureEnd without "
                    "ampGraphCaptureBegin on this thread\n");
    lastError = CUDA_ERROR_ILLEGAL_STATE;
    return nullptr;
  }
  CUgraph graph = nullptr;
  CUresult ended = CUDA_CALL(cuStreamEndCapture, done->stream, &graph);
  mgpuStreamDestroy(done->stream);
  // Uploads made during the capture (TMA descriptors) are complete before
  // the first replay.
  CUDA_CALL(cuCtxSynchronize);
  const char *invalid = done->invalid;
  delete done;
  if (invalid || ended != CUDA_SUCCESS) {
    if (invalid)
      fprintf(stderr,
              "amp-cuda-runtime: the call cannot be replayed as a graph: %s\n",
              invalid);
    if (graph && driver().cuGraphDestroy)
      driver().cuGraphDestroy(graph);
    lastError = invalid ? CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED : ended;
    return nullptr;
  }
  CUgraphExec exec = nullptr;
  CUresult made = CUDA_CALL(cuGraphInstantiateWithFlags, &exec, graph,
                            CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH);
  if (driver().cuGraphDestroy)
    driver().cuGraphDestroy(graph); // the instance is independent of it
  return made == CUDA_SUCCESS ? exec : nullptr;
}

/// Replays a captured call and waits for it (like the call itself, whose
/// end synchronizes).
AMP_EXPORT int ampGraphLaunch(void *graph) {
  ensureContext();
  if (!graph) {
    fprintf(stderr, "amp-cuda-runtime: ampGraphLaunch of a null graph\n");
    return lastError = CUDA_ERROR_INVALID_VALUE;
  }
  CUstream stream = mgpuStreamCreate();
  CUresult e =
      CUDA_CALL(cuGraphLaunch, static_cast<CUgraphExec>(graph), stream);
  if (e == CUDA_SUCCESS)
    e = CUDA_CALL(cuStreamSynchronize, stream);
  mgpuStreamDestroy(stream);
  return e;
}

/// One call of a context (libamp_model) from its graph: copies `n` inputs
/// into the graph's input buffers, replays it, copies `m` outputs out of
/// its buffers, all on one stream, and waits once: n + m + 2 driver calls.
/// Copies go in any direction (unified addressing).
AMP_EXPORT int ampGraphRun(void *graph, int n, void *const *inDst,
                           const void *const *inSrc, const size_t *inBytes,
                           int m, void *const *outDst,
                           const void *const *outSrc, const size_t *outBytes) {
  ensureContext();
  if (!graph) {
    fprintf(stderr, "amp-cuda-runtime: ampGraphRun of a null graph\n");
    return lastError = CUDA_ERROR_INVALID_VALUE;
  }
  CUstream stream = mgpuStreamCreate();
  CUresult e = CUDA_SUCCESS;
  auto copy = [&](void *dst, const void *src, size_t bytes) {
    if (e == CUDA_SUCCESS && bytes)
      e = CUDA_CALL(cuMemcpyAsync, reinterpret_cast<CUdeviceptr>(dst),
                    reinterpret_cast<CUdeviceptr>(src), bytes, stream);
  };
  for (int i = 0; i < n; ++i)
    copy(inDst[i], inSrc[i], inBytes[i]);
  if (e == CUDA_SUCCESS)
    e = CUDA_CALL(cuGraphLaunch, static_cast<CUgraphExec>(graph), stream);
  for (int i = 0; i < m; ++i)
    copy(outDst[i], outSrc[i], outBytes[i]);
  CUresult synced = CUDA_CALL(cuStreamSynchronize, stream);
  mgpuStreamDestroy(stream);
  return e != CUDA_SUCCESS ? e : synced;
}

AMP_EXPORT void ampGraphDestroy(void *graph) {
  if (!graph)
    return;
  ensureContext();
  if (driver().cuGraphExecDestroy)
    CUDA_CALL(cuGraphExecDestroy, static_cast<CUgraphExec>(graph));
}
