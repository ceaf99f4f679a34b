//===- ModelApi.cpp - Loading compiled models: amp_model.h, first half ----===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Errors, element types, choosing the device, loading a model library and
// reading its ABI table, and the memory helpers of amp_model.h. Running is
// in ModelContext.cpp.
//
// The device is chosen before the model's library is loaded: amp's CUDA
// runtime loads the driver named by AMP_CUDA_DRIVER (or libcuda.so.1) on
// first use, so the emulator is selected by pointing that variable at
// amp's stand-in driver (lib/emulator/libcuda.so.1 next to this library,
// or lib/amp-emulator/ after installation). The choice holds for the
// process: a second model asking for another device is refused.
//
//===----------------------------------------------------------------------===//

#include "ModelLibrary.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <map>

using namespace amp::runtime;

#define AMP_API extern "C" __attribute__((visibility("default")))

//===----------------------------------------------------------------------===//
// Errors and element types
//===----------------------------------------------------------------------===//

static thread_local std::string lastError;

amp_status amp::runtime::fail(amp_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

namespace {
struct DtypeRow {
  const char *mlir;
  amp_dtype dtype;
  size_t bytes;
};
const DtypeRow kDtypes[] = {
    {"f32", AMP_DTYPE_F32, 4},  {"f64", AMP_DTYPE_F64, 8},
    {"f16", AMP_DTYPE_F16, 2},  {"bf16", AMP_DTYPE_BF16, 2},
    {"i64", AMP_DTYPE_I64, 8},  {"i32", AMP_DTYPE_I32, 4},
    {"i16", AMP_DTYPE_I16, 2},  {"i8", AMP_DTYPE_I8, 1},
    {"i1", AMP_DTYPE_BOOL, 1},
};
} // namespace

size_t amp::runtime::elementBytes(const char *dtype) {
  for (const DtypeRow &row : kDtypes)
    if (!strcmp(row.mlir, dtype))
      return row.bytes;
  return 0;
}

bool amp::runtime::dtypeOf(const char *mlirType, amp_dtype &dtype) {
  for (const DtypeRow &row : kDtypes)
    if (!strcmp(row.mlir, mlirType)) {
      dtype = row.dtype;
      return true;
    }
  return false;
}

AMP_API const char *amp_last_error(void) { return lastError.c_str(); }

AMP_API const char *amp_status_name(amp_status status) {
  static const char *const names[] = {
      "ok",           "invalid argument", "not an amp model", "no device",
      "wrong rank",   "shape out of range", "wrong dtype",    "out of memory",
      "memory kind",  "device error"};
  unsigned i = static_cast<unsigned>(status);
  return i < sizeof(names) / sizeof(names[0]) ? names[i] : "unknown status";
}

AMP_API const char *amp_dtype_name(amp_dtype dtype) {
  for (const DtypeRow &row : kDtypes)
    if (row.dtype == dtype)
      return row.mlir;
  return "unknown";
}

AMP_API size_t amp_dtype_size(amp_dtype dtype) {
  for (const DtypeRow &row : kDtypes)
    if (row.dtype == dtype)
      return row.bytes;
  return 0;
}

//===----------------------------------------------------------------------===//
// Choosing the device
//===----------------------------------------------------------------------===//

namespace {

std::mutex deviceMutex;
/// The device the process's GPU models run on, once chosen ("" before).
std::string chosenDevice;

bool isFile(const std::string &path) {
  struct stat s;
  return stat(path.c_str(), &s) == 0 && S_ISREG(s.st_mode);
}

bool isDirectory(const std::string &path) {
  struct stat s;
  return stat(path.c_str(), &s) == 0 && S_ISDIR(s.st_mode);
}

/// amp's stand-in driver, found next to this library, or "".
std::string emulatorDriver() {
  if (const char *env = getenv("AMP_EMULATOR_DRIVER"))
    return isFile(env) ? env : "";
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&emulatorDriver), &info) ||
      !info.dli_fname)
    return "";
  std::string dir = info.dli_fname;
  dir = dir.substr(0, dir.rfind('/') + 1);
  for (const char *sub : {"emulator/libcuda.so.1", "amp-emulator/libcuda.so.1"})
    if (isFile(dir + sub))
      return dir + sub;
  return "";
}

