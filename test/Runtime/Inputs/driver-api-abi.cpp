//===- driver-api-abi.cpp - runtime/CudaDriverApi.h against cuda.h --------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Compiled (never run) by test/Runtime/driver-api-abi.test where a CUDA
// toolkit is installed: every value, size, offset and alignment that amp
// declares in runtime/CudaDriverApi.h equals cuda.h's, and every entry point
// of AMP_CUDA_DRIVER_ENTRY_POINTS is a function that cuda.h declares under
// that exported symbol with the same signature (with amp's types mapped to
// cuda.h's).
//
//===----------------------------------------------------------------------===//

#include "CudaDriverApi.h"

#include <cuda.h>
#include <cudaProfiler.h>

#include <cstddef>
#include <string_view>
#include <type_traits>

namespace ours = amp::cuda;

//===----------------------------------------------------------------------===//
// amp's types -> cuda.h's types
//===----------------------------------------------------------------------===//

template <typename T>
struct ToCuda {
  using type = T;
};
template <typename T>
struct ToCuda<T *> {
  using type = typename ToCuda<T>::type *;
};
template <typename T>
struct ToCuda<const T> {
  using type = const typename ToCuda<T>::type;
};
template <typename R, typename... Args>
struct ToCuda<R (*)(Args...)> {
  using type = typename ToCuda<R>::type (*)(typename ToCuda<Args>::type...);
};
#define MAP(ourType, cudaType)                                                 \
  template <>                                                                  \
  struct ToCuda<ours::ourType> {                                               \
    using type = ::cudaType;                                                   \
  };
MAP(CUresult, CUresult)
MAP(CUdevice_attribute, CUdevice_attribute)
MAP(CUfunction_attribute, CUfunction_attribute)
MAP(CUjit_option, CUjit_option)
MAP(CUpointer_attribute, CUpointer_attribute)
MAP(CUtensorMap, CUtensorMap)
MAP(CUtensorMapDataType, CUtensorMapDataType)
MAP(CUtensorMapInterleave, CUtensorMapInterleave)
MAP(CUtensorMapSwizzle, CUtensorMapSwizzle)
MAP(CUtensorMapL2promotion, CUtensorMapL2promotion)
MAP(CUtensorMapFloatOOBfill, CUtensorMapFloatOOBfill)
MAP(CUlaunchConfig, CUlaunchConfig)
MAP(CUctx_st, CUctx_st)
MAP(CUmod_st, CUmod_st)
MAP(CUfunc_st, CUfunc_st)
MAP(CUstream_st, CUstream_st)
MAP(CUevent_st, CUevent_st)
MAP(CUmemPoolHandle_st, CUmemPoolHandle_st)
MAP(CUmemPool_attribute, CUmemPool_attribute)
MAP(CUgraph_st, CUgraph_st)
MAP(CUgraphExec_st, CUgraphExec_st)
MAP(CUstreamCaptureMode, CUstreamCaptureMode)
#undef MAP

//===----------------------------------------------------------------------===//
// Entry points: the symbol exists in cuda.h with the same signature
//===----------------------------------------------------------------------===//

