// The driver singleton and the zeInit / zeDriver* entry points.
#include "cpu_driver/runtime/driver.hpp"

#include "common/log.hpp"
#include "common/settings.hpp"
#include "cpu_driver/compiler/compiler.hpp"
#include "cpu_driver/runtime/ddi.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <thread>
#include <utility>
#include <unistd.h>

namespace zeal::cpu {
namespace {

std::string cpuinfo_value(const std::string &line) {
  auto colon = line.find(':');
  if (colon == std::string::npos) return {};
  auto begin = line.find_first_not_of(" \t", colon + 1);
  return begin == std::string::npos ? std::string() : line.substr(begin);
}

// Sizes of the data and unified caches, one per level, L1 first: sysconf (glibc asks
// cpuid), else the kernel's view of cpu0 in sysfs.
std::vector<uint64_t> read_data_caches() {
  std::vector<uint64_t> sizes;
  for (int name : {_SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL4_CACHE_SIZE}) {
    long bytes = sysconf(name);
    if (bytes > 0) sizes.push_back(uint64_t(bytes));
  }
  if (!sizes.empty()) return sizes;
  std::map<int, uint64_t> by_level;
  for (int index = 0;; ++index) {
    std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::ifstream level_in(dir + "level"), type_in(dir + "type"), size_in(dir + "size");
    if (!level_in) break;
    int level = 0;
    std::string type, size;
    level_in >> level;
    type_in >> type;
    size_in >> size;
    uint64_t bytes = 0;
    if ((type == "Data" || type == "Unified") && zeal::parse_size(size, bytes) && bytes > 0) by_level[level] = bytes;
  }
  for (auto &[level, bytes] : by_level) sizes.push_back(bytes);
  return sizes;
}

uint64_t streaming_threshold(const HostCpu &cpu) {
  if (std::optional<uint64_t> chosen = zeal::settings().cpu_streaming_threshold) return *chosen;
  // As glibc's memcpy decides when to bypass the caches: past a quarter of the
  // last-level cache, the output would evict what the next kernel reads anyway.
  const uint64_t last_level = cpu.data_cache_bytes.empty() ? uint64_t{32} << 20 : cpu.data_cache_bytes.back();
  return last_level / 4;
}

} // namespace

HostCpu read_host_cpu() {
  HostCpu cpu;
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (cpu.vendor.empty() && line.rfind("vendor_id", 0) == 0) cpu.vendor = cpuinfo_value(line);
    else if (cpu.model.empty() && line.rfind("model name", 0) == 0) cpu.model = cpuinfo_value(line);
    else if (cpu.mhz == 0 && line.rfind("cpu MHz", 0) == 0)
      cpu.mhz = static_cast<uint32_t>(std::atof(cpuinfo_value(line).c_str()));
  }
  if (cpu.model.empty()) cpu.model = "unknown CPU";
  cpu.threads = std::max(1u, std::thread::hardware_concurrency());
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  cpu.memory_bytes = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : (uint64_t{4} << 30);
  cpu.data_cache_bytes = read_data_caches();
  return cpu;
}

uint64_t device_timestamp() {
  using namespace std::chrono;
  return uint64_t(duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count());
}

Driver &Driver::instance() {
  static Driver *driver = new Driver(); // intentionally leaked, see the header
  return *driver;
}

// zeInit has refused unknown profiles before the driver exists.
Driver::Driver() : device_(read_host_cpu(), *find_profile(zeal::settings().cpu_profile)) {
  // A fixed identity: the same driver build reports the same UUID on every machine and run.
  static constexpr char id[] = "zeal-cpu-driver";
  static_assert(sizeof(id) <= ZE_MAX_DRIVER_UUID_SIZE);
  std::memcpy(uuid_.id, id, sizeof(id));
  set_streaming_store_threshold(streaming_threshold(device_.cpu()));
}

unsigned Driver::threads() const {
  unsigned n = zeal::settings().cpu_threads;
  return n != 0 ? n : device_.cpu().threads;
}

ThreadPool &Driver::pool() {
  std::call_once(pool_once_, [this] {
    pool_ = std::make_unique<ThreadPool>(threads());
    zeal::logger("zeal-cpu").debug("work-groups run on {} threads", pool_->threads());
  });
  return *pool_;
}

