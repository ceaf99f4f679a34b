/* c-api-check.c - drives amp_model.h for the tests in test/Runtime.
 *
 *   c-api-check compare GPU_MODEL CPU_MODEL SIZE...
 *       runs both builds at each SIZE (every dynamic dimension of every
 *       input set to it) on the same seeded f32 inputs, through host and
 *       amp-allocated outputs, then again into caller-allocated outputs;
 *       prints the relative L2 distance of each output and the context's
 *       graph statistics.
 *   c-api-check errors MODEL
 *       provokes each error the API reports and prints its status and
 *       message.
 *   c-api-check profile MODEL SIZE CALLS [--no-graphs]
 *       two calls at SIZE (the first loads the kernels and uploads the
 *       weights, the second is captured into a CUDA graph unless
 *       --no-graphs), then CALLS more inside one cuProfilerStart..Stop
 *       range: under `amp-emulate --profile`, the driver calls and launches
 *       of that range (bench/runtime/run.sh).
 */
#include <amp_model.h>

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(amp_status s, const char *what) {
  fprintf(stderr, "c-api-check: %s: %s (%s)\n", what, amp_last_error(),
          amp_status_name(s));
  exit(1);
}

/* Inputs of `model` at `size`, seeded values in [-1, 1). */
static amp_tensor *make_inputs(amp_model *model, long long size) {
  int n = amp_model_num_inputs(model);
  amp_tensor *in = calloc(n ? n : 1, sizeof(amp_tensor));
  unsigned state = 7;
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
    float *data = malloc(count * 4 + 4);
    for (size_t k = 0; k < count; ++k) {
      state = state * 1664525u + 1013904223u;
      data[k] = (float)(state >> 8) / (float)(1u << 24) * 2.0f - 1.0f;
    }
    in[i].data = data;
  }
  return in;
}

static size_t elements(const amp_tensor *t) {
  size_t n = 1;
  for (int d = 0; d < t->rank; ++d)
    n *= (size_t)t->shape[d];
  return n;
}

static int compare(const char *gpuPath, const char *cpuPath, int argc,
                   char **argv) {
  amp_model *gpu, *cpu;
  amp_status s;
  if ((s = amp_model_load(gpuPath, AMP_DEVICE_AUTO, &gpu)))
    die(s, "load");
  if ((s = amp_model_load(cpuPath, AMP_DEVICE_AUTO, &cpu)))
    die(s, "load");
  printf("gpu build: %s (on %s)\n", amp_model_summary(gpu),
         amp_model_device(gpu));
  amp_context *gctx, *cctx;
  if ((s = amp_context_create(gpu, 0, &gctx)) ||
      (s = amp_context_create(cpu, 0, &cctx)))
    die(s, "context");
  int n = amp_model_num_inputs(gpu), m = amp_model_num_outputs(gpu);
  int worst = 0;
  for (int a = 0; a < argc; ++a) {
    long long size = atoll(argv[a]);
    amp_tensor *in = make_inputs(gpu, size);
    amp_tensor *want = calloc(m, sizeof(amp_tensor));
    if ((s = amp_context_run(cctx, in, n, want, m, NULL)))
      die(s, "cpu run");
    /* Three calls on the GPU build: amp-allocated outputs, then into the
     * caller's buffers twice (the second and third calls at a shape come
     * from a CUDA graph). */
    for (int call = 0; call < 3; ++call) {
      amp_tensor *got = calloc(m, sizeof(amp_tensor));
      for (int o = 0; call && o < m; ++o) {
        got[o] = want[o];
        got[o].data = malloc(elements(&want[o]) * 4 + 4);
      }
      if ((s = amp_context_run(gctx, in, n, got, m, NULL)))
        die(s, "gpu run");
      for (int o = 0; o < m; ++o) {
        double num = 0, den = 0;
        const float *x = got[o].data, *y = want[o].data;
        for (size_t k = 0; k < elements(&want[o]); ++k) {
          num += ((double)x[k] - y[k]) * ((double)x[k] - y[k]);
          den += (double)y[k] * y[k];
        }
        double rel = sqrt(num / (den > 0 ? den : 1));
        if (call == 0 || call == 2)
          printf("size %lld call %d output %d: shape [%lld ...], rel_l2 "
                 "%s (%.1e)\n", size, call, o, (long long)got[o].shape[0],
                 rel < 1e-2 ? "ok" : "HIGH", rel);
        worst |= !(rel < 1e-2);
        if (call)
          free(got[o].data);
        else
          amp_tensor_free(&got[o]);
      }
      free(got);
    }
    for (int o = 0; o < m; ++o)
      amp_tensor_free(&want[o]);
    for (int i = 0; i < n; ++i)
      free(in[i].data);
    free(in);
    free(want);
  }
  amp_context_stats st;
  amp_context_stats_get(gctx, &st);
  printf("gpu context: %lld runs, %lld graph replays, %lld captures, %lld "
         "graphs cached\n",
         (long long)st.runs, (long long)st.graph_replays,
         (long long)st.graph_captures, (long long)st.cached_graphs);
  amp_context_destroy(gctx);
  amp_context_destroy(cctx);
  amp_model_unload(gpu);
  amp_model_unload(cpu);
  return worst;
}

static void report(const char *what, amp_status s) {
  printf("%s: %s: %s\n", what, amp_status_name(s),
         s ? amp_last_error() : "");
}

