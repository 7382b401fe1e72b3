// The part of NVIDIA's CUDA driver API the CUDA driver calls, declared here from NVIDIA's documentation (Debian 12 main
// has no CUDA headers, and zeal builds without CUDA): types, the codes and attributes used, and the library opened
// with dlopen at run time. Nothing here links against CUDA; a machine without it gets a sentence saying so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace zeal::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUlinkState = struct CUlinkState_st *;
using CUhostFn = void (*)(void *user_data);

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
inline constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
inline constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
inline constexpr CUresult CUDA_ERROR_INVALID_PTX = 218;
inline constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
inline constexpr CUresult CUDA_ERROR_NOT_READY = 600;
inline constexpr CUresult CUDA_ERROR_ILLEGAL_ADDRESS = 700;
inline constexpr CUresult CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701;
inline constexpr CUresult CUDA_ERROR_LAUNCH_FAILED = 719;

// CUdevice_attribute values.
enum class Attribute : int {
  MaxThreadsPerBlock = 1,
  MaxBlockDimX = 2,
  MaxBlockDimY = 3,
  MaxBlockDimZ = 4,
  MaxGridDimX = 5,
  MaxGridDimY = 6,
  MaxGridDimZ = 7,
  MaxSharedMemoryPerBlock = 8,
  TotalConstantMemory = 9,
  WarpSize = 10,
  MaxRegistersPerBlock = 12,
  ClockRate = 13, // kHz
  MultiprocessorCount = 16,
  CanMapHostMemory = 19,
  PciBusId = 33,
  PciDeviceId = 34,
  MemoryClockRate = 36, // kHz
  GlobalMemoryBusWidth = 37, // bits
  L2CacheSize = 38,
  MaxThreadsPerMultiprocessor = 39,
  AsyncEngineCount = 40, // copy engines that run beside kernels
  UnifiedAddressing = 41,
  ComputeCapabilityMajor = 75,
  ComputeCapabilityMinor = 76,
  ManagedMemory = 83,
  ConcurrentManagedAccess = 89,
  MaxSharedMemoryPerBlockOptin = 97,
};

// CUjit_option values (cuModuleLoadDataEx, cuLinkCreate).
enum class JitOption : int {
  InfoLogBuffer = 3,
  InfoLogBufferSizeBytes = 4,
  ErrorLogBuffer = 5,
  ErrorLogBufferSizeBytes = 6,
  OptimizationLevel = 7,
};

// CUfunction_attribute values.
enum class FunctionAttribute : int {
  MaxThreadsPerBlock = 0,
  SharedSizeBytes = 1,
  LocalSizeBytes = 3,
  NumRegs = 4,
  MaxDynamicSharedSizeBytes = 8,
};

inline constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
inline constexpr unsigned CU_EVENT_DISABLE_TIMING = 2;
inline constexpr unsigned CU_MEMHOSTALLOC_PORTABLE = 1;
inline constexpr unsigned CU_MEMHOSTALLOC_DEVICEMAP = 2;
inline constexpr unsigned CU_MEM_ATTACH_GLOBAL = 1;
inline constexpr unsigned CU_MEMHOSTREGISTER_PORTABLE = 1;
inline constexpr unsigned CU_MEMHOSTREGISTER_DEVICEMAP = 2;
inline constexpr unsigned CU_STREAM_WAIT_VALUE_GEQ = 0;
inline constexpr int CU_JIT_INPUT_PTX = 1; // CUjitInputType

// CUDA_MEMCPY2D: a copy of `height` rows of `width_bytes`, each side with its pitch; with unified addressing
// (memory type UNIFIED) the pointers alone say where memory is.
inline constexpr int CU_MEMORYTYPE_UNIFIED = 4;
struct Memcpy2D {
  size_t src_x_bytes = 0, src_y = 0;
  int src_memory_type = CU_MEMORYTYPE_UNIFIED;
  const void *src_host = nullptr;
  CUdeviceptr src_device = 0;
  void *src_array = nullptr;
  size_t src_pitch = 0;
  size_t dst_x_bytes = 0, dst_y = 0;
  int dst_memory_type = CU_MEMORYTYPE_UNIFIED;
  void *dst_host = nullptr;
  CUdeviceptr dst_device = 0;
  void *dst_array = nullptr;
  size_t dst_pitch = 0;
  size_t width_bytes = 0, height = 0;
};

