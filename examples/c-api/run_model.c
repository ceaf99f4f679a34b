/* run_model.c - load a model built by `amp-compile --shared`, run it once.
 *
 *   cc run_model.c -I<amp>/runtime/include -L<amp>/build/lib -lamp_model \
 *      -Wl,-rpath,<amp>/build/lib -o run_model
 *   ./run_model out/ [SIZE]
 *
 * Every dynamic size of the inputs is set to SIZE (default: its minimum);
 * inputs are seeded values in [-1, 1); prints the signature, what was
 * built, and the sum of each output. Without a GPU, the model runs on amp's
 * emulator. docs/runtime.md explains the API.
 */
#include <amp_model.h>

#include <stdio.h>
#include <stdlib.h>

static int check(amp_status status, const char *what) {
  if (status != AMP_OK)
    fprintf(stderr, "run_model: %s: %s (%s)\n", what, amp_last_error(),
            amp_status_name(status));
  return status != AMP_OK;
}

static void print_info(const char *kind, int i, const amp_tensor_info *t) {
  printf("%s %d: %s %s [", kind, i, t->name, amp_dtype_name(t->dtype));
  for (int d = 0; d < t->rank; ++d) {
    if (t->shape[d] < 0 && t->min[d] < 0)
      printf("%s?", d ? ", " : ""); /* an output's size: known after a run */
    else if (t->shape[d] < 0)
      printf("%s%lld..%lld", d ? ", " : "", (long long)t->min[d],
             (long long)t->max[d]);
    else
      printf("%s%lld", d ? ", " : "", (long long)t->shape[d]);
  }
  printf("]\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: run_model MODEL_DIR [SIZE]\n");
    return 2;
  }
  long long size = argc > 2 ? atoll(argv[2]) : 0;
  amp_model *model;
  if (check(amp_model_load(argv[1], AMP_DEVICE_AUTO, &model), "load"))
    return 1;
  printf("built: %s\non: %s\n", amp_model_summary(model),
         amp_model_device(model));

  int n = amp_model_num_inputs(model), m = amp_model_num_outputs(model);
  amp_tensor *inputs = calloc(n ? n : 1, sizeof(amp_tensor));
  amp_tensor *outputs = calloc(m ? m : 1, sizeof(amp_tensor));
  unsigned state = 1;
  for (int i = 0; i < n; ++i) {
    amp_tensor_info info;
    amp_model_input(model, i, &info);
    print_info("input", i, &info);
    inputs[i].dtype = info.dtype;
    inputs[i].rank = info.rank;
    inputs[i].memory = AMP_MEMORY_HOST;
    size_t count = 1;
    for (int d = 0; d < info.rank; ++d) {
      long long dim = info.shape[d];
      if (dim < 0)
        dim = size ? size : info.min[d];
      inputs[i].shape[d] = dim;
      count *= (size_t)dim;
    }
    if (info.dtype != AMP_DTYPE_F32) {
      fprintf(stderr, "run_model: input %d is not f32; this example fills "
                      "f32 inputs only\n", i);
      return 1;
    }
    float *data = malloc(count * sizeof(float) + 1);
    for (size_t k = 0; k < count; ++k) {
      state = state * 1664525u + 1013904223u;
      data[k] = (float)(state >> 8) / (float)(1u << 24) * 2.0f - 1.0f;
    }
    inputs[i].data = data;
  }
  for (int o = 0; o < m; ++o) {
    amp_tensor_info info;
    amp_model_output(model, o, &info);
    print_info("output", o, &info);
  }

  amp_context *context;
  if (check(amp_context_create(model, 0, &context), "context"))
    return 1;
  /* Outputs with data == NULL: amp allocates them in host memory. */
  if (check(amp_context_run(context, inputs, n, outputs, m, NULL), "run"))
    return 1;
  for (int o = 0; o < m; ++o) {
    size_t count = 1;
    for (int d = 0; d < outputs[o].rank; ++d)
      count *= (size_t)outputs[o].shape[d];
    double sum = 0;
    if (outputs[o].dtype == AMP_DTYPE_F32)
      for (size_t k = 0; k < count; ++k)
        sum += ((const float *)outputs[o].data)[k];
    printf("output %d: %zu elements, sum %.6g\n", o, count, sum);
    amp_tensor_free(&outputs[o]);
  }
  for (int i = 0; i < n; ++i)
    free(inputs[i].data);
  free(inputs);
  free(outputs);
  amp_context_destroy(context);
  amp_model_unload(model);
  return 0;
}
