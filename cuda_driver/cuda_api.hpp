// The part of NVIDIA's CUDA driver API the CUDA driver calls, declared here from NVIDIA's documentation (Debian 12 main
// has no CUDA headers, and zeal builds without CUDA): types, the codes and attributes used, and the library opened
// with dlopen at run time. Nothing here links against CUDA; a machine without it gets a sentence saying so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace zeal::cuda {

using CUresult = int;
using CUdevice = int;

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;

// CUdevice_attribute values.
enum class Attribute : int {
  MaxThreadsPerBlock = 1,
  WarpSize = 10,
  MaxRegistersPerBlock = 12,
  ClockRate = 13, // kHz
  MultiprocessorCount = 16,
  MemoryClockRate = 36, // kHz
  GlobalMemoryBusWidth = 37, // bits
  UnifiedAddressing = 41,
  ComputeCapabilityMajor = 75,
  ComputeCapabilityMinor = 76,
};

// The entry points, by the names libcuda.so.1 exports (the _v2 names where cuda.h maps to them).
struct DriverApi {
  CUresult (*cuInit)(unsigned flags) = nullptr;
  CUresult (*cuDriverGetVersion)(int *version) = nullptr;
  CUresult (*cuDeviceGetCount)(int *count) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal) = nullptr;
  CUresult (*cuDeviceGetName)(char *name, int length, CUdevice device) = nullptr;
  CUresult (*cuDeviceTotalMem_v2)(size_t *bytes, CUdevice device) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device) = nullptr;
  CUresult (*cuGetErrorName)(CUresult error, const char **name) = nullptr;
};

struct Opened;

// libcuda.so.1 (or another name), opened and its entry points resolved; closed with the object.
class CudaLibrary {
public:
  ~CudaLibrary();
  CudaLibrary(const CudaLibrary &) = delete;
  CudaLibrary &operator=(const CudaLibrary &) = delete;

  const DriverApi &api() const { return api_; }
  // "CUDA_ERROR_NO_DEVICE (100)", or the number alone when the library has no name for it.
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
