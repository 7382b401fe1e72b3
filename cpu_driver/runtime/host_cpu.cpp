// Reads the host's model, threads, memory, caches and clock, each from the first source that knows it.
#include "cpu_driver/runtime/host_cpu.hpp"

#include "common/settings.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string_view>

namespace zeal::cpu {
namespace {

std::string cpuinfo_value(const std::string &line) {
  auto colon = line.find(':');
  if (colon == std::string::npos) return {};
  auto begin = line.find_first_not_of(" \t", colon + 1);
  return begin == std::string::npos ? std::string() : line.substr(begin);
}

unsigned affinity_threads() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 0;
  return unsigned(CPU_COUNT(&set));
}

// "0-3,8,10-11" (sysfs's cpu lists) into how many CPUs it names; 0 if malformed.
unsigned count_cpu_list(std::string_view list) {
  unsigned count = 0;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    std::string_view range = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    const size_t dash = range.find('-');
    unsigned first = 0, last = 0;
    std::string_view a = range.substr(0, dash), b = dash == std::string_view::npos ? a : range.substr(dash + 1);
    if (std::from_chars(a.data(), a.data() + a.size(), first).ec != std::errc{} ||
        std::from_chars(b.data(), b.data() + b.size(), last).ec != std::errc{} || last < first) {
      return 0;
    }
    count += last - first + 1;
  }
  return count;
}

std::vector<uint64_t> sysfs_data_caches(const std::string &cpu_sysfs) {
  std::map<int, uint64_t> by_level;
  for (int index = 0;; ++index) {
    std::string dir = cpu_sysfs + "/cpu0/cache/index" + std::to_string(index) + "/";
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
  std::vector<uint64_t> sizes;
  for (auto &[level, bytes] : by_level) sizes.push_back(bytes);
  return sizes;
}

} // namespace

HostCpu read_host_cpu(const HostSources &sources) {
  long (*ask)(int) = sources.sysconf != nullptr ? sources.sysconf : ::sysconf;
  HostCpu cpu;
  unsigned processors = 0;
  std::ifstream in(sources.cpuinfo);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("processor", 0) == 0) ++processors;
    else if (cpu.vendor.empty() && line.rfind("vendor_id", 0) == 0) cpu.vendor = cpuinfo_value(line);
    else if (cpu.model.empty() && line.rfind("model name", 0) == 0) cpu.model = cpuinfo_value(line);
    else if (cpu.mhz == 0 && line.rfind("cpu MHz", 0) == 0)
      cpu.mhz = static_cast<uint32_t>(std::atof(cpuinfo_value(line).c_str()));
  }
  if (cpu.model.empty()) cpu.model = "unknown CPU";
  if (cpu.mhz == 0) {
    uint64_t khz = 0;
    if (std::ifstream freq(sources.cpu_sysfs + "/cpu0/cpufreq/cpuinfo_max_freq"); freq >> khz) {
      cpu.mhz = uint32_t(khz / 1000);
    }
  }

  cpu.threads = sources.usable_threads != nullptr ? sources.usable_threads() : affinity_threads();
  if (cpu.threads == 0) cpu.threads = processors;
  if (cpu.threads == 0) {
    std::string online;
    if (std::ifstream list(sources.cpu_sysfs + "/online"); list >> online) cpu.threads = count_cpu_list(online);
  }
  cpu.threads = std::max(1u, cpu.threads);

  long pages = ask(_SC_PHYS_PAGES), page = ask(_SC_PAGESIZE);
  cpu.memory_bytes = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : (uint64_t{4} << 30);

  for (int name : {_SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL4_CACHE_SIZE}) {
    long bytes = ask(name);
    if (bytes > 0) cpu.data_cache_bytes.push_back(uint64_t(bytes));
  }
  if (cpu.data_cache_bytes.empty()) cpu.data_cache_bytes = sysfs_data_caches(sources.cpu_sysfs);
  return cpu;
}

uint64_t default_streaming_threshold(const HostCpu &cpu) {
  const uint64_t last_level = cpu.data_cache_bytes.empty() ? uint64_t{32} << 20 : cpu.data_cache_bytes.back();
  return last_level / 4;
}

} // namespace zeal::cpu
