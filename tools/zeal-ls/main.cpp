// zeal-ls: lists the devices zeal sees, like sycl-ls, as lines, a verbose report or JSON.
#include <zeal/zeal.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace {

constexpr const char *kUsage =
    "usage: zeal-ls [--verbose] [--json] [--ignore-device-selectors]\n"
    "Lists the devices zeal sees, one line each: [backend:type][backend:index] name driver-version.\n"
    "  --verbose                  platform details and, per device, sub-group and work-group limits, aspects\n"
    "  --json                     the same as JSON\n"
    "  --ignore-device-selectors  list every device, whatever ONEAPI_DEVICE_SELECTOR says\n";

struct Options {
  bool verbose = false;
  bool json = false;
  bool ignore_selector = false;
};

struct DeviceReport {
  std::string backend, type, name, vendor, driver_version, platform, platform_version;
  uint32_t index = 0;
  std::vector<uint32_t> sub_group_sizes;
  uint32_t max_sub_groups = 0, primary_sub_group_size = 0, compute_units = 0;
  bool independent_forward_progress = false;
  size_t max_work_group_size = 0;
  std::array<size_t, 3> max_work_item_sizes{};
  uint64_t local_mem = 0, global_mem = 0;
  std::vector<std::string> aspects;
};

const char *type_name(zeal::device_type t) {
  switch (t) {
  case zeal::device_type::cpu: return "cpu";
  case zeal::device_type::gpu: return "gpu";
  case zeal::device_type::fpga: return "fpga";
  case zeal::device_type::accelerator: return "acc";
  default: return "unknown";
  }
}

DeviceReport describe(const zeal::device &dev) {
  const zeal::platform platform = dev.get_platform();
  DeviceReport r;
  r.backend = dev.backend();
  r.type = type_name(dev.type());
  r.index = dev.index();
  r.name = dev.name();
  r.vendor = dev.vendor();
  r.driver_version = dev.driver_version();
  r.platform = platform.name();
  r.platform_version = platform.backend_version();
  r.sub_group_sizes = dev.sub_group_sizes();
  r.max_sub_groups = dev.info<uint32_t>(ZEAL_DEVICE_INFO_MAX_NUM_SUB_GROUPS);
  r.primary_sub_group_size = dev.info<uint32_t>(ZEAL_DEVICE_INFO_PRIMARY_SUB_GROUP_SIZE);
  r.independent_forward_progress = dev.info<uint32_t>(ZEAL_DEVICE_INFO_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS) != 0;
  r.compute_units = dev.info<uint32_t>(ZEAL_DEVICE_INFO_MAX_COMPUTE_UNITS);
  r.max_work_group_size = dev.max_work_group_size();
  r.max_work_item_sizes = dev.info<std::array<size_t, 3>>(ZEAL_DEVICE_INFO_MAX_WORK_ITEM_SIZES);
  r.local_mem = dev.info<uint64_t>(ZEAL_DEVICE_INFO_LOCAL_MEM_SIZE);
  r.global_mem = dev.info<uint64_t>(ZEAL_DEVICE_INFO_GLOBAL_MEM_SIZE);
  const std::pair<zeal_device_info_t, const char *> aspects[] = {
      {ZEAL_DEVICE_INFO_HAS_FP16, "fp16"},
      {ZEAL_DEVICE_INFO_HAS_FP64, "fp64"},
      {ZEAL_DEVICE_INFO_HAS_ATOMIC64, "atomic64"},
      {ZEAL_DEVICE_INFO_USM_DEVICE_ALLOCATIONS, "usm_device_allocations"},
      {ZEAL_DEVICE_INFO_USM_HOST_ALLOCATIONS, "usm_host_allocations"},
      {ZEAL_DEVICE_INFO_USM_SHARED_ALLOCATIONS, "usm_shared_allocations"}};
  for (const auto &[key, name] : aspects)
    if (dev.info<uint32_t>(key) != 0) r.aspects.emplace_back(name);
  return r;
}

std::string json_string(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", c);
    else out += c;
  }
  return out + "\"";
}

std::vector<std::string> quoted(const std::vector<std::string> &items) {
  std::vector<std::string> out;
  for (const auto &i : items) out.push_back(json_string(i));
  return out;
}

