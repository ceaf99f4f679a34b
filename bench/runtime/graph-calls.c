/* graph-calls.c - driver calls per call of a compiled model through the C
 * API, with and without CUDA graphs (bench/runtime/run.sh).
 *
 *   graph-calls MODEL_DIR SIZE CALLS [--no-graphs]
 *
 * Runs the model twice at SIZE (every dynamic size of the inputs; the
 * first call loads the kernels and uploads the weights, the second is
 * captured into a graph unless --no-graphs), then CALLS more inside one
 * cuProfilerStart..Stop range: under `amp-emulate --profile` the emulator
 * prints the driver calls and launches of that range. Links the model's
 * libamp_cuda_runtime.so for ampCudaProfilerStart/Stop.
 */
#include <amp_model.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ampCudaProfilerStart(void);
void ampCudaProfilerStop(void);

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: graph-calls MODEL_DIR SIZE CALLS [--no-graphs]\n");
    return 2;
  }
  long long size = atoll(argv[2]);
  int calls = atoi(argv[3]);
  unsigned flags = argc > 4 && !strcmp(argv[4], "--no-graphs")
                       ? AMP_CONTEXT_NO_GRAPHS : 0;
  amp_model *model;
  amp_context *ctx;
  if (amp_model_load(argv[1], AMP_DEVICE_AUTO, &model) ||
      amp_context_create(model, flags, &ctx)) {
    fprintf(stderr, "graph-calls: %s\n", amp_last_error());
    return 1;
  }
  int n = amp_model_num_inputs(model), m = amp_model_num_outputs(model);
  amp_tensor *in = calloc(n ? n : 1, sizeof(amp_tensor));
  amp_tensor *out = calloc(m ? m : 1, sizeof(amp_tensor));
  for (int i = 0; i < n; ++i) {
    amp_tensor_info info;
    amp_model_input(model, i, &info);
    in[i].dtype = info.dtype;
    in[i].rank = info.rank;
    size_t count = 1;
    for (int d = 0; d < info.rank; ++d) {
      in[i].shape[d] = info.shape[d] < 0 ? size : info.shape[d];
      count *= (size_t)in[i].shape[d];
    }
    in[i].data = calloc(count + 1, amp_dtype_size(info.dtype));
  }
  for (int call = 0; call < 2 + calls; ++call) {
    if (call == 2)
      ampCudaProfilerStart();
    if (amp_context_run(ctx, in, n, out, m, NULL)) {
      fprintf(stderr, "graph-calls: %s\n", amp_last_error());
      return 1;
    }
    for (int o = 0; o < m; ++o)
      amp_tensor_free(&out[o]);
  }
  ampCudaProfilerStop();
  amp_context_stats st;
  amp_context_stats_get(ctx, &st);
  printf("graph-calls: %d calls profiled; %lld graph replays, %lld "
         "captures\n", calls, (long long)st.graph_replays,
         (long long)st.graph_captures);
  amp_context_destroy(ctx);
  amp_model_unload(model);
  return 0;
}