// Virtual memory management (cuMemAddressReserve, cuMemCreate, cuMemMap, cuMemSetAccess): where memory lies, what
// kind of physical memory to make, and who may access a mapped range how.
using CUmemGenericAllocationHandle = unsigned long long;
inline constexpr int CU_MEM_LOCATION_TYPE_DEVICE = 1;
inline constexpr int CU_MEM_ALLOCATION_TYPE_PINNED = 1;
inline constexpr int CU_MEM_ALLOC_GRANULARITY_MINIMUM = 0;
inline constexpr int CU_MEM_ACCESS_FLAGS_PROT_NONE = 0;
inline constexpr int CU_MEM_ACCESS_FLAGS_PROT_READ = 1;
inline constexpr int CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 3;
struct MemLocation {
  int type = CU_MEM_LOCATION_TYPE_DEVICE;
  int id = 0; // the device ordinal
};
struct MemAllocationProp {
  int type = CU_MEM_ALLOCATION_TYPE_PINNED;
  int requested_handle_types = 0;
  MemLocation location;
  void *win32_handle_meta_data = nullptr;
  unsigned char compression_type = 0, gpu_direct_rdma_capable = 0;
  unsigned short usage = 0;
  unsigned char reserved[4] = {};
};
struct MemAccessDesc {
  MemLocation location;
  int flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
};
static_assert(sizeof(MemAllocationProp) == 32 && sizeof(MemAccessDesc) == 12);

// CUipcMemHandle: what another process opens device memory with (cuIpcGetMemHandle, cuIpcOpenMemHandle), as many
// bytes as Level Zero's IPC handle holds.
struct CUipcMemHandle {
  char reserved[64];
};
inline constexpr unsigned CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS = 1;

