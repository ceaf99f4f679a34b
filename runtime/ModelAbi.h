/*===- ModelAbi.h - What a model library exports to libamp_model ----------===*
 *
 * Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===*
 *
 * `amp-compile --shared` compiles a small C file into libmodel.so that
 * defines `amp_model_abi_v1`: the entry point's signature (names, element
 * types, shapes with -1 for dynamic sizes and their ranges), what was built,
 * and a trampoline that calls `_mlir_ciface_<entry>` with an array of
 * memref descriptors. libamp_model (ModelApi.cpp) reads it; a library
 * without it is not an amp model. Plain C: the generated file includes it.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AMP_RUNTIME_MODELABI_H
#define AMP_RUNTIME_MODELABI_H

#include <stdint.h>

#define AMP_ABI_MAGIC 0x31706d61u /* "amp1" */
#define AMP_ABI_VERSION 1u
#define AMP_ABI_MAX_RANK 8

typedef struct amp_abi_tensor {
  const char *name;
  const char *dtype; /* MLIR's spelling: f32, f16, bf16, i64, i1, ... */
  int32_t rank;
  int64_t shape[AMP_ABI_MAX_RANK]; /* -1: dynamic */
  int64_t min[AMP_ABI_MAX_RANK];
  int64_t max[AMP_ABI_MAX_RANK];
} amp_abi_tensor;

typedef struct amp_abi_model {
  uint32_t magic;
  uint32_t version;
  const char *entry;
  const char *target;    /* "gpu" or "cpu" */
  const char *precision; /* what was asked: f16, bf16, f8E4M3FN, fp32 */
  const char *summary;   /* what was built, in one line */
  int32_t num_inputs;
  int32_t num_outputs;
  const amp_abi_tensor *inputs;
  const amp_abi_tensor *outputs;
  /* Calls the entry point: `results` receives the output descriptors one
   * after the other ({allocated, aligned, offset, sizes[r], strides[r]},
   * 8-byte fields), `args` points to one descriptor per input. */
  void (*invoke)(void *results, void *const *args);
} amp_abi_model;

#endif /* AMP_RUNTIME_MODELABI_H */