namespace {

ze_result_t init(ze_init_flags_t flags) {
  // The device is neither a GPU nor a VPU: asking for only those excludes this driver.
  if (flags & (ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY)) return ZE_RESULT_ERROR_UNINITIALIZED;
  const std::string &profile = zeal::settings().cpu_profile;
  if (find_profile(profile) == nullptr) {
    zeal::logger("zeal-cpu").error("ZEAL_CPU_PROFILE='{}' is not a device profile; valid profiles: {}", profile,
                                   profile_names());
    return ZE_RESULT_ERROR_UNINITIALIZED;
  }
  (void)Driver::instance(); // idempotent; the loader calls zeInit twice
  return ZE_RESULT_SUCCESS;
}

ze_result_t driver_get(uint32_t *count, ze_driver_handle_t *drivers) {
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*count == 0 || drivers == nullptr) {
    *count = 1;
    return ZE_RESULT_SUCCESS;
  }
  drivers[0] = &Driver::instance();
  *count = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t driver_get_api_version(ze_driver_handle_t driver, ze_api_version_t *version) {
  if (driver == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (version == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *version = driver_api_version;
  return ZE_RESULT_SUCCESS;
}

ze_result_t driver_get_properties(ze_driver_handle_t driver, ze_driver_properties_t *properties) {
  if (driver == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (properties == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  properties->uuid = Driver::from(driver)->uuid();
  properties->driverVersion = (ZEAL_CPU_DRIVER_VERSION_MAJOR << 24) | (ZEAL_CPU_DRIVER_VERSION_MINOR << 16) | ZEAL_CPU_DRIVER_VERSION_PATCH;
  return ZE_RESULT_SUCCESS;
}

ze_result_t driver_get_ipc_properties(ze_driver_handle_t driver, ze_driver_ipc_properties_t *properties) {
  if (driver == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (properties == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  properties->flags = 0; // no IPC: allocations are private to the process
  return ZE_RESULT_SUCCESS;
}

// Exactly the extensions implemented; listing one means implementing it.
constexpr std::pair<const char *, uint32_t> extensions[] = {
    {ZE_MODULE_PROGRAM_EXP_NAME, ZE_MODULE_PROGRAM_EXP_VERSION_1_0},
    {ZE_LINKAGE_INSPECTION_EXT_NAME, ZE_LINKAGE_INSPECTION_EXT_VERSION_1_0},
};

ze_result_t driver_get_extension_properties(ze_driver_handle_t driver, uint32_t *count,
                                            ze_driver_extension_properties_t *out) {
  if (driver == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  constexpr uint32_t available = static_cast<uint32_t>(std::size(extensions));
  if (*count == 0 || out == nullptr) {
    *count = available;
    return ZE_RESULT_SUCCESS;
  }
  *count = std::min(*count, available);
  for (uint32_t i = 0; i < *count; ++i) {
    std::snprintf(out[i].name, sizeof(out[i].name), "%s", extensions[i].first);
    out[i].version = extensions[i].second;
  }
  return ZE_RESULT_SUCCESS;
}

} // namespace

ze_result_t copy_string_out(const char *text, size_t length, size_t *size, char *out) {
  if (size == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*size == 0 || out == nullptr) {
    *size = length + 1;
    return ZE_RESULT_SUCCESS;
  }
  size_t n = std::min(length, *size - 1);
  std::memcpy(out, text, n);
  out[n] = '\0';
  *size = n + 1;
  return ZE_RESULT_SUCCESS;
}

void implement(ze_global_dditable_t &t) { t.pfnInit = guarded<init>; }

void implement(ze_driver_dditable_t &t) {
  t.pfnGet = guarded<driver_get>;
  t.pfnGetApiVersion = guarded<driver_get_api_version>;
  t.pfnGetProperties = guarded<driver_get_properties>;
  t.pfnGetIpcProperties = guarded<driver_get_ipc_properties>;
  t.pfnGetExtensionProperties = guarded<driver_get_extension_properties>;
}

} // namespace zeal::cpu
