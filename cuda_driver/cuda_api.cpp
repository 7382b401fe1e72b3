// The CUDA driver API through dlopen (cuda_api.hpp).
#include "cuda_driver/cuda_api.hpp"

#include <dlfcn.h>

#include <utility>

namespace zeal::cuda {
namespace {

// Resolves `name` into `slot`; false, with `why` naming it, when the library lacks it.
template <class F>
bool resolve(void *handle, const char *library, const char *name, F &slot, std::string &why) {
  slot = reinterpret_cast<F>(dlsym(handle, name));
  if (slot == nullptr) why = std::string(library) + " has no " + name + ": it is not NVIDIA's CUDA driver library";
  return slot != nullptr;
}

} // namespace

CudaLibrary::~CudaLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

std::string CudaLibrary::describe(CUresult result) const {
  const char *name = nullptr;
  const char *text = nullptr;
  if (api_.cuGetErrorName != nullptr && api_.cuGetErrorName(result, &name) == CUDA_SUCCESS && name != nullptr) {
    std::string described = std::string(name) + " (" + std::to_string(result) + ")";
    if (api_.cuGetErrorString(result, &text) == CUDA_SUCCESS && text != nullptr) described += std::string(": ") + text;
    return described;
  }
  return std::to_string(result);
}

Opened open_cuda(const char *library) {
  Opened out;
  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char *error = dlerror();
    out.why = std::string("the CUDA driver library ") + library + " could not be opened: " +
              (error != nullptr ? error : "no reason given");
    return out;
  }
  std::unique_ptr<CudaLibrary> cuda(new CudaLibrary());
  cuda->handle_ = handle;
  DriverApi &api = cuda->api_;
  bool all = true;
#define ZEAL_CUDA_RESOLVE(name, type) all = all && resolve(handle, library, #name, api.name, out.why);
  ZEAL_CUDA_ENTRY_POINTS(ZEAL_CUDA_RESOLVE)
#undef ZEAL_CUDA_RESOLVE
  if (all) out.library = std::move(cuda);
  return out;
}

std::vector<DeviceFacts> list_devices(const CudaLibrary &cuda, std::string &why) {
  const DriverApi &api = cuda.api();
  auto failed = [&](const char *call, CUresult result) {
    why = std::string(call) + " failed: " + cuda.describe(result);
    return std::vector<DeviceFacts>{};
  };
  if (CUresult r = api.cuInit(0); r != CUDA_SUCCESS) return failed("cuInit", r);
  int count = 0;
  if (CUresult r = api.cuDeviceGetCount(&count); r != CUDA_SUCCESS) return failed("cuDeviceGetCount", r);
  if (count == 0) {
    why = "the CUDA driver reports no device";
    return {};
  }
  std::vector<DeviceFacts> devices;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice device = 0;
    if (CUresult r = api.cuDeviceGet(&device, ordinal); r != CUDA_SUCCESS) return failed("cuDeviceGet", r);
    DeviceFacts facts;
    facts.ordinal = ordinal;
    char name[256] = {};
    if (CUresult r = api.cuDeviceGetName(name, sizeof name - 1, device); r != CUDA_SUCCESS)
      return failed("cuDeviceGetName", r);
    facts.name = name;
    if (CUresult r = api.cuDeviceTotalMem_v2(&facts.memory_bytes, device); r != CUDA_SUCCESS)
      return failed("cuDeviceTotalMem_v2", r);
    const std::pair<Attribute, int *> wanted[] = {
        {Attribute::ComputeCapabilityMajor, &facts.compute_major},
        {Attribute::ComputeCapabilityMinor, &facts.compute_minor},
        {Attribute::MultiprocessorCount, &facts.multiprocessors},
        {Attribute::WarpSize, &facts.warp_size},
        {Attribute::MaxThreadsPerBlock, &facts.max_threads_per_block},
        {Attribute::ClockRate, &facts.clock_khz},
        {Attribute::MemoryClockRate, &facts.memory_clock_khz},
        {Attribute::GlobalMemoryBusWidth, &facts.memory_bus_bits},
    };
    for (auto [attribute, out] : wanted)
      if (CUresult r = api.cuDeviceGetAttribute(out, int(attribute), device); r != CUDA_SUCCESS)
        return failed("cuDeviceGetAttribute", r);
    int unified = 0;
    if (CUresult r = api.cuDeviceGetAttribute(&unified, int(Attribute::UnifiedAddressing), device); r != CUDA_SUCCESS)
      return failed("cuDeviceGetAttribute", r);
    facts.unified_addressing = unified != 0;
    devices.push_back(std::move(facts));
  }
  return devices;
}

} // namespace zeal::cuda
