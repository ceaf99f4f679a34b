/*===- amp_model.h - C API of models compiled by amp-compile ---------------===*
 *
 * Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===*
 *
 * One header for every model that `amp-compile --shared` builds. Link with
 * -lamp_model (libamp_model.so); the model itself is loaded at run time.
 *
 *   amp_model *model;
 *   if (amp_model_load("out/", AMP_DEVICE_AUTO, &model) != AMP_OK)
 *     fprintf(stderr, "%s\n", amp_last_error());
 *   amp_context *ctx;
 *   amp_context_create(model, 0, &ctx);
 *   amp_tensor in = {data, AMP_DTYPE_F32, 2, {4, 784}, AMP_MEMORY_HOST};
 *   amp_tensor out = {0};              // data NULL: amp allocates it
 *   amp_context_run(ctx, &in, 1, &out, 1, NULL);
 *   ...
 *   amp_tensor_free(&out);
 *   amp_context_destroy(ctx);
 *   amp_model_unload(model);
 *
 * Errors: every function returns an amp_status; on failure,
 * amp_last_error() is a one-line message for the calling thread. Nothing in
 * this API aborts the process.
 *
 * Threads: a model may be shared by threads; a context must be used by one
 * thread at a time (create one per thread). Runs of different contexts are
 * serialized by a lock per model (the device queue is shared; amp's
 * runtime keeps one capture at a time).
 *
 * Lifetimes: destroy a model's contexts before unloading it; an output amp
 * allocated stays valid until amp_tensor_free, whatever happens to them.
 *
 * Runs are synchronous: when amp_context_run returns, the outputs are
 * written. A stream, if given, is synchronized before the run starts, so
 * that inputs written on it are complete.
 *
 * docs/runtime.md describes the API at length.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AMP_MODEL_H
#define AMP_MODEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AMP_MAX_RANK 8

typedef enum amp_status {
  AMP_OK = 0,
  AMP_ERROR_INVALID_ARGUMENT = 1, /* a null pointer, a bad count or index */
  AMP_ERROR_NOT_A_MODEL = 2,      /* no such file, or not built by amp */
  AMP_ERROR_NO_DEVICE = 3,        /* no CUDA driver or device (and no emulator) */
  AMP_ERROR_RANK = 4,             /* a tensor of the wrong rank */
  AMP_ERROR_SHAPE = 5,            /* a size outside its allowed range */
  AMP_ERROR_DTYPE = 6,            /* a tensor of the wrong element type */
  AMP_ERROR_OUT_OF_MEMORY = 7,
  AMP_ERROR_MEMORY_KIND = 8,      /* device memory given to a CPU model */
  AMP_ERROR_DEVICE = 9            /* a CUDA call failed while running */
} amp_status;

typedef enum amp_dtype {
  AMP_DTYPE_F32 = 0,
  AMP_DTYPE_F64 = 1,
  AMP_DTYPE_F16 = 2,
  AMP_DTYPE_BF16 = 3,
  AMP_DTYPE_I64 = 4,
  AMP_DTYPE_I32 = 5,
  AMP_DTYPE_I16 = 6,
  AMP_DTYPE_I8 = 7,
  AMP_DTYPE_BOOL = 8 /* one byte per element */
} amp_dtype;

typedef enum amp_device {
  AMP_DEVICE_AUTO = 0,    /* the GPU if there is one, else the emulator */
  AMP_DEVICE_CUDA = 1,    /* the NVIDIA driver (libcuda.so.1) only */
  AMP_DEVICE_EMULATOR = 2 /* amp's PTX emulator (slow; for tests) */
} amp_device;

typedef enum amp_memory {
  AMP_MEMORY_HOST = 0,
  AMP_MEMORY_DEVICE = 1 /* GPU memory (CUDA device pointers) */
} amp_memory;

/* A dense row-major tensor. As an output with data == NULL, amp allocates
 * it in `memory` and fills in shape; free it with amp_tensor_free. */
typedef struct amp_tensor {
  void *data;
  amp_dtype dtype;
  int32_t rank;
  int64_t shape[AMP_MAX_RANK];
  amp_memory memory;
} amp_tensor;

/* An input or output of the model: shape[i] is -1 for a dynamic size, which
 * takes any value in [min[i], max[i]] (min and max equal shape elsewhere). */
typedef struct amp_tensor_info {
  const char *name;
  amp_dtype dtype;
  int32_t rank;
  int64_t shape[AMP_MAX_RANK];
  int64_t min[AMP_MAX_RANK];
  int64_t max[AMP_MAX_RANK];
} amp_tensor_info;

typedef struct amp_model amp_model;
typedef struct amp_context amp_context;

/* Context options (flags of amp_context_create). */
#define AMP_CONTEXT_NO_GRAPHS 1u /* never capture CUDA graphs */
#define AMP_CONTEXT_WARMUP 2u    /* one run at the smallest shape, on zeros,
                                    before returning: weights uploaded and
                                    kernels loaded */

/* The calling thread's message for the last failure ("" if none). */
const char *amp_last_error(void);
const char *amp_status_name(amp_status status);
const char *amp_dtype_name(amp_dtype dtype);
size_t amp_dtype_size(amp_dtype dtype);

/* Loads a folder built by amp-compile --shared (or its libmodel.so). */
amp_status amp_model_load(const char *path, amp_device device,
                          amp_model **model);
void amp_model_unload(amp_model *model);

int amp_model_num_inputs(const amp_model *model);
int amp_model_num_outputs(const amp_model *model);
amp_status amp_model_input(const amp_model *model, int index,
                           amp_tensor_info *info);
amp_status amp_model_output(const amp_model *model, int index,
                            amp_tensor_info *info);
/* What was built, as amp-compile's summary says it: target, precision, the
 * contractions per precision, Tensor Core or SIMT, and any fallback. */
const char *amp_model_summary(const amp_model *model);
/* "cuda", "emulator" or "cpu" (a CPU build runs on the host). */
const char *amp_model_device(const amp_model *model);

amp_status amp_context_create(amp_model *model, unsigned flags,
                              amp_context **context);
void amp_context_destroy(amp_context *context);
/* Runs the model. Inputs in host or device memory (device memory for GPU
 * builds only); outputs allocated by the caller (data set, shape as the
 * model produces it) or by amp (data NULL). `stream` is a CUstream or
 * NULL. */
amp_status amp_context_run(amp_context *context, const amp_tensor *inputs,
                           int num_inputs, amp_tensor *outputs,
                           int num_outputs, void *stream);
/* Calls of this context so far: runs, graph replays, captures. */
typedef struct amp_context_stats {
  int64_t runs;
  int64_t graph_replays;
  int64_t graph_captures;
  int64_t cached_graphs;
} amp_context_stats;
amp_status amp_context_stats_get(const amp_context *context,
                                 amp_context_stats *stats);

/* Frees an output that amp allocated, and sets its data to NULL. */
void amp_tensor_free(amp_tensor *tensor);
/* Copies `bytes` between host and device memory of the model's device. */
amp_status amp_copy(const amp_model *model, void *dst, amp_memory dst_kind,
                    const void *src, amp_memory src_kind, size_t bytes);

#ifdef __cplusplus
}
#endif

#endif /* AMP_MODEL_H */