/// Whether the NVIDIA driver loads and sees a device; `why` says why not.
bool cudaAvailable(std::string &why) {
  void *handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    why = "no NVIDIA driver (libcuda.so.1 does not load)";
    return false;
  }
  using InitFn = int (*)(unsigned);
  using CountFn = int (*)(int *);
  auto init = reinterpret_cast<InitFn>(dlsym(handle, "cuInit"));
  auto count = reinterpret_cast<CountFn>(dlsym(handle, "cuDeviceGetCount"));
  int devices = 0;
  if (!init || !count || init(0) != 0 || count(&devices) != 0 ||
      devices == 0) {
    why = "the NVIDIA driver sees no device";
    return false;
  }
  return true; // left loaded: the runtime loads the same library
}

/// Chooses the device for GPU builds (once per process); on success,
/// `device` is "cuda" or "emulator".
amp_status chooseDevice(amp_device wanted, std::string &device) {
  std::lock_guard<std::mutex> lock(deviceMutex);
  const char *forced = getenv("AMP_CUDA_DRIVER");
  if (chosenDevice.empty() && forced && *forced)
    chosenDevice = strstr(forced, "emulator") ? "emulator" : "cuda";
  if (chosenDevice.empty()) {
    std::string why;
    if (wanted != AMP_DEVICE_EMULATOR && cudaAvailable(why)) {
      chosenDevice = "cuda";
    } else if (wanted == AMP_DEVICE_CUDA) {
      return fail(AMP_ERROR_NO_DEVICE, "no CUDA device: " + why);
    } else {
      std::string emulator = emulatorDriver();
      if (emulator.empty())
        return fail(AMP_ERROR_NO_DEVICE,
                    (wanted == AMP_DEVICE_EMULATOR ? std::string("")
                                                   : why + ", and ") +
                        "amp's emulator (emulator/libcuda.so.1 next to "
                        "libamp_model.so) is not installed");
      setenv("AMP_CUDA_DRIVER", emulator.c_str(), 1);
      chosenDevice = "emulator";
    }
  }
  bool mismatch = (wanted == AMP_DEVICE_CUDA && chosenDevice != "cuda") ||
                  (wanted == AMP_DEVICE_EMULATOR && chosenDevice != "emulator");
  if (mismatch)
    return fail(AMP_ERROR_NO_DEVICE,
                "this process already runs GPU models on the " + chosenDevice +
                    "; one device kind per process");
  device = chosenDevice;
  return AMP_OK;
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

template <typename Fn> bool resolve(void *handle, const char *name, Fn &fn) {
  fn = reinterpret_cast<Fn>(dlsym(handle, name));
  return fn != nullptr;
}

void *hostAlloc(size_t bytes) { return malloc(bytes ? bytes : 1); }
void hostFree(void *p) { free(p); }
void hostCopy(void *d, const void *s, size_t n) { memcpy(d, s, n); }
int noError() { return 0; }
int notConstant(const void *) { return 0; }
void noSync() {}

/// The device operations of the model's build; false when a GPU build's
/// library lacks amp's runtime.
bool resolveOps(amp_model &m) {
  DeviceOps &ops = m.ops;
  if (!m.gpu) {
    ops = DeviceOps();
    ops.alloc = hostAlloc;
    ops.free = hostFree;
    ops.toDevice = hostCopy;
    ops.toHost = hostCopy;
    ops.takeError = noError;
    ops.isConstant = notConstant;
    ops.synchronize = noSync;
    return true;
  }
  void *h = m.handle;
  return resolve(h, "ampCudaAlloc", ops.alloc) &&
         resolve(h, "ampCudaFree", ops.free) &&
         resolve(h, "ampCudaCopyToDevice", ops.toDevice) &&
         resolve(h, "ampCudaCopyToHost", ops.toHost) &&
         resolve(h, "ampCudaTakeLastError", ops.takeError) &&
         resolve(h, "ampDeviceConstantContains", ops.isConstant) &&
         resolve(h, "ampCudaSynchronize", ops.synchronize) &&
         resolve(h, "ampGraphCaptureBegin", ops.captureBegin) &&
         resolve(h, "ampGraphCaptureEnd", ops.captureEnd) &&
         resolve(h, "ampGraphLaunch", ops.graphLaunch) &&
         resolve(h, "ampGraphDestroy", ops.graphDestroy) &&
         resolve(h, "ampCudaStreamSynchronize", ops.streamSynchronize) &&
         resolve(h, "ampGraphRun", ops.graphRun);
}

/// Checks the ABI table's contents (a damaged or foreign table must not
/// crash the caller later).
amp_status checkAbi(const amp_abi_model *abi, const std::string &file) {
  if (abi->magic != AMP_ABI_MAGIC || abi->version != AMP_ABI_VERSION)
    return fail(AMP_ERROR_NOT_A_MODEL,
                file + " was built by another version of amp-compile "
                       "(rebuild it)");
  if (!abi->invoke || abi->num_inputs < 0 || abi->num_outputs < 0 ||
      !abi->target || (abi->num_inputs && !abi->inputs) ||
      (abi->num_outputs && !abi->outputs))
    return fail(AMP_ERROR_NOT_A_MODEL, file + " has a damaged model table");
  for (int o = 0; o < abi->num_inputs + abi->num_outputs; ++o) {
    const amp_abi_tensor &t = o < abi->num_inputs
                                  ? abi->inputs[o]
                                  : abi->outputs[o - abi->num_inputs];
    amp_dtype dtype;
    if (t.rank < 0 || t.rank > AMP_ABI_MAX_RANK || !t.dtype ||
        !dtypeOf(t.dtype, dtype))
      return fail(AMP_ERROR_NOT_A_MODEL,
                  file + " has a tensor this API cannot pass (rank " +
                      std::to_string(t.rank) + ", " +
                      (t.dtype ? t.dtype : "no type") + ")");
  }
  return AMP_OK;
}

} // namespace