// The entry points, by the names libcuda.so.1 exports (the _v2 names where cuda.h maps to them). One list, so that
// the declarations and the lookups cannot disagree.
#define ZEAL_CUDA_ENTRY_POINTS(X)                                                                                 \
  X(cuInit, CUresult (*)(unsigned flags))                                                                        \
  X(cuDriverGetVersion, CUresult (*)(int *version))                                                              \
  X(cuDeviceGetCount, CUresult (*)(int *count))                                                                  \
  X(cuDeviceGet, CUresult (*)(CUdevice * device, int ordinal))                                                   \
  X(cuDeviceGetName, CUresult (*)(char *name, int length, CUdevice device))                                      \
  X(cuDeviceTotalMem_v2, CUresult (*)(size_t * bytes, CUdevice device))                                          \
  X(cuDeviceGetAttribute, CUresult (*)(int *value, int attribute, CUdevice device))                              \
  X(cuDeviceGetUuid, CUresult (*)(unsigned char *uuid, CUdevice device))                                        \
  X(cuGetErrorName, CUresult (*)(CUresult error, const char **name))                                             \
  X(cuGetErrorString, CUresult (*)(CUresult error, const char **text))                                           \
  X(cuDevicePrimaryCtxRetain, CUresult (*)(CUcontext * context, CUdevice device))                                \
  X(cuCtxSetCurrent, CUresult (*)(CUcontext context))                                                            \
  X(cuCtxSynchronize, CUresult (*)())                                                                            \
  X(cuMemGetInfo_v2, CUresult (*)(size_t * free, size_t * total))                                               \
  X(cuMemAlloc_v2, CUresult (*)(CUdeviceptr * pointer, size_t bytes))                                           \
  X(cuMemFree_v2, CUresult (*)(CUdeviceptr pointer))                                                             \
  X(cuMemHostAlloc, CUresult (*)(void **pointer, size_t bytes, unsigned flags))                                  \
  X(cuMemFreeHost, CUresult (*)(void *pointer))                                                                  \
  X(cuMemHostRegister_v2, CUresult (*)(void *pointer, size_t bytes, unsigned flags))                             \
  X(cuMemHostUnregister, CUresult (*)(void *pointer))                                                            \
  X(cuMemHostGetDevicePointer_v2, CUresult (*)(CUdeviceptr * device, void *pointer, unsigned flags))             \
  X(cuMemAllocManaged, CUresult (*)(CUdeviceptr * pointer, size_t bytes, unsigned flags))                       \
  X(cuMemcpyAsync, CUresult (*)(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream))               \
  X(cuMemAddressReserve, CUresult (*)(CUdeviceptr * pointer, size_t bytes, size_t alignment, CUdeviceptr hint,     \
                                      unsigned long long flags))                                                 \
  X(cuMemAddressFree, CUresult (*)(CUdeviceptr pointer, size_t bytes))                                           \
  X(cuMemGetAllocationGranularity, CUresult (*)(size_t * granularity, const MemAllocationProp *prop, int option)) \
  X(cuMemCreate, CUresult (*)(CUmemGenericAllocationHandle * handle, size_t bytes, const MemAllocationProp *prop,  \
                              unsigned long long flags))                                                         \
  X(cuMemRelease, CUresult (*)(CUmemGenericAllocationHandle handle))                                             \
  X(cuMemMap, CUresult (*)(CUdeviceptr pointer, size_t bytes, size_t offset, CUmemGenericAllocationHandle handle,  \
                           unsigned long long flags))                                                            \
  X(cuMemUnmap, CUresult (*)(CUdeviceptr pointer, size_t bytes))                                                 \
  X(cuMemSetAccess, CUresult (*)(CUdeviceptr pointer, size_t bytes, const MemAccessDesc *desc, size_t count))    \
  X(cuMemcpy2DAsync_v2, CUresult (*)(const Memcpy2D *copy, CUstream stream))                                    \
  X(cuMemsetD8Async, CUresult (*)(CUdeviceptr dst, unsigned char value, size_t count, CUstream stream))         \
  X(cuMemsetD16Async, CUresult (*)(CUdeviceptr dst, unsigned short value, size_t count, CUstream stream))       \
  X(cuMemsetD32Async, CUresult (*)(CUdeviceptr dst, unsigned value, size_t count, CUstream stream))             \
  X(cuMemGetAddressRange_v2, CUresult (*)(CUdeviceptr * base, size_t * size, CUdeviceptr pointer))              \
  X(cuIpcGetMemHandle, CUresult (*)(CUipcMemHandle * handle, CUdeviceptr pointer))                               \
  X(cuIpcOpenMemHandle_v2, CUresult (*)(CUdeviceptr * pointer, CUipcMemHandle handle, unsigned flags))          \
  X(cuIpcCloseMemHandle, CUresult (*)(CUdeviceptr pointer))                                                      \
  X(cuModuleLoadDataEx,                                                                                          \
    CUresult (*)(CUmodule * module, const void *image, unsigned count, int *options, void **values))             \
  X(cuModuleLoadData, CUresult (*)(CUmodule * module, const void *image))                                        \
  X(cuModuleUnload, CUresult (*)(CUmodule module))                                                               \
  X(cuLinkCreate_v2, CUresult (*)(unsigned count, int *options, void **values, CUlinkState *state))              \
  X(cuLinkAddData_v2, CUresult (*)(CUlinkState state, int type, void *data, size_t size, const char *name,        \
                                   unsigned count, int *options, void **values))                                 \
  X(cuLinkComplete, CUresult (*)(CUlinkState state, void **image, size_t *size))                                 \
  X(cuLinkDestroy, CUresult (*)(CUlinkState state))                                                              \
  X(cuModuleGetFunction, CUresult (*)(CUfunction * function, CUmodule module, const char *name))                \
  X(cuModuleGetGlobal_v2, CUresult (*)(CUdeviceptr * pointer, size_t * bytes, CUmodule module, const char *name)) \
  X(cuFuncGetAttribute, CUresult (*)(int *value, int attribute, CUfunction function))                           \
  X(cuFuncSetAttribute, CUresult (*)(CUfunction function, int attribute, int value))                            \
  X(cuLaunchKernel, CUresult (*)(CUfunction function, unsigned gx, unsigned gy, unsigned gz, unsigned bx,         \
                                 unsigned by, unsigned bz, unsigned shared_bytes, CUstream stream, void **params, \
                                 void **extra))                                                                  \
  X(cuLaunchCooperativeKernel, CUresult (*)(CUfunction function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, \
                                            unsigned by, unsigned bz, unsigned shared_bytes, CUstream stream,      \
                                            void **params))                                                      \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor,                                                                 \
    CUresult (*)(int *blocks, CUfunction function, int block_size, size_t shared_bytes))                         \
  X(cuStreamCreate, CUresult (*)(CUstream * stream, unsigned flags))                                             \
  X(cuStreamCreateWithPriority, CUresult (*)(CUstream * stream, unsigned flags, int priority))                    \
  X(cuCtxGetStreamPriorityRange, CUresult (*)(int *least, int *greatest))                                        \
  X(cuStreamDestroy_v2, CUresult (*)(CUstream stream))                                                           \
  X(cuStreamSynchronize, CUresult (*)(CUstream stream))                                                          \
  X(cuStreamQuery, CUresult (*)(CUstream stream))                                                                \
  X(cuStreamWaitEvent, CUresult (*)(CUstream stream, CUevent event, unsigned flags))                             \
  X(cuStreamWriteValue32_v2, CUresult (*)(CUstream stream, CUdeviceptr address, unsigned value, unsigned flags)) \
  X(cuStreamWaitValue32_v2, CUresult (*)(CUstream stream, CUdeviceptr address, unsigned value, unsigned flags))  \
  X(cuLaunchHostFunc, CUresult (*)(CUstream stream, CUhostFn function, void *user_data))                        \
  X(cuEventCreate, CUresult (*)(CUevent * event, unsigned flags))                                                \
  X(cuEventDestroy_v2, CUresult (*)(CUevent event))                                                              \
  X(cuEventRecord, CUresult (*)(CUevent event, CUstream stream))                                                 \
  X(cuEventQuery, CUresult (*)(CUevent event))                                                                   \
  X(cuEventSynchronize, CUresult (*)(CUevent event))

