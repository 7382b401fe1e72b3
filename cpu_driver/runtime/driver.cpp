// The driver singleton and the zeInit / zeDriver* entry points.
#include "cpu_driver/runtime/driver.hpp"

#include "common/log.hpp"
#include "common/settings.hpp"
#include "cpu_driver/compiler/compiler.hpp"
#include "cpu_driver/runtime/ddi.hpp"
#include "zeal/ze_zeal_ext.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <span>
#include <vector>

namespace zeal::cpu {
namespace {

// One root device that ZE_AFFINITY_MASK leaves visible, and which of its sub-devices (all when the mask
// names the root itself).
struct Visible {
  unsigned root;
  std::vector<unsigned> subs;
};

// Entries naming no device are left out with a warning, as Intel's driver ignores them; an empty mask, or
// one naming nothing that exists, leaves every device visible.
std::vector<Visible> visible_devices(const std::vector<std::pair<unsigned, int>> &mask, unsigned roots,
                                     unsigned subs) {
  std::vector<unsigned> every_sub(subs);
  std::iota(every_sub.begin(), every_sub.end(), 0u);
  std::vector<Visible> visible;
  for (unsigned root = 0; root < roots; ++root) {
    Visible v{root, {}};
    bool whole = mask.empty();
    for (auto [listed_root, listed_sub] : mask) {
      if (listed_root != root) continue;
      // A device without sub-devices is its own sub-device 0.
      if (listed_sub < 0 || (subs == 0 && listed_sub == 0)) whole = true;
      else if (unsigned(listed_sub) < subs) v.subs.push_back(unsigned(listed_sub));
    }
    if (whole) v.subs = every_sub;
    std::sort(v.subs.begin(), v.subs.end());
    v.subs.erase(std::unique(v.subs.begin(), v.subs.end()), v.subs.end()); // a sub-device listed twice
    if (whole || !v.subs.empty()) visible.push_back(std::move(v));
  }
  for (auto [listed_root, listed_sub] : mask) {
    if (listed_root < roots && (listed_sub < 0 || unsigned(listed_sub) < std::max(subs, 1u))) continue;
    zeal::logger("zeal-cpu").warn("ZE_AFFINITY_MASK names device {}{}, which does not exist ({} root devices of {} "
                                  "sub-devices); ignored",
                                  listed_root, listed_sub < 0 ? "" : "." + std::to_string(listed_sub), roots, subs);
  }
  if (visible.empty()) return visible_devices({}, roots, subs);
  return visible;
}

uint64_t streaming_threshold(const HostCpu &cpu) {
  if (std::optional<uint64_t> chosen = zeal::settings().cpu_streaming_threshold) return *chosen;
  return default_streaming_threshold(cpu);
}

} // namespace

uint64_t device_timestamp() {
  using namespace std::chrono;
  return uint64_t(duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count());
}

const std::vector<Driver *> &Driver::all() {
  static const std::vector<Driver *> *drivers = [] { // intentionally leaked, see the header
    const HostCpu cpu = read_host_cpu();
    const unsigned count = zeal::settings().cpu_drivers;
    auto *list = new std::vector<Driver *>();
    for (unsigned i = 0; i < count; ++i) list->push_back(new Driver(cpu, i, count));
    return list;
  }();
  return *drivers;
}

// zeInit has refused unknown profiles before the driver exists. ZE_AFFINITY_MASK applies to each driver's
// devices alike.
Driver::Driver(const HostCpu &cpu, unsigned index, unsigned count) : index_(index), count_(count), cpu_(cpu) {
  const zeal::Settings &settings = zeal::settings();
  const Profile &profile = *find_device_profile_row(settings.cpu_profile);
  const unsigned roots = settings.cpu_devices, subs = settings.cpu_subdevices;
  for (const Visible &v : visible_devices(settings.affinity_mask, roots, subs)) {
    const unsigned root_threads = fair_share(threads(), roots, v.root);
    if (v.subs.size() == 1 && subs > 0) {
      // One sub-device of its root: seen as a root device of its own.
      const unsigned id = v.subs.front();
      Placement where{index, count, v.root, roots, int(id), subs, fair_share(root_threads, subs, id)};
      devices_.push_back(std::make_unique<Device>(cpu_, profile, where));
    } else {
      // With sub-devices the root has the visible ones' threads: all of its own when all are visible (or when
      // they share threads), fewer when some are hidden.
      unsigned visible_threads = 0;
      for (unsigned id : v.subs) visible_threads += fair_share(root_threads, subs, id);
      Placement where{index, count, v.root, roots, -1, 0,
                      subs == 0 ? root_threads : std::min(root_threads, visible_threads)};
      devices_.push_back(std::make_unique<Device>(cpu_, profile, where));
      if (subs > 0) devices_.back()->partition(v.subs, subs, root_threads);
    }
    device_handles_.push_back(devices_.back().get());
  }
  // A fixed identity: the same driver build reports the same UUID on every machine and run; the drivers of one
  // library differ in the last byte (the first driver's is the NUL).
  static constexpr char id[] = "zeal-cpu-driver";
  static_assert(sizeof(id) == ZE_MAX_DRIVER_UUID_SIZE);
  std::memcpy(uuid_.id, id, sizeof(id));
  uuid_.id[ZE_MAX_DRIVER_UUID_SIZE - 1] = static_cast<uint8_t>(index);
  set_streaming_store_threshold(streaming_threshold(cpu_));
}

unsigned Driver::threads() const {
  unsigned n = zeal::settings().cpu_threads;
  return fair_share(n != 0 ? n : cpu_.threads, count_, index_);
}

bool Driver::has(const Device *device) const { return device->driver_index() == index_; }

unsigned fair_share(unsigned total, unsigned parts, unsigned n) {
  return std::max(1u, total / parts + (n < total % parts ? 1u : 0u));
}

ThreadPool &Device::pool() {
  std::call_once(pool_once_, [this] {
    pool_ = std::make_unique<ThreadPool>(threads());
    zeal::logger("zeal-cpu").debug("{}: work-groups run on {} threads", properties_.name, pool_->threads());
  });
  return *pool_;
}

namespace {

ze_result_t init(ze_init_flags_t flags) {
  // The device is neither a GPU nor a VPU: asking for only those excludes this driver.
  if (flags & (ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY)) return ZE_RESULT_ERROR_UNINITIALIZED;
  const std::string &profile = zeal::settings().cpu_profile;
  if (find_device_profile_row(profile) == nullptr) {
    zeal::logger("zeal-cpu").error("ZEAL_CPU_PROFILE='{}' is not a device profile; valid profiles: {}", profile,
                                   device_profile_names());
    return ZE_RESULT_ERROR_UNINITIALIZED;
  }
  // Code for a target this CPU cannot run would stop the process on an illegal instruction.
  if (const Result<CpuTarget> &target = process_cpu_target(); !target) {
    zeal::logger("zeal-cpu").error("{}", target.error().message);
    return ZE_RESULT_ERROR_UNINITIALIZED;
  }
  (void)Driver::all(); // idempotent; the loader calls zeInit twice
  return ZE_RESULT_SUCCESS;
}

ze_result_t driver_get(uint32_t *count, ze_driver_handle_t *drivers) {
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return list_out(Driver::all(), count, drivers);
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
  if (auto *free_policies = const_cast<ze_driver_memory_free_ext_properties_t *>(
          find_in_chain<ze_driver_memory_free_ext_properties_t>(properties->pNext,
                                                                ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES))) {
    free_policies->freePolicies =
        ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE | ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE;
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t driver_get_ipc_properties(ze_driver_handle_t driver, ze_driver_ipc_properties_t *properties) {
  if (driver == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (properties == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // Device allocations and IPC event pools live in memory files another process of the host can map.
  properties->flags = ZE_IPC_PROPERTY_FLAG_MEMORY | ZE_IPC_PROPERTY_FLAG_EVENT_POOL;
  return ZE_RESULT_SUCCESS;
}

// Exactly the extensions implemented; listing one means implementing it. The
// kernel code cache is listed while it is on: it is a fact about this process.
std::span<const std::pair<const char *, uint32_t>> extensions() {
  static const std::vector<std::pair<const char *, uint32_t>> listed = [] {
    std::vector<std::pair<const char *, uint32_t>> names = {
        {ZE_MODULE_PROGRAM_EXP_NAME, ZE_MODULE_PROGRAM_EXP_VERSION_1_0},
        {ZE_LINKAGE_INSPECTION_EXT_NAME, ZE_LINKAGE_INSPECTION_EXT_VERSION_1_0},
        {ZE_GLOBAL_OFFSET_EXP_NAME, ZE_GLOBAL_OFFSET_EXP_VERSION_1_0},
        {ZE_MEMORY_FREE_POLICIES_EXT_NAME, ZE_MEMORY_FREE_POLICIES_EXT_VERSION_1_0},
        {ZE_KERNEL_SCHEDULING_HINTS_EXP_NAME, ZE_SCHEDULING_HINTS_EXP_VERSION_1_0},
        {ZE_EVENT_QUERY_TIMESTAMPS_EXP_NAME, ZE_EVENT_QUERY_TIMESTAMPS_EXP_VERSION_1_0},
        {ZE_IMAGE_COPY_EXT_NAME, ZE_IMAGE_COPY_EXT_VERSION_1_0},
        {ZE_IMAGE_QUERY_ALLOC_PROPERTIES_EXT_NAME, ZE_IMAGE_QUERY_ALLOC_PROPERTIES_EXT_VERSION_1_0},
        {ZE_IMAGE_VIEW_EXP_NAME, ZE_IMAGE_VIEW_EXP_VERSION_1_0},
        {ZE_IMAGE_MEMORY_PROPERTIES_EXP_NAME, ZE_IMAGE_MEMORY_PROPERTIES_EXP_VERSION_1_0},
    };
    if (!code_cache_directory().empty())
      names.emplace_back(ZE_ZEAL_KERNEL_CODE_CACHE_EXT_NAME, ZE_ZEAL_KERNEL_CODE_CACHE_EXT_VERSION_1_0);
    return names;
  }();
  return listed;
}

ze_result_t driver_get_extension_properties(ze_driver_handle_t driver, uint32_t *count,
                                            ze_driver_extension_properties_t *out) {
  if (driver == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return ze::list_extensions(extensions(), count, out);
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

} // namespace zeal::cpu
