// Adapter start-up: the driver list for the Level Zero loader, zeInit once, platforms discovered once.
#include "adapter/core/adapter.hpp"

#include "common/log.hpp"
#include "common/settings.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <string>

namespace zeal::adapter {

namespace {

// Whether NVIDIA's driver library can be loaded here (ZEAL_CUDA_LIBRARY, as the CUDA driver opens it).
bool has_cuda() {
  void *cuda = dlopen(settings().cuda_library.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (cuda != nullptr) dlclose(cuda);
  return cuda != nullptr;
}

} // namespace

void configure_alt_drivers() {
  if (std::getenv("ZE_ENABLE_ALT_DRIVERS") != nullptr) return; // the user's choice wins
  Dl_info self{};
  if (dladdr(reinterpret_cast<void *>(&configure_alt_drivers), &self) == 0 || self.dli_fname == nullptr) {
    logger("zeal-adapter").warn("cannot find the adapter's own folder; the CPU driver may not be found");
    return;
  }
  std::string folder = self.dli_fname;
  auto slash = folder.rfind('/');
  folder = slash == std::string::npos ? std::string(".") : folder.substr(0, slash);
  // The list replaces the loader's default list, so Intel's GPU driver is named
  // too. A name the loader cannot dlopen is skipped (loader 1.8.12, verified),
  // so listing it on a machine without it costs nothing. zeal's CUDA driver, when installed beside the CPU
  // driver, comes after it where CUDA's library is: a driver whose zeInit fails makes the loader's zeInit fail
  // when the validation layer is on (loader 1.8.12), so it is not listed where it would only step aside.
  std::string drivers = folder + "/libze_zeal_cpu.so.1,libze_intel_gpu.so.1";
  const std::string cuda_driver = folder + "/libze_zeal_cuda.so.1";
  if (access(cuda_driver.c_str(), R_OK) == 0 && has_cuda()) drivers += "," + cuda_driver;
  logger("zeal-adapter").debug("ZE_ENABLE_ALT_DRIVERS={}", drivers);
  setenv("ZE_ENABLE_ALT_DRIVERS", drivers.c_str(), 0);
}

Status Adapter::discover() {
  uint32_t count = 0;
  if (Status s = ze_check(zeDriverGet(&count, nullptr), "zeDriverGet"); !s.ok()) return s;
  std::vector<ze_driver_handle_t> drivers(count);
  if (Status s = ze_check(zeDriverGet(&count, drivers.data()), "zeDriverGet"); !s.ok()) return s;
  drivers.resize(count);
  for (ze_driver_handle_t driver : drivers) {
    auto platform = Platform::create(driver);
    if (!platform.ok()) return std::move(platform).error();
    platforms_.push_back(std::move(platform).value());
  }
  return {};
}

Result<Adapter *> Adapter::acquire() {
  static std::once_flag once;
  static Adapter *instance = nullptr;
  static Error failure;
  std::call_once(once, [] {
    configure_alt_drivers();
    ze_result_t r = zeInit(0);
    if (r != ZE_RESULT_SUCCESS) {
      const char *alt = std::getenv("ZE_ENABLE_ALT_DRIVERS");
      failure = make_error(ZEAL_RESULT_ERROR_UNINITIALIZED,
                           fmt::format("initialising Level Zero failed with {} (drivers tried: {})",
                                       ze_result_name(r), alt != nullptr ? alt : "the loader's default list"));
      failure.native_code = r;
      return;
    }
    // Level Zero cannot be shut down and initialised again, so the adapter
    // keeps one reference of its own and lives until the process ends.
    auto adapter = std::unique_ptr<Adapter>(new Adapter());
    if (Status s = adapter->discover(); !s.ok()) {
      failure = std::move(s).error();
      failure.code = ZEAL_RESULT_ERROR_UNINITIALIZED;
      return;
    }
    instance = adapter.release();
  });
  if (instance == nullptr) return failure;
  instance->retain();
  return instance;
}

} // namespace zeal::adapter