struct DriverApi {
#define ZEAL_CUDA_DECLARE(name, type) std::type_identity_t<type> name = nullptr;
  ZEAL_CUDA_ENTRY_POINTS(ZEAL_CUDA_DECLARE)
#undef ZEAL_CUDA_DECLARE
};

struct Opened;

// libcuda.so.1 (or another name), opened and its entry points resolved; closed with the object.
class CudaLibrary {
public:
  ~CudaLibrary();
  CudaLibrary(const CudaLibrary &) = delete;
  CudaLibrary &operator=(const CudaLibrary &) = delete;

  const DriverApi &api() const { return api_; }
  // "CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected", or the number alone when the library has no
  // name for it.
  std::string describe(CUresult result) const;

private:
  friend Opened open_cuda(const char *library);
  CudaLibrary() = default;
  void *handle_ = nullptr;
  DriverApi api_;
};

// The library, or why it could not be had: not found (dlerror's words), or an entry point it lacks.
struct Opened {
  std::unique_ptr<CudaLibrary> library;
  std::string why;
};
Opened open_cuda(const char *library = "libcuda.so.1");

// What a device of the library is, as the CUDA driver reports it.
struct DeviceFacts {
  int ordinal = 0;
  std::string name;
  size_t memory_bytes = 0;
  int compute_major = 0, compute_minor = 0;
  int multiprocessors = 0, warp_size = 0, max_threads_per_block = 0;
  int clock_khz = 0, memory_clock_khz = 0, memory_bus_bits = 0;
  bool unified_addressing = false;
};

// cuInit, then every device's facts; empty with `why` set when CUDA has no device or a call fails.
std::vector<DeviceFacts> list_devices(const CudaLibrary &cuda, std::string &why);

} // namespace zeal::cuda
