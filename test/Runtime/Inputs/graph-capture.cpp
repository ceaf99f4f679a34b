//===- graph-capture.cpp - amp's CUDA graph entry points, used directly ---===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Drives libamp_cuda_runtime.so's ampGraph* entry points the way compiled
// code and its harness do (test/Runtime/graph-capture.test): a captured call
// replays its device work; misuses and calls that cannot be replayed are
// refused with one line on stderr.
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>
#include <cstdio>

extern "C" {
int ampGraphCaptureBegin();
void *ampGraphCaptureEnd();
int ampGraphLaunch(void *graph);
void ampGraphDestroy(void *graph);
int ampCudaTakeLastError();
void ampCudaCopyToHost(void *dst, const void *src, size_t bytes);
void ampCudaFree(void *ptr);
void *mgpuStreamCreate();
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);
void mgpuMemset32(void *dst, unsigned value, size_t count, void *stream);
}

/// What a compiled function does: a stream, a temporary, an output, work on
/// both, the temporary freed, the stream synchronized and released.
static void *call(unsigned value) {
  void *stream = mgpuStreamCreate();
  void *temporary = mgpuMemAlloc(64, stream, false);
  void *output = mgpuMemAlloc(64, stream, false);
  mgpuMemset32(temporary, value, 16, stream);
  mgpuMemcpy(output, temporary, 64, stream);
  mgpuMemFree(temporary, stream);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
  return output;
}

int main() {
  // Capture, replay: the work runs at each launch, not at the capture.
  if (ampGraphCaptureBegin())
    return 1;
  unsigned *output = static_cast<unsigned *>(call(7));
  void *graph = ampGraphCaptureEnd();
  unsigned host[16] = {0};
  ampCudaCopyToHost(host, output, sizeof(host));
  printf("after capture: graph %s, output[0] %s\n", graph ? "made" : "none",
         host[0] == 7 ? "written (wrong)" : "not written");
  int launched = ampGraphLaunch(graph) | ampGraphLaunch(graph);
  ampCudaCopyToHost(host, output, sizeof(host));
  printf("after 2 launches: status %d, output[0] %u, output[15] %u\n",
         launched, host[0], host[15]);
  ampCudaFree(output);
  ampGraphDestroy(graph);
  printf("errors: %d\n", ampCudaTakeLastError());

  // Misuses.
  printf("end without begin: %s\n", ampGraphCaptureEnd() ? "graph" : "null");
  printf("launch of null: %d\n", ampGraphLaunch(nullptr));
  ampGraphCaptureBegin();
  printf("nested begin: %d\n", ampGraphCaptureBegin());
  void *unused = call(1);
  ampGraphDestroy(ampGraphCaptureEnd());
  ampCudaFree(unused);
  ampCudaTakeLastError();

  // A call that reads device memory on the host cannot be replayed.
  ampGraphCaptureBegin();
  void *stream = mgpuStreamCreate();
  void *device = mgpuMemAlloc(64, stream, false);
  mgpuMemcpy(host, device, 64, stream);
  mgpuMemFree(device, stream);
  mgpuStreamDestroy(stream);
  printf("host read: %s\n", ampGraphCaptureEnd() ? "graph" : "null");
  printf("error: %d\n", ampCudaTakeLastError());

  // Nor one that copies host memory in, or allocates memory the host reads.
  ampGraphCaptureBegin();
  stream = mgpuStreamCreate();
  device = mgpuMemAlloc(64, stream, false);
  mgpuMemcpy(device, host, 64, stream);
  mgpuMemFree(device, stream);
  mgpuStreamDestroy(stream);
  printf("host write: %s\n", ampGraphCaptureEnd() ? "graph" : "null");
  ampGraphCaptureBegin();
  stream = mgpuStreamCreate();
  void *shared = mgpuMemAlloc(64, stream, true);
  mgpuStreamDestroy(stream);
  printf("host-shared: %s\n", ampGraphCaptureEnd() ? "graph" : "null");
  ampCudaFree(shared);
  printf("error: %d\n", ampCudaTakeLastError());
  return 0;
}