bool amp_model::ownsMemory(const void *ptr) const {
  Dl_info info;
  if (!ptr || !dladdr(ptr, &info) || !info.dli_fname)
    return false;
  Dl_info self;
  return dladdr(reinterpret_cast<const void *>(abi), &self) &&
         self.dli_fbase == info.dli_fbase;
}

AMP_API amp_status amp_model_load(const char *path, amp_device device,
                                  amp_model **model) {
  if (!path || !model)
    return fail(AMP_ERROR_INVALID_ARGUMENT,
                "amp_model_load: null path or model");
  *model = nullptr;
  std::string file = path;
  if (isDirectory(file))
    file += "/libmodel.so";
  if (!isFile(file))
    return fail(AMP_ERROR_NOT_A_MODEL,
                std::string(path) + ": no such model (a folder built by "
                                    "amp-compile --shared, or its libmodel.so)");
  // A GPU build ships with amp's CUDA runtime beside it. Its device is
  // chosen before the library is loaded: loading runs the model's
  // constructors, which load its kernels and so the driver.
  std::string folder = file.substr(0, file.rfind('/') + 1);
  bool gpu = isFile(folder + "libamp_cuda_runtime.so");
  std::string deviceKind = "cpu";
  if (gpu)
    if (amp_status s = chooseDevice(device, deviceKind))
      return s;
  void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *error = dlerror();
    return fail(AMP_ERROR_NOT_A_MODEL, "cannot load " + file + ": " +
                                           (error ? error : "dlopen failed"));
  }
  auto *abi =
      static_cast<const amp_abi_model *>(dlsym(handle, "amp_model_abi_v1"));
  if (!abi) {
    dlclose(handle);
    return fail(AMP_ERROR_NOT_A_MODEL,
                file + " is not an amp model (no amp_model_abi_v1; build it "
                       "with amp-compile --shared)");
  }
  if (amp_status s = checkAbi(abi, file)) {
    dlclose(handle);
    return s;
  }
  auto m = std::make_unique<amp_model>();
  m->handle = handle;
  m->abi = abi;
  m->path = file;
  m->gpu = !strcmp(abi->target, "gpu");
  m->device = deviceKind;
  if (m->gpu != gpu) {
    dlclose(handle);
    return fail(AMP_ERROR_NOT_A_MODEL,
                file + (m->gpu ? " is a GPU build without "
                                 "libamp_cuda_runtime.so beside it"
                               : " is a CPU build, but "
                                 "libamp_cuda_runtime.so is beside it"));
  }
  if (!resolveOps(*m)) {
    dlclose(handle);
    return fail(AMP_ERROR_NOT_A_MODEL,
                file + " does not link amp's CUDA runtime "
                       "(libamp_cuda_runtime.so is missing or too old)");
  }
  *model = m.release();
  return AMP_OK;
}