void print_json(const std::vector<DeviceReport> &reports) {
  std::printf("{\n  \"devices\": [");
  for (size_t i = 0; i < reports.size(); ++i) {
    const DeviceReport &r = reports[i];
    std::printf("%s\n    {\"backend\": %s, \"type\": %s, \"index\": %u, \"name\": %s, \"vendor\": %s, "
                "\"driver_version\": %s, \"platform\": %s, \"platform_version\": %s, \"sub_group_sizes\": [%s], "
                "\"max_num_sub_groups\": %u, \"primary_sub_group_size\": %u, "
                "\"sub_group_independent_forward_progress\": %s, \"max_compute_units\": %u, "
                "\"max_work_group_size\": %zu, \"max_work_item_sizes\": [%s], \"local_mem_size\": %llu, "
                "\"global_mem_size\": %llu, \"aspects\": [%s]}",
                i == 0 ? "" : ",", json_string(r.backend).c_str(), json_string(r.type).c_str(), r.index,
                json_string(r.name).c_str(), json_string(r.vendor).c_str(), json_string(r.driver_version).c_str(),
                json_string(r.platform).c_str(), json_string(r.platform_version).c_str(),
                fmt::format("{}", fmt::join(r.sub_group_sizes, ", ")).c_str(), r.max_sub_groups,
                r.primary_sub_group_size, r.independent_forward_progress ? "true" : "false", r.compute_units,
                r.max_work_group_size, fmt::format("{}", fmt::join(r.max_work_item_sizes, ", ")).c_str(),
                static_cast<unsigned long long>(r.local_mem), static_cast<unsigned long long>(r.global_mem),
                fmt::format("{}", fmt::join(quoted(r.aspects), ", ")).c_str());
  }
  std::printf("\n  ]\n}\n");
}

void print_lines(const std::vector<DeviceReport> &reports, bool verbose) {
  for (const DeviceReport &r : reports) {
    std::printf("[%s:%s][%s:%u] %s %s\n", r.backend.c_str(), r.type.c_str(), r.backend.c_str(), r.index,
                r.name.c_str(), r.driver_version.c_str());
    if (!verbose) continue;
    std::printf("    platform:                 %s (Level Zero %s)\n", r.platform.c_str(), r.platform_version.c_str());
    std::printf("    vendor:                   %s\n", r.vendor.c_str());
    std::printf("    compute units:            %u\n", r.compute_units);
    std::printf("    sub-group sizes:          %s\n", fmt::format("{}", fmt::join(r.sub_group_sizes, ", ")).c_str());
    std::printf("    primary sub-group size:   %u\n", r.primary_sub_group_size);
    std::printf("    max sub-groups:           %u\n", r.max_sub_groups);
    std::printf("    independent forward progress of sub-groups: %s\n",
                r.independent_forward_progress ? "yes" : "no");
    std::printf("    max work-group size:      %zu\n", r.max_work_group_size);
    std::printf("    max work-item sizes:      %s\n",
                fmt::format("{}", fmt::join(r.max_work_item_sizes, " x ")).c_str());
    std::printf("    local memory:             %llu bytes\n", static_cast<unsigned long long>(r.local_mem));
    std::printf("    global memory:            %llu bytes\n", static_cast<unsigned long long>(r.global_mem));
    std::printf("    aspects:                  %s\n", fmt::format("{}", fmt::join(r.aspects, " ")).c_str());
  }
}

} // namespace

int main(int argc, char **argv) {
  Options opts;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--verbose") == 0 || std::strcmp(argv[i], "-v") == 0) opts.verbose = true;
    else if (std::strcmp(argv[i], "--json") == 0) opts.json = true;
    else if (std::strcmp(argv[i], "--ignore-device-selectors") == 0) opts.ignore_selector = true;
    else {
      std::fprintf(stderr, "zeal-ls: unknown option '%s'\n%s", argv[i], kUsage);
      return 2;
    }
  }
  try {
    const auto policy = opts.ignore_selector ? zeal::selector_policy::ignore : zeal::selector_policy::apply;
    const std::vector<zeal::device> devices = zeal::device::get_devices(zeal::device_type::all, policy);
    std::vector<DeviceReport> reports;
    for (const zeal::device &dev : devices) reports.push_back(describe(dev));
    if (opts.json) print_json(reports);
    else print_lines(reports, opts.verbose);
    if (reports.empty()) {
      std::string selector;
      if (std::optional<std::string> active = zeal::active_device_selector(); active && !opts.ignore_selector)
        selector = fmt::format(" for ONEAPI_DEVICE_SELECTOR='{}'", *active);
      std::fprintf(stderr, "zeal-ls: no device found%s (set ZEAL_LOG_LEVEL=info to see where zeal looked)\n",
                   selector.c_str());
      return 1;
    }
    return 0;
  } catch (const zeal::exception &e) {
    std::fprintf(stderr, "zeal-ls: %s\n", e.what());
    return 1;
  }
}
