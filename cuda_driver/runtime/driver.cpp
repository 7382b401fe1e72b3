// The CUDA driver object: CUDA opened once, its devices listed, and the zeInit/zeDriver* entry points.
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/ddi.hpp"
#include "cuda_driver/runtime/driver.hpp"

#include "common/log.hpp"
#include "common/settings.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace zeal::cuda {
namespace {

// The driver, or why there is none; made once.
struct Made {
  Driver *driver = nullptr;
  std::string why;
};

} // namespace

Driver *Driver::instance() {
  static Made made = [] {
    Made out;
    Opened opened = open_cuda(settings().cuda_library.c_str());
    if (opened.library == nullptr) {
      out.why = opened.why;
      return out;
    }
    std::vector<DeviceFacts> facts = list_devices(*opened.library, out.why);
    if (facts.empty()) return out;
    auto *driver = new Driver(); // never destroyed: CUDA's own teardown at exit must not race it
    driver->cuda_ = std::move(opened.library);
    const DriverApi &api = driver->cuda_->api();
    api.cuDriverGetVersion(&driver->cuda_version_);
    for (const DeviceFacts &f : facts) {
      CUdevice device = 0;
      CUcontext context = nullptr;
      if (CUresult r = api.cuDeviceGet(&device, f.ordinal); r != CUDA_SUCCESS) continue;
      if (CUresult r = api.cuDevicePrimaryCtxRetain(&context, device); r != CUDA_SUCCESS) {
        zeal::logger("zeal-cuda").warn("CUDA device {} ({}) has no usable context: {}", f.ordinal, f.name,
                                       driver->cuda_->describe(r));
        continue;
      }
      driver->devices_.push_back(std::make_unique<Device>(*driver->cuda_, f, device, context));
      driver->device_handles_.push_back(driver->devices_.back().get());
    }
    if (driver->devices_.empty()) {
      out.why = "no CUDA device has a usable context";
      return out;
    }
    std::snprintf(reinterpret_cast<char *>(driver->uuid_.id), sizeof driver->uuid_.id, "zeal-cuda-%d",
                  driver->cuda_version_);
    out.driver = driver;
    return out;
  }();
  static std::once_flag told;
  if (made.driver == nullptr)
    std::call_once(told, [] { zeal::logger("zeal-cuda").info("the zeal CUDA driver has no device: {}", made.why); });
  return made.driver;
}

bool Driver::has(const Device *device) const {
  for (const Device *d : device_handles_)
    if (d == device) return true;
  return false;
}

namespace {

ze_result_t init(ze_init_flags_t flags) {
  if (flags != 0 && (flags & ZE_INIT_FLAG_GPU_ONLY) == 0) return ZE_RESULT_ERROR_UNINITIALIZED; // VPU only
  // Without CUDA or a device the driver reports itself unusable, and the loader goes on with the others.
  return Driver::instance() != nullptr ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_UNINITIALIZED;
}

ze_result_t driver_get(uint32_t *count, ze_driver_handle_t *out) {
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Driver *driver = Driver::instance();
  std::vector<Driver *> drivers;
  if (driver != nullptr) drivers.push_back(driver);
  return list_out(drivers, count, out);
}

ze_result_t driver_get_api_version(ze_driver_handle_t driver, ze_api_version_t *version) {
  if (driver == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (version == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *version = ze::driver_api_version;
  return ZE_RESULT_SUCCESS;
}

ze_result_t driver_get_properties(ze_driver_handle_t handle, ze_driver_properties_t *properties) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (properties == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Driver *driver = Driver::from(handle);
  properties->uuid = driver->uuid();
  // The CUDA version (13000 for 13.0) in the low bits: a newer CUDA is a different driver underneath.
  properties->driverVersion = (uint32_t(ZEAL_CUDA_DRIVER_VERSION_MAJOR) << 24) |
                              (uint32_t(ZEAL_CUDA_DRIVER_VERSION_MINOR) << 16) | uint32_t(driver->cuda_version());
  return ZE_RESULT_SUCCESS;
}

ze_result_t driver_get_ipc_properties(ze_driver_handle_t handle, ze_driver_ipc_properties_t *properties) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (properties == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // Device memory (CUDA's IPC handles) and event pools (memory files); not host memory.
  properties->flags = ZE_IPC_PROPERTY_FLAG_MEMORY | ZE_IPC_PROPERTY_FLAG_EVENT_POOL;
  return ZE_RESULT_SUCCESS;
}

ze_result_t driver_get_extension_properties(ze_driver_handle_t handle, uint32_t *count,
                                            ze_driver_extension_properties_t *out) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  static const std::pair<const char *, uint32_t> listed[] = {
      {ZE_GLOBAL_OFFSET_EXP_NAME, ZE_GLOBAL_OFFSET_EXP_VERSION_CURRENT},
  };
  return ze::list_extensions(listed, count, out);
}

} // namespace

void implement(ze_global_dditable_t &t) { t.pfnInit = guarded<init>; }

void implement(ze_driver_dditable_t &t) {
  t.pfnGet = guarded<driver_get>;
  t.pfnGetApiVersion = guarded<driver_get_api_version>;
  t.pfnGetProperties = guarded<driver_get_properties>;
  t.pfnGetIpcProperties = guarded<driver_get_ipc_properties>;
  t.pfnGetExtensionProperties = guarded<driver_get_extension_properties>;
}

} // namespace zeal::cuda