AMP_API void amp_model_unload(amp_model *model) {
  if (!model)
    return;
  // The library stays loaded: the runtime's device copies of the weights
  // and its driver belong to the process.
  delete model;
}

AMP_API int amp_model_num_inputs(const amp_model *model) {
  return model ? model->abi->num_inputs : 0;
}

AMP_API int amp_model_num_outputs(const amp_model *model) {
  return model ? model->abi->num_outputs : 0;
}

static amp_status describe(const amp_model *model, int index, bool input,
                           amp_tensor_info *info) {
  if (!model || !info)
    return fail(AMP_ERROR_INVALID_ARGUMENT, "null model or info");
  int count = input ? model->abi->num_inputs : model->abi->num_outputs;
  if (index < 0 || index >= count)
    return fail(AMP_ERROR_INVALID_ARGUMENT,
                std::string(input ? "input" : "output") + " index " +
                    std::to_string(index) + " out of range (the model has " +
                    std::to_string(count) + ")");
  const amp_abi_tensor &t =
      input ? model->abi->inputs[index] : model->abi->outputs[index];
  memset(info, 0, sizeof(*info));
  info->name = t.name ? t.name : "";
  dtypeOf(t.dtype, info->dtype);
  info->rank = t.rank;
  for (int i = 0; i < t.rank; ++i) {
    info->shape[i] = t.shape[i];
    info->min[i] = t.min[i];
    info->max[i] = t.max[i];
  }
  return AMP_OK;
}

AMP_API amp_status amp_model_input(const amp_model *model, int index,
                                   amp_tensor_info *info) {
  return describe(model, index, true, info);
}

AMP_API amp_status amp_model_output(const amp_model *model, int index,
                                    amp_tensor_info *info) {
  return describe(model, index, false, info);
}

AMP_API const char *amp_model_summary(const amp_model *model) {
  return model && model->abi->summary ? model->abi->summary : "";
}

AMP_API const char *amp_model_device(const amp_model *model) {
  return model ? model->device.c_str() : "";
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

namespace {
std::mutex allocationsMutex;
/// Outputs amp allocated, and how to free each.
std::map<void *, void (*)(void *)> allocations;
} // namespace

void amp::runtime::noteAllocation(void *data, void (*release)(void *)) {
  std::lock_guard<std::mutex> lock(allocationsMutex);
  allocations[data] = release;
}

AMP_API void amp_tensor_free(amp_tensor *tensor) {
  if (!tensor || !tensor->data)
    return;
  void (*release)(void *) = nullptr;
  {
    std::lock_guard<std::mutex> lock(allocationsMutex);
    auto it = allocations.find(tensor->data);
    if (it == allocations.end())
      return; // not amp's: the caller owns it
    release = it->second;
    allocations.erase(it);
  }
  release(tensor->data);
  tensor->data = nullptr;
}

AMP_API amp_status amp_copy(const amp_model *model, void *dst,
                            amp_memory dstKind, const void *src,
                            amp_memory srcKind, size_t bytes) {
  if (!model || (bytes && (!dst || !src)))
    return fail(AMP_ERROR_INVALID_ARGUMENT, "amp_copy: null pointer");
  if (!model->gpu && (dstKind == AMP_MEMORY_DEVICE ||
                      srcKind == AMP_MEMORY_DEVICE))
    return fail(AMP_ERROR_MEMORY_KIND,
                "amp_copy: a CPU build of the model has no device memory");
  if (!bytes)
    return AMP_OK;
  if (dstKind == AMP_MEMORY_DEVICE && srcKind == AMP_MEMORY_HOST)
    model->ops.toDevice(dst, src, bytes);
  else if (dstKind == AMP_MEMORY_HOST && srcKind == AMP_MEMORY_HOST)
    memcpy(dst, src, bytes);
  else // from the device, to either (unified addressing)
    model->ops.toHost(dst, src, bytes);
  if (int error = model->ops.takeError())
    return fail(AMP_ERROR_DEVICE,
                "amp_copy: CUDA error " + std::to_string(error));
  return AMP_OK;
}