// `symbol` is the exported name: cuda.h must declare a function under it
// with our signature (&::symbol), and must not rename it with a macro (the
// versioning macros map API names such as cuMemAlloc to cuMemAlloc_v2:
// `symbol` spelled and `symbol` macro-expanded must be the same).
#define AMP_STRINGIFY(x) #x
#define AMP_EXPANDED_STRING(x) AMP_STRINGIFY(x)
#define CHECK_ENTRY_POINT(name, symbol, need, ret, params)                     \
  static_assert(std::is_same_v<ToCuda<ours::PFN_##name>::type,                \
                               decltype(&::symbol)>,                           \
                #name ": cuda.h declares " #symbol " with another signature"); \
  static_assert(std::string_view(#symbol) ==                                   \
                    std::string_view(AMP_EXPANDED_STRING(symbol)),             \
                #name ": cuda.h exports " #symbol " under another symbol");
AMP_CUDA_DRIVER_ENTRY_POINTS(CHECK_ENTRY_POINT)
#undef CHECK_ENTRY_POINT

//===----------------------------------------------------------------------===//
// Scalars, handles and enums
//===----------------------------------------------------------------------===//

static_assert(std::is_same_v<ours::CUdeviceptr, ::CUdeviceptr>);
static_assert(std::is_same_v<ours::CUdevice, ::CUdevice>);
static_assert(std::is_same_v<ours::cuuint32_t, ::cuuint32_t>);
static_assert(std::is_same_v<ours::cuuint64_t, ::cuuint64_t>);
static_assert(std::is_same_v<ToCuda<ours::CUcontext>::type, ::CUcontext>);
static_assert(std::is_same_v<ToCuda<ours::CUmodule>::type, ::CUmodule>);
static_assert(std::is_same_v<ToCuda<ours::CUfunction>::type, ::CUfunction>);
static_assert(std::is_same_v<ToCuda<ours::CUstream>::type, ::CUstream>);
static_assert(std::is_same_v<ToCuda<ours::CUgraph>::type, ::CUgraph>);
static_assert(std::is_same_v<ToCuda<ours::CUgraphExec>::type, ::CUgraphExec>);
static_assert(std::is_same_v<ToCuda<ours::CUevent>::type, ::CUevent>);

#define CHECK_ENUM_TYPE(type)                                                  \
  static_assert(sizeof(ours::type) == sizeof(::type), #type);                  \
  static_assert(std::is_same_v<std::underlying_type_t<ours::type>,             \
                               std::underlying_type_t<::type>>,                \
                #type);
CHECK_ENUM_TYPE(CUresult)
CHECK_ENUM_TYPE(CUdevice_attribute)
CHECK_ENUM_TYPE(CUfunction_attribute)
CHECK_ENUM_TYPE(CUjit_option)
CHECK_ENUM_TYPE(CUpointer_attribute)
CHECK_ENUM_TYPE(CUstream_flags)
CHECK_ENUM_TYPE(CUstreamCaptureMode)
CHECK_ENUM_TYPE(CUgraphInstantiate_flags)
CHECK_ENUM_TYPE(CUevent_flags)
CHECK_ENUM_TYPE(CUmemAttach_flags)
CHECK_ENUM_TYPE(CUlaunchAttributeID)
CHECK_ENUM_TYPE(CUmemPool_attribute)
CHECK_ENUM_TYPE(CUtensorMapDataType)
CHECK_ENUM_TYPE(CUtensorMapInterleave)
CHECK_ENUM_TYPE(CUtensorMapSwizzle)
CHECK_ENUM_TYPE(CUtensorMapL2promotion)
CHECK_ENUM_TYPE(CUtensorMapFloatOOBfill)
#undef CHECK_ENUM_TYPE

#define CHECK_VALUE(value)                                                     \
  static_assert(static_cast<long long>(ours::value) ==                         \
                    static_cast<long long>(::value),                           \
                #value);
// CUresult
CHECK_VALUE(CUDA_SUCCESS)
CHECK_VALUE(CUDA_ERROR_INVALID_VALUE)
CHECK_VALUE(CUDA_ERROR_OUT_OF_MEMORY)
CHECK_VALUE(CUDA_ERROR_NOT_INITIALIZED)
CHECK_VALUE(CUDA_ERROR_DEINITIALIZED)
CHECK_VALUE(CUDA_ERROR_STUB_LIBRARY)
CHECK_VALUE(CUDA_ERROR_NO_DEVICE)
CHECK_VALUE(CUDA_ERROR_INVALID_DEVICE)
CHECK_VALUE(CUDA_ERROR_INVALID_IMAGE)
CHECK_VALUE(CUDA_ERROR_INVALID_CONTEXT)
CHECK_VALUE(CUDA_ERROR_NO_BINARY_FOR_GPU)
CHECK_VALUE(CUDA_ERROR_INVALID_PTX)
CHECK_VALUE(CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
CHECK_VALUE(CUDA_ERROR_INVALID_SOURCE)
CHECK_VALUE(CUDA_ERROR_FILE_NOT_FOUND)
CHECK_VALUE(CUDA_ERROR_INVALID_HANDLE)
CHECK_VALUE(CUDA_ERROR_ILLEGAL_STATE)
CHECK_VALUE(CUDA_ERROR_NOT_FOUND)
CHECK_VALUE(CUDA_ERROR_NOT_READY)
CHECK_VALUE(CUDA_ERROR_ILLEGAL_ADDRESS)
CHECK_VALUE(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
CHECK_VALUE(CUDA_ERROR_LAUNCH_TIMEOUT)
CHECK_VALUE(CUDA_ERROR_ASSERT)
CHECK_VALUE(CUDA_ERROR_HARDWARE_STACK_ERROR)
CHECK_VALUE(CUDA_ERROR_ILLEGAL_INSTRUCTION)
CHECK_VALUE(CUDA_ERROR_MISALIGNED_ADDRESS)
CHECK_VALUE(CUDA_ERROR_INVALID_ADDRESS_SPACE)
CHECK_VALUE(CUDA_ERROR_INVALID_PC)
CHECK_VALUE(CUDA_ERROR_LAUNCH_FAILED)
CHECK_VALUE(CUDA_ERROR_NOT_PERMITTED)
CHECK_VALUE(CUDA_ERROR_NOT_SUPPORTED)
CHECK_VALUE(CUDA_ERROR_INVALID_CLUSTER_SIZE)
CHECK_VALUE(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED)
CHECK_VALUE(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED)
CHECK_VALUE(CUDA_ERROR_UNKNOWN)
// CUdevice_attribute
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_WARP_SIZE)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_CLOCK_RATE)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED)
CHECK_VALUE(CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH)
// CUfunction_attribute
CHECK_VALUE(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
CHECK_VALUE(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
CHECK_VALUE(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES)
CHECK_VALUE(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)
CHECK_VALUE(CU_FUNC_ATTRIBUTE_NUM_REGS)
CHECK_VALUE(CU_FUNC_ATTRIBUTE_PTX_VERSION)
CHECK_VALUE(CU_FUNC_ATTRIBUTE_BINARY_VERSION)
CHECK_VALUE(CU_FUNC_ATTRIBUTE_CACHE_MODE_CA)
CHECK_VALUE(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
// CUjit_option
CHECK_VALUE(CU_JIT_MAX_REGISTERS)
CHECK_VALUE(CU_JIT_THREADS_PER_BLOCK)
CHECK_VALUE(CU_JIT_WALL_TIME)
CHECK_VALUE(CU_JIT_INFO_LOG_BUFFER)
CHECK_VALUE(CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES)
CHECK_VALUE(CU_JIT_ERROR_LOG_BUFFER)
CHECK_VALUE(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
CHECK_VALUE(CU_JIT_OPTIMIZATION_LEVEL)
CHECK_VALUE(CU_JIT_TARGET_FROM_CUCONTEXT)
CHECK_VALUE(CU_JIT_TARGET)
CHECK_VALUE(CU_JIT_GENERATE_DEBUG_INFO)
CHECK_VALUE(CU_JIT_LOG_VERBOSE)
CHECK_VALUE(CU_JIT_GENERATE_LINE_INFO)
// CUpointer_attribute
CHECK_VALUE(CU_POINTER_ATTRIBUTE_CONTEXT)
CHECK_VALUE(CU_POINTER_ATTRIBUTE_MEMORY_TYPE)
CHECK_VALUE(CU_POINTER_ATTRIBUTE_DEVICE_POINTER)
CHECK_VALUE(CU_POINTER_ATTRIBUTE_HOST_POINTER)
CHECK_VALUE(CU_POINTER_ATTRIBUTE_IS_MANAGED)
CHECK_VALUE(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL)
// Stream, event and allocation flags
CHECK_VALUE(CU_STREAM_DEFAULT)
CHECK_VALUE(CU_STREAM_NON_BLOCKING)
CHECK_VALUE(CU_STREAM_CAPTURE_MODE_GLOBAL)
CHECK_VALUE(CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)
CHECK_VALUE(CU_STREAM_CAPTURE_MODE_RELAXED)
CHECK_VALUE(CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH)
CHECK_VALUE(CU_EVENT_DEFAULT)
CHECK_VALUE(CU_EVENT_BLOCKING_SYNC)
CHECK_VALUE(CU_EVENT_DISABLE_TIMING)
CHECK_VALUE(CU_EVENT_INTERPROCESS)
CHECK_VALUE(CU_MEM_ATTACH_GLOBAL)
CHECK_VALUE(CU_MEM_ATTACH_HOST)
CHECK_VALUE(CU_MEM_ATTACH_SINGLE)
// Launch attributes
CHECK_VALUE(CU_LAUNCH_ATTRIBUTE_IGNORE)
CHECK_VALUE(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW)
CHECK_VALUE(CU_LAUNCH_ATTRIBUTE_COOPERATIVE)
CHECK_VALUE(CU_MEMPOOL_ATTR_RELEASE_THRESHOLD)
CHECK_VALUE(CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY)
CHECK_VALUE(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
CHECK_VALUE(CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE)
// Tensor maps
CHECK_VALUE(CU_TENSOR_MAP_DATA_TYPE_UINT8)
CHECK_VALUE(CU_TENSOR_MAP_DATA_TYPE_UINT16)
CHECK_VALUE(CU_TENSOR_MAP_DATA_TYPE_UINT32)
CHECK_VALUE(CU_TENSOR_MAP_DATA_TYPE_INT32)
CHECK_VALUE(CU_TENSOR_MAP_DATA_TYPE_UINT64)
CHECK_VALUE(CU_TENSOR_MAP_DATA_TYPE_INT64)
CHECK_VALUE(CU_TENSOR_MAP_DATA_TYPE_FLOAT16)
CHECK_VALUE(CU_TENSOR_MAP_DATA_TYPE_FLOAT32)
CHECK_VALUE(CU_TENSOR_MAP_DATA_TYPE_FLOAT64)
CHECK_VALUE(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16)
CHECK_VALUE(CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ)
CHECK_VALUE(CU_TENSOR_MAP_DATA_TYPE_TFLOAT32)
CHECK_VALUE(CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ)
CHECK_VALUE(CU_TENSOR_MAP_INTERLEAVE_NONE)
CHECK_VALUE(CU_TENSOR_MAP_INTERLEAVE_16B)
CHECK_VALUE(CU_TENSOR_MAP_INTERLEAVE_32B)
CHECK_VALUE(CU_TENSOR_MAP_SWIZZLE_NONE)
CHECK_VALUE(CU_TENSOR_MAP_SWIZZLE_32B)
CHECK_VALUE(CU_TENSOR_MAP_SWIZZLE_64B)
CHECK_VALUE(CU_TENSOR_MAP_SWIZZLE_128B)
CHECK_VALUE(CU_TENSOR_MAP_L2_PROMOTION_NONE)
CHECK_VALUE(CU_TENSOR_MAP_L2_PROMOTION_L2_64B)
CHECK_VALUE(CU_TENSOR_MAP_L2_PROMOTION_L2_128B)
CHECK_VALUE(CU_TENSOR_MAP_L2_PROMOTION_L2_256B)
CHECK_VALUE(CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
CHECK_VALUE(CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA)
#undef CHECK_VALUE
// Constants that cuda.h defines as macros: take their values, then undefine
// them so that amp's names can be spelled.
#define CHECK_MACRO_VALUE(value)                                               \
  constexpr long long cuda_##value = value;
CHECK_MACRO_VALUE(CU_TENSOR_MAP_NUM_QWORDS)
CHECK_MACRO_VALUE(CU_MEMHOSTREGISTER_PORTABLE)
CHECK_MACRO_VALUE(CU_MEMHOSTREGISTER_DEVICEMAP)
#undef CU_TENSOR_MAP_NUM_QWORDS
#undef CU_MEMHOSTREGISTER_PORTABLE
#undef CU_MEMHOSTREGISTER_DEVICEMAP
static_assert(ours::CU_TENSOR_MAP_NUM_QWORDS == cuda_CU_TENSOR_MAP_NUM_QWORDS);
static_assert(ours::CU_MEMHOSTREGISTER_PORTABLE ==
              cuda_CU_MEMHOSTREGISTER_PORTABLE);
static_assert(ours::CU_MEMHOSTREGISTER_DEVICEMAP ==
              cuda_CU_MEMHOSTREGISTER_DEVICEMAP);
#undef CHECK_MACRO_VALUE

//===----------------------------------------------------------------------===//
// Struct layouts
//===----------------------------------------------------------------------===//

#define CHECK_LAYOUT(type)                                                     \
  static_assert(sizeof(ours::type) == sizeof(::type), #type " size");          \
  static_assert(alignof(ours::type) == alignof(::type), #type " alignment");
#define CHECK_FIELD(type, field)                                               \
  static_assert(offsetof(ours::type, field) == offsetof(::type, field),        \
                #type "::" #field);                                            \
  static_assert(sizeof(ours::type::field) == sizeof(::type::field),            \
                #type "::" #field " size");

CHECK_LAYOUT(CUtensorMap)
CHECK_FIELD(CUtensorMap, opaque)
static_assert(sizeof(ours::CUtensorMap) == 128);

CHECK_LAYOUT(CUlaunchAttributeValue)
CHECK_FIELD(CUlaunchAttributeValue, pad)
CHECK_FIELD(CUlaunchAttributeValue, cooperative)
CHECK_FIELD(CUlaunchAttributeValue, clusterDim)
static_assert(offsetof(ours::CUlaunchAttributeValue, clusterDim.z) ==
              offsetof(::CUlaunchAttributeValue, clusterDim.z));

CHECK_LAYOUT(CUlaunchAttribute)
CHECK_FIELD(CUlaunchAttribute, id)
CHECK_FIELD(CUlaunchAttribute, value)

CHECK_LAYOUT(CUlaunchConfig)
CHECK_FIELD(CUlaunchConfig, gridDimX)
CHECK_FIELD(CUlaunchConfig, gridDimY)
CHECK_FIELD(CUlaunchConfig, gridDimZ)
CHECK_FIELD(CUlaunchConfig, blockDimX)
CHECK_FIELD(CUlaunchConfig, blockDimY)
CHECK_FIELD(CUlaunchConfig, blockDimZ)
CHECK_FIELD(CUlaunchConfig, sharedMemBytes)
CHECK_FIELD(CUlaunchConfig, hStream)
CHECK_FIELD(CUlaunchConfig, attrs)
CHECK_FIELD(CUlaunchConfig, numAttrs)
#undef CHECK_FIELD
#undef CHECK_LAYOUT

int main() { return 0; }
