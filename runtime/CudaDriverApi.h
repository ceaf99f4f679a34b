//===- CudaDriverApi.h - The CUDA driver API subset amp uses ----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// amp's own declaration of the subset of the CUDA driver API that
// libamp_cuda_runtime.so calls, so that the runtime builds without a CUDA
// toolkit and loads the driver (libcuda.so.1) at run time, as PyTorch and
// Triton do. Whatever implements the driver (NVIDIA's libcuda.so.1, or a
// stand-in built on an emulator) provides the entry points listed in
// AMP_CUDA_DRIVER_ENTRY_POINTS under their exported symbol names.
//
// Everything here is a fact of the driver's ABI: the values, the struct
// layouts and the exported symbols are those of cuda.h (CUDA 13), checked
// against it by test/Runtime/driver-api-abi.test where a toolkit is
// installed. The declarations live in namespace amp::cuda, so this header
// and cuda.h can be included together. Self-contained C++17, no
// dependencies.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CUDADRIVERAPI_H
#define AMP_RUNTIME_CUDADRIVERAPI_H

#include <cstddef>
#include <cstdint>

namespace amp {
namespace cuda {

//===----------------------------------------------------------------------===//
// Scalar types and handles
//===----------------------------------------------------------------------===//

using cuuint32_t = std::uint32_t;
using cuuint64_t = std::uint64_t;

/// A device address (64-bit on every platform amp supports).
using CUdeviceptr = unsigned long long;
/// A device ordinal.
using CUdevice = int;

/// Opaque handles: the driver owns what they point to.
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUmemoryPool = struct CUmemPoolHandle_st *;
using CUgraph = struct CUgraph_st *;
using CUgraphExec = struct CUgraphExec_st *;

//===----------------------------------------------------------------------===//
// Enumerations (only the values amp or a stand-in driver needs)
//===----------------------------------------------------------------------===//

/// Error codes returned by every entry point.
enum CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_STUB_LIBRARY = 34,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  CUDA_ERROR_INVALID_SOURCE = 300,
  CUDA_ERROR_FILE_NOT_FOUND = 301,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_ILLEGAL_STATE = 401,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_LAUNCH_TIMEOUT = 702,
  CUDA_ERROR_ASSERT = 710,
  CUDA_ERROR_HARDWARE_STACK_ERROR = 714,
  CUDA_ERROR_ILLEGAL_INSTRUCTION = 715,
  CUDA_ERROR_MISALIGNED_ADDRESS = 716,
  CUDA_ERROR_INVALID_ADDRESS_SPACE = 717,
  CUDA_ERROR_INVALID_PC = 718,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_NOT_PERMITTED = 800,
  CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900,
  CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901,
  CUDA_ERROR_INVALID_CLUSTER_SIZE = 912,
  CUDA_ERROR_UNKNOWN = 999,
};

/// cuDeviceGetAttribute.
enum CUdevice_attribute {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY = 9,
  CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
  CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
  CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
  CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
  CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115,
  CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH = 120,
};

/// cuFuncSetAttribute (and cuFuncGetAttribute).
enum CUfunction_attribute {
  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
  CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  CU_FUNC_ATTRIBUTE_PTX_VERSION = 5,
  CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6,
  CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

/// Options of cuModuleLoadDataEx. Each value is passed as a void *: an
/// integer cast to a pointer, or a pointer to a buffer.
enum CUjit_option {
  CU_JIT_MAX_REGISTERS = 0,
  CU_JIT_THREADS_PER_BLOCK = 1,
  CU_JIT_WALL_TIME = 2,
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_OPTIMIZATION_LEVEL = 7,
  CU_JIT_TARGET_FROM_CUCONTEXT = 8,
  CU_JIT_TARGET = 9,
  CU_JIT_GENERATE_DEBUG_INFO = 11,
  CU_JIT_LOG_VERBOSE = 12,
  CU_JIT_GENERATE_LINE_INFO = 13,
};

/// cuPointerGetAttribute.
enum CUpointer_attribute {
  CU_POINTER_ATTRIBUTE_CONTEXT = 1,
  CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
  CU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3,
  CU_POINTER_ATTRIBUTE_HOST_POINTER = 4,
  CU_POINTER_ATTRIBUTE_IS_MANAGED = 8,
  CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
};

/// cuStreamCreate flags.
enum CUstream_flags {
  CU_STREAM_DEFAULT = 0x0,
  CU_STREAM_NON_BLOCKING = 0x1,
};

/// How a stream capture treats unsafe calls of other threads and streams
/// (cuStreamBeginCapture).
enum CUstreamCaptureMode {
  CU_STREAM_CAPTURE_MODE_GLOBAL = 0,
  CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1,
  CU_STREAM_CAPTURE_MODE_RELAXED = 2,
};

/// cuGraphInstantiateWithFlags flags.
enum CUgraphInstantiate_flags {
  CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH = 1,
};

/// cuEventCreate flags.
enum CUevent_flags {
  CU_EVENT_DEFAULT = 0x0,
  CU_EVENT_BLOCKING_SYNC = 0x1,
  CU_EVENT_DISABLE_TIMING = 0x2,
  CU_EVENT_INTERPROCESS = 0x4,
};

/// cuMemAllocManaged flags.
enum CUmemAttach_flags {
  CU_MEM_ATTACH_GLOBAL = 0x1,
  CU_MEM_ATTACH_HOST = 0x2,
  CU_MEM_ATTACH_SINGLE = 0x4,
};

/// cuMemHostRegister flags (macros in cuda.h).
constexpr unsigned int CU_MEMHOSTREGISTER_PORTABLE = 0x01;
constexpr unsigned int CU_MEMHOSTREGISTER_DEVICEMAP = 0x02;

/// CUlaunchAttribute::id.
enum CUlaunchAttributeID {
  CU_LAUNCH_ATTRIBUTE_IGNORE = 0,
  CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW = 1,
  CU_LAUNCH_ATTRIBUTE_COOPERATIVE = 2,
  CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY = 3,
  CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4,
  CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 5,
};

/// Attributes of a stream-ordered memory pool (cuMemPoolSetAttribute).
enum CUmemPool_attribute {
  CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4,
};

/// Element types of cuTensorMapEncodeTiled.
enum CUtensorMapDataType {
  CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0,
  CU_TENSOR_MAP_DATA_TYPE_UINT16 = 1,
  CU_TENSOR_MAP_DATA_TYPE_UINT32 = 2,
  CU_TENSOR_MAP_DATA_TYPE_INT32 = 3,
  CU_TENSOR_MAP_DATA_TYPE_UINT64 = 4,
  CU_TENSOR_MAP_DATA_TYPE_INT64 = 5,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT16 = 6,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT32 = 7,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT64 = 8,
  CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 = 9,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ = 10,
  CU_TENSOR_MAP_DATA_TYPE_TFLOAT32 = 11,
  CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ = 12,
};

enum CUtensorMapInterleave {
  CU_TENSOR_MAP_INTERLEAVE_NONE = 0,
  CU_TENSOR_MAP_INTERLEAVE_16B = 1,
  CU_TENSOR_MAP_INTERLEAVE_32B = 2,
};

enum CUtensorMapSwizzle {
  CU_TENSOR_MAP_SWIZZLE_NONE = 0,
  CU_TENSOR_MAP_SWIZZLE_32B = 1,
  CU_TENSOR_MAP_SWIZZLE_64B = 2,
  CU_TENSOR_MAP_SWIZZLE_128B = 3,
};

enum CUtensorMapL2promotion {
  CU_TENSOR_MAP_L2_PROMOTION_NONE = 0,
  CU_TENSOR_MAP_L2_PROMOTION_L2_64B = 1,
  CU_TENSOR_MAP_L2_PROMOTION_L2_128B = 2,
  CU_TENSOR_MAP_L2_PROMOTION_L2_256B = 3,
};

enum CUtensorMapFloatOOBfill {
  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0,
  CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA = 1,
};

//===----------------------------------------------------------------------===//
// Structures
//===----------------------------------------------------------------------===//

/// A TMA descriptor, opaque to the host: 128 bytes that the driver encodes
/// and a kernel reads (from device memory or a kernel parameter). cuda.h
/// aligns it to 128 bytes (CUDA 12 used 64; the driver needs 64).
constexpr int CU_TENSOR_MAP_NUM_QWORDS = 16;
struct alignas(128) CUtensorMap {
  cuuint64_t opaque[CU_TENSOR_MAP_NUM_QWORDS];
};

/// The value of a launch attribute: a 64-byte union (8-byte aligned, as
/// some of cuda.h's members hold pointers). Only the members amp uses are
/// named.
union alignas(8) CUlaunchAttributeValue {
  char pad[64];
  int cooperative;
  struct {
    unsigned int x;
    unsigned int y;
    unsigned int z;
  } clusterDim;
};

struct CUlaunchAttribute {
  CUlaunchAttributeID id;
  char pad[8 - sizeof(CUlaunchAttributeID)];
  CUlaunchAttributeValue value;
};

/// The launch configuration of cuLaunchKernelEx.
struct CUlaunchConfig {
  unsigned int gridDimX;
  unsigned int gridDimY;
  unsigned int gridDimZ;
  unsigned int blockDimX;
  unsigned int blockDimY;
  unsigned int blockDimZ;
  unsigned int sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned int numAttrs;
};

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// Whether a driver must provide an entry point for the runtime to load it
/// (`Required`), or only the features that need it fail without it
/// (`Optional`: newer than the oldest driver amp runs on).
enum class EntryPointNeed { Required, Optional };

// Every entry point the runtime resolves, as
//
//   X(name, symbol, need, returnType, (parameters))
//
// `name` is the API name (cuda.h's documentation), `symbol` the name the
// real libcuda.so.1 exports it under: cuda.h maps several API names to
// versioned symbols (cuMemAlloc -> cuMemAlloc_v2, ...), and the runtime uses
// the legacy default stream (no _ptds/_ptsz variants). `need` is an
// EntryPointNeed enumerator. A stand-in driver defines each one as
//
//   extern "C" returnType symbol parameters { ... }
//
// Keep the list sorted by topic; test/Runtime/driver-api-abi.test checks
// every row against cuda.h.
// clang-format off
#define AMP_CUDA_DRIVER_ENTRY_POINTS(X)                                        \
  /* Errors, initialization, devices */                                        \
  X(cuGetErrorName, cuGetErrorName, Required, CUresult,                        \
    (CUresult error, const char **pStr))                                       \
  X(cuGetErrorString, cuGetErrorString, Required, CUresult,                    \
    (CUresult error, const char **pStr))                                       \
  X(cuInit, cuInit, Required, CUresult, (unsigned int Flags))                  \
  X(cuDeviceGet, cuDeviceGet, Required, CUresult,                              \
    (CUdevice *device, int ordinal))                                           \
  X(cuDeviceGetAttribute, cuDeviceGetAttribute, Required, CUresult,            \
    (int *pi, CUdevice_attribute attrib, CUdevice dev))                        \
  X(cuDeviceGetName, cuDeviceGetName, Required, CUresult,                      \
    (char *name, int len, CUdevice dev))                                       \
  /* Contexts */                                                               \
  X(cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain, Required, CUresult,    \
    (CUcontext *pctx, CUdevice dev))                                           \
  X(cuCtxGetCurrent, cuCtxGetCurrent, Required, CUresult, (CUcontext *pctx))   \
  X(cuCtxSetCurrent, cuCtxSetCurrent, Required, CUresult, (CUcontext ctx))     \
  X(cuCtxGetDevice, cuCtxGetDevice, Required, CUresult, (CUdevice *device))    \
  X(cuCtxSynchronize, cuCtxSynchronize, Required, CUresult, ())                \
  /* Modules and launches */                                                   \
  X(cuModuleLoadData, cuModuleLoadData, Required, CUresult,                    \
    (CUmodule *module, const void *image))                                     \
  X(cuModuleLoadDataEx, cuModuleLoadDataEx, Required, CUresult,                \
    (CUmodule *module, const void *image, unsigned int numOptions,             \
     CUjit_option *options, void **optionValues))                              \
  X(cuModuleUnload, cuModuleUnload, Required, CUresult, (CUmodule hmod))       \
  X(cuModuleGetFunction, cuModuleGetFunction, Required, CUresult,              \
    (CUfunction *hfunc, CUmodule hmod, const char *name))                      \
  X(cuFuncSetAttribute, cuFuncSetAttribute, Required, CUresult,                \
    (CUfunction hfunc, CUfunction_attribute attrib, int value))                \
  X(cuLaunchKernel, cuLaunchKernel, Required, CUresult,                        \
    (CUfunction f, unsigned int gridDimX, unsigned int gridDimY,               \
     unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,    \
     unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,    \
     void **kernelParams, void **extra))                                       \
  X(cuLaunchKernelEx, cuLaunchKernelEx, Optional, CUresult,                    \
    (const CUlaunchConfig *config, CUfunction f, void **kernelParams,          \
     void **extra))                                                            \
  /* Streams and events */                                                     \
  X(cuStreamCreate, cuStreamCreate, Required, CUresult,                        \
    (CUstream *phStream, unsigned int Flags))                                  \
  X(cuStreamDestroy, cuStreamDestroy_v2, Required, CUresult,                   \
    (CUstream hStream))                                                        \
  X(cuStreamSynchronize, cuStreamSynchronize, Required, CUresult,              \
    (CUstream hStream))                                                        \
  X(cuStreamWaitEvent, cuStreamWaitEvent, Required, CUresult,                  \
    (CUstream hStream, CUevent hEvent, unsigned int Flags))                    \
  X(cuStreamBeginCapture, cuStreamBeginCapture_v2, Optional, CUresult,        \
    (CUstream hStream, CUstreamCaptureMode mode))                              \
  X(cuStreamEndCapture, cuStreamEndCapture, Optional, CUresult,                \
    (CUstream hStream, CUgraph *phGraph))                                      \
  X(cuEventCreate, cuEventCreate, Required, CUresult,                          \
    (CUevent *phEvent, unsigned int Flags))                                    \
  X(cuEventDestroy, cuEventDestroy_v2, Required, CUresult, (CUevent hEvent))   \
  X(cuEventSynchronize, cuEventSynchronize, Required, CUresult,                \
    (CUevent hEvent))                                                          \
  X(cuEventRecord, cuEventRecord, Required, CUresult,                          \
    (CUevent hEvent, CUstream hStream))                                        \
  /* Memory */                                                                 \
  X(cuMemAlloc, cuMemAlloc_v2, Required, CUresult,                             \
    (CUdeviceptr *dptr, size_t bytesize))                                      \
  X(cuMemAllocManaged, cuMemAllocManaged, Required, CUresult,                  \
    (CUdeviceptr *dptr, size_t bytesize, unsigned int flags))                  \
  X(cuMemAllocAsync, cuMemAllocAsync, Optional, CUresult,                      \
    (CUdeviceptr *dptr, size_t bytesize, CUstream hStream))                    \
  X(cuMemFree, cuMemFree_v2, Required, CUresult, (CUdeviceptr dptr))           \
  X(cuMemFreeAsync, cuMemFreeAsync, Optional, CUresult,                        \
    (CUdeviceptr dptr, CUstream hStream))                                      \
  X(cuDeviceGetDefaultMemPool, cuDeviceGetDefaultMemPool, Optional,          \
    CUresult, (CUmemoryPool *pool_out, CUdevice dev))                          \
  X(cuMemPoolSetAttribute, cuMemPoolSetAttribute, Optional, CUresult,          \
    (CUmemoryPool pool, CUmemPool_attribute attr, void *value))                \
  X(cuPointerGetAttribute, cuPointerGetAttribute, Required, CUresult,          \
    (void *data, CUpointer_attribute attribute, CUdeviceptr ptr))              \
  X(cuMemcpy, cuMemcpy, Required, CUresult,                                    \
    (CUdeviceptr dst, CUdeviceptr src, size_t ByteCount))                      \
  X(cuMemcpyAsync, cuMemcpyAsync, Required, CUresult,                          \
    (CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream))    \
  X(cuMemcpyHtoD, cuMemcpyHtoD_v2, Required, CUresult,                         \
    (CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount))            \
  X(cuMemsetD32Async, cuMemsetD32Async, Required, CUresult,                    \
    (CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream))      \
  X(cuMemsetD16Async, cuMemsetD16Async, Required, CUresult,                    \
    (CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream))    \
  X(cuMemHostRegister, cuMemHostRegister_v2, Required, CUresult,               \
    (void *p, size_t bytesize, unsigned int Flags))                            \
  X(cuMemHostUnregister, cuMemHostUnregister, Required, CUresult, (void *p))   \
  /* Graphs (replaying a captured call) */                                     \
  X(cuGraphInstantiateWithFlags, cuGraphInstantiateWithFlags, Optional,        \
    CUresult, (CUgraphExec *phGraphExec, CUgraph hGraph,                       \
               unsigned long long flags))                                      \
  X(cuGraphLaunch, cuGraphLaunch, Optional, CUresult,                          \
    (CUgraphExec hGraphExec, CUstream hStream))                                \
  X(cuGraphExecDestroy, cuGraphExecDestroy, Optional, CUresult,                \
    (CUgraphExec hGraphExec))                                                  \
  X(cuGraphDestroy, cuGraphDestroy, Optional, CUresult, (CUgraph hGraph))      \
  /* Profiler ranges (cudaProfiler.h): what a profiler measures */            \
  X(cuProfilerStart, cuProfilerStart, Optional, CUresult, ())                  \
  X(cuProfilerStop, cuProfilerStop, Optional, CUresult, ())                    \
  /* Tensor maps (TMA, sm_90) */                                               \
  X(cuTensorMapEncodeTiled, cuTensorMapEncodeTiled, Optional, CUresult,        \
    (CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,               \
     cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,  \
     const cuuint64_t *globalStrides, const cuuint32_t *boxDim,                \
     const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,       \
     CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,           \
     CUtensorMapFloatOOBfill oobFill))
// clang-format on

/// One function-pointer type per entry point: PFN_<name>.
#define AMP_CUDA_DRIVER_DECLARE_PFN(name, symbol, need, ret, params)           \
  using PFN_##name = ret(*) params;
AMP_CUDA_DRIVER_ENTRY_POINTS(AMP_CUDA_DRIVER_DECLARE_PFN)
#undef AMP_CUDA_DRIVER_DECLARE_PFN

} // namespace cuda
} // namespace amp

#endif // AMP_RUNTIME_CUDADRIVERAPI_H