static int errors(const char *path) {
  amp_model *model;
  report("missing file", amp_model_load("/nonexistent/model", 0, &model));
  report("not a model", amp_model_load("/bin/true", 0, &model));
  char library[4096];
  snprintf(library, sizeof(library), "%s/../cpu/check-lib.so", path);
  report("no table", amp_model_load(library, 0, &model));
  amp_status s = amp_model_load(path, AMP_DEVICE_AUTO, &model);
  if (s)
    die(s, "load");
  amp_tensor_info info;
  report("input index", amp_model_input(model, 5, &info));
  amp_context *ctx;
  report("flags", amp_context_create(model, 64, &ctx));
  if ((s = amp_context_create(model, 0, &ctx)))
    die(s, "context");
  amp_tensor *in = make_inputs(model, 2);
  amp_tensor out = {0};
  int n = amp_model_num_inputs(model);
  report("counts", amp_context_run(ctx, in, n + 1, &out, 1, NULL));
  amp_tensor bad = in[0];
  bad.rank = in[0].rank + 1;
  report("rank", amp_context_run(ctx, &bad, 1, &out, 1, NULL));
  bad = in[0];
  bad.shape[0] = 100000;
  report("shape", amp_context_run(ctx, &bad, 1, &out, 1, NULL));
  bad = in[0];
  bad.shape[bad.rank - 1] += 1;
  report("static shape", amp_context_run(ctx, &bad, 1, &out, 1, NULL));
  bad = in[0];
  bad.dtype = AMP_DTYPE_F16;
  report("dtype", amp_context_run(ctx, &bad, 1, &out, 1, NULL));
  bad = in[0];
  bad.data = NULL;
  report("null data", amp_context_run(ctx, &bad, 1, &out, 1, NULL));
  amp_tensor small = {0};
  small.dtype = AMP_DTYPE_F32;
  small.rank = 2;
  small.shape[0] = 1;
  small.shape[1] = 1;
  float one = 0;
  small.data = &one;
  report("output shape", amp_context_run(ctx, in, 1, &small, 1, NULL));
  if (!strcmp(amp_model_device(model), "cpu")) {
    bad = in[0];
    bad.memory = AMP_MEMORY_DEVICE;
    report("memory kind", amp_context_run(ctx, &bad, 1, &out, 1, NULL));
  } else {
    amp_model *other;
    report("other device", amp_model_load(path, AMP_DEVICE_CUDA, &other));
  }
  report("good run", amp_context_run(ctx, in, 1, &out, 1, NULL));
  amp_tensor_free(&out);
  amp_context_destroy(ctx);
  amp_model_unload(model);
  return 0;
}

/* ampCudaProfilerStart/Stop of the runtime the model loaded. */
static void profiler(const char *path, const char *which) {
  char runtime[4096];
  snprintf(runtime, sizeof(runtime), "%s/libamp_cuda_runtime.so", path);
  void *handle = dlopen(runtime, RTLD_NOW | RTLD_NOLOAD);
  void (*fn)(void) = handle ? (void (*)(void))dlsym(handle, which) : NULL;
  if (!fn) {
    fprintf(stderr, "c-api-check: %s: no %s\n", runtime, which);
    exit(1);
  }
  fn();
}

static int profile(const char *path, long long size, int calls,
                   unsigned flags) {
  amp_model *model;
  amp_context *ctx;
  amp_status s;
  if ((s = amp_model_load(path, AMP_DEVICE_AUTO, &model)) ||
      (s = amp_context_create(model, flags, &ctx)))
    die(s, "load");
  int n = amp_model_num_inputs(model), m = amp_model_num_outputs(model);
  amp_tensor *in = make_inputs(model, size);
  amp_tensor *out = calloc(m ? m : 1, sizeof(amp_tensor));
  for (int call = 0; call < 2 + calls; ++call) {
    if (call == 2)
      profiler(path, "ampCudaProfilerStart");
    if ((s = amp_context_run(ctx, in, n, out, m, NULL)))
      die(s, "run");
    for (int o = 0; o < m; ++o)
      amp_tensor_free(&out[o]);
  }
  profiler(path, "ampCudaProfilerStop");
  amp_context_stats st;
  amp_context_stats_get(ctx, &st);
  printf("profile: %d calls profiled; %lld graph replays, %lld captures\n",
         calls, (long long)st.graph_replays, (long long)st.graph_captures);
  amp_context_destroy(ctx);
  amp_model_unload(model);
  return 0;
}

int main(int argc, char **argv) {
  if ((argc == 5 || argc == 6) && !strcmp(argv[1], "profile"))
    return profile(argv[2], atoll(argv[3]), atoi(argv[4]),
                   argc == 6 && !strcmp(argv[5], "--no-graphs")
                       ? AMP_CONTEXT_NO_GRAPHS
                       : 0);
  if (argc >= 5 && !strcmp(argv[1], "compare"))
    return compare(argv[2], argv[3], argc - 4, argv + 4);
  if (argc == 3 && !strcmp(argv[1], "errors"))
    return errors(argv[2]);
  fprintf(stderr, "usage: c-api-check compare GPU CPU SIZE... | errors "
                  "MODEL | profile MODEL SIZE CALLS [--no-graphs]\n");
  return 2;
}
