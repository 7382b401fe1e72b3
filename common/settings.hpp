// The typed table of every zeal setting, read once from the environment.
#pragma once

#include <spdlog/common.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace zeal {

struct Settings {
  spdlog::level::level_enum log_level = spdlog::level::warn; // ZEAL_LOG_LEVEL
  bool trace = false;                                        // ZEAL_TRACE
  std::string adapters_force_load;                           // ZEAL_ADAPTERS_FORCE_LOAD
  std::string adapters_search_path;                          // ZEAL_ADAPTERS_SEARCH_PATH
  std::string device_selector;                               // ONEAPI_DEVICE_SELECTOR
  bool device_selector_set = false;
  bool cache_persistent = true;                              // ZEAL_CACHE_PERSISTENT
  std::string cache_dir;                                     // ZEAL_CACHE_DIR
  uint64_t cache_max_size = uint64_t{1} << 30;               // ZEAL_CACHE_MAX_SIZE, bytes
  std::string validate_spirv = "warn";                       // ZEAL_VALIDATE_SPIRV
  std::string cpu_profile = "host";                          // ZEAL_CPU_PROFILE
  unsigned cpu_threads = 0;                                  // ZEAL_CPU_THREADS; 0: one per CPU the process may use
  unsigned cpu_drivers = 1;                                  // ZEAL_CPU_DRIVERS: drivers the CPU driver library reports
  unsigned cpu_devices = 1;                                  // ZEAL_CPU_DEVICES: root devices of each CPU driver
  unsigned cpu_subdevices = 0;                               // ZEAL_CPU_SUBDEVICES: sub-devices of each; 0: none
  // ZE_AFFINITY_MASK as the CPU driver reads it: the devices listed, each a root index and an optional
  // sub-device index (-1: the whole root). Empty: every device.
  std::vector<std::pair<unsigned, int>> affinity_mask;
  std::string cpu_target = "native";                         // ZEAL_CPU_TARGET: the CPU the driver compiles for
  bool cpu_kernel_cache = true;                              // ZEAL_CPU_KERNEL_CACHE
  // ZEAL_CPU_STREAMING_STORES: bytes a launch must store before its stores bypass
  // the caches; unset ("auto"): a quarter of the last-level cache. "off": UINT64_MAX.
  std::optional<uint64_t> cpu_streaming_threshold;
  std::string cuda_library = "libcuda.so.1";                 // ZEAL_CUDA_LIBRARY: what the CUDA driver opens
  std::string cuda_libclc;                                   // ZEAL_CUDA_LIBCLC; empty: the path found at build time

  // Variables that were set to a value zeal could not use, each as a sentence.
  std::vector<std::string> problems;
};

// One row of the settings table: the variable, what it means, and its default.
struct SettingDoc {
  const char *variable;
  const char *default_value;
  const char *meaning;
};

// Reads the environment on first call; later calls return the same table.
const Settings &settings();

// Parses a table from an environment lookup; used by settings() and by tests.
Settings read_settings(const char *(*getenv_fn)(const char *));

std::span<const SettingDoc> setting_docs();

// "123", "64K", "500M", "2G" (powers of 1024) into bytes; false for anything
// else. The size settings are written this way, and so are sysfs cache sizes.
bool parse_size(std::string_view text, uint64_t &out);

} // namespace zeal
