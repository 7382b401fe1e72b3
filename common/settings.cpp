// Reads the zeal settings table from the environment.
#include "common/settings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <string_view>

namespace zeal {
namespace {

using Parser = std::function<bool(Settings &, std::string_view)>;

bool parse_bool(std::string_view text, bool &out) {
  if (text == "1" || text == "true" || text == "on" || text == "yes") { out = true; return true; }
  if (text == "0" || text == "false" || text == "off" || text == "no") { out = false; return true; }
  return false;
}

// A whole decimal number within [low, high].
bool parse_count(std::string_view text, unsigned low, unsigned high, unsigned &out) {
  unsigned n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc{} || end == text.data() || end != text.data() + text.size() || n < low || n > high) return false;
  out = n;
  return true;
}

// "0,1.1,2": entries N or N.M, without spaces; empty means every device.
bool parse_affinity_mask(std::string_view text, std::vector<std::pair<unsigned, int>> &out) {
  std::vector<std::pair<unsigned, int>> entries;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view entry = text.substr(0, comma);
    size_t dot = entry.find('.');
    unsigned root = 0, sub = 0;
    if (!parse_count(entry.substr(0, dot), 0, 1u << 16, root)) return false;
    if (dot != std::string_view::npos && !parse_count(entry.substr(dot + 1), 0, 1u << 16, sub)) return false;
    entries.emplace_back(root, dot == std::string_view::npos ? -1 : int(sub));
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
    if (text.empty()) return false; // a trailing comma
  }
  out = std::move(entries);
  return true;
}

bool parse_level(std::string_view text, spdlog::level::level_enum &out) {
  static constexpr std::pair<std::string_view, spdlog::level::level_enum> levels[] = {
      {"off", spdlog::level::off},   {"error", spdlog::level::err}, {"warn", spdlog::level::warn},
      {"info", spdlog::level::info}, {"debug", spdlog::level::debug}, {"trace", spdlog::level::trace}};
  auto it = std::find_if(std::begin(levels), std::end(levels), [&](auto &l) { return l.first == text; });
  if (it == std::end(levels)) return false;
  out = it->second;
  return true;
}

// One of `allowed`, kept as given.
bool parse_choice(std::string_view text, std::initializer_list<std::string_view> allowed, std::string &out) {
  if (std::find(allowed.begin(), allowed.end(), text) == allowed.end()) return false;
  out = text;
  return true;
}

bool parse_non_empty(std::string_view text, std::string &out) {
  if (text.empty()) return false;
  out = text;
  return true;
}

// auto (unset: the driver decides), off (never) or a size.
bool parse_streaming_threshold(std::string_view text, std::optional<uint64_t> &out) {
  if (text == "auto") {
    out.reset();
    return true;
  }
  if (text == "off") {
    out = UINT64_MAX;
    return true;
  }
  uint64_t bytes = 0;
  if (!parse_size(text, bytes)) return false;
  out = bytes;
  return true;
}

struct Row {
  SettingDoc doc;
  const char *expected; // what a valid value looks like, for the problem sentence
  Parser parse;
};

// The runtime's and the adapter's settings.
std::vector<Row> runtime_rows() {
  return {
      {{"ZEAL_LOG_LEVEL", "warn", "How much zeal logs to stderr: off, error, warn, info, debug or trace."},
       "one of off, error, warn, info, debug, trace",
       [](Settings &s, std::string_view v) { return parse_level(v, s.log_level); }},
      {{"ZEAL_TRACE", "0", "1 prints every adapter C ABI call with its arguments, result and duration."},
       "0 or 1",
       [](Settings &s, std::string_view v) { return parse_bool(v, s.trace); }},
      {{"ZEAL_ADAPTERS_FORCE_LOAD", "(unset)",
        "Comma-separated adapter library paths; when set, only these are loaded."},
       "a list of paths",
       [](Settings &s, std::string_view v) { s.adapters_force_load = v; return true; }},
      {{"ZEAL_ADAPTERS_SEARCH_PATH", "(unset)",
        "Colon-separated folders searched for adapters before libzeal.so's own folder."},
       "a list of folders",
       [](Settings &s, std::string_view v) { s.adapters_search_path = v; return true; }},
      {{"ONEAPI_DEVICE_SELECTOR", "(unset: every device)",
        "Which devices are visible, in oneAPI's grammar, e.g. level_zero:cpu or !level_zero:1."},
       "a selector",
       [](Settings &s, std::string_view v) { s.device_selector = v; s.device_selector_set = true; return true; }},
      {{"ZEAL_CACHE_PERSISTENT", "1", "1 keeps built device code on disk between runs, 0 turns it off."},
       "0 or 1",
       [](Settings &s, std::string_view v) { return parse_bool(v, s.cache_persistent); }},
      {{"ZEAL_CACHE_DIR", "$XDG_CACHE_HOME/zeal or ~/.cache/zeal", "Where the persistent cache lives."},
       "a folder",
       [](Settings &s, std::string_view v) { s.cache_dir = v; return true; }},
      {{"ZEAL_CACHE_MAX_SIZE", "1G",
        "Most bytes the persistent cache keeps; the least recently used entries go first. Suffixes K, M, G."},
       "a size such as 500M or 2G",
       [](Settings &s, std::string_view v) { return parse_size(v, s.cache_max_size); }},
      {{"ZEAL_VALIDATE_SPIRV", "warn",
        "What spirv-val findings are: warn (logged) or strict (a build error)."},
       "warn or strict",
       [](Settings &s, std::string_view v) { return parse_choice(v, {"warn", "strict"}, s.validate_spirv); }},
  };
}

// The settings of zeal's Level Zero drivers: the CPU driver's, then the CUDA driver's.
std::vector<Row> driver_rows() {
  return {
      {{"ZEAL_CPU_PROFILE", "host", "CPU driver device profile: host (sub-groups 4-64), pvc (16/32), dg2 (8/16/32)."},
       "a profile name",
       [](Settings &s, std::string_view v) { s.cpu_profile = v; return !v.empty(); }},
      {{"ZEAL_CPU_THREADS", "0 (one per CPU this process may run on)",
        "How many worker threads the CPU driver runs, shared out among its root devices."},
       "a number from 0 to 1024",
       [](Settings &s, std::string_view v) { return parse_count(v, 0, 1024, s.cpu_threads); }},
      {{"ZEAL_CPU_DRIVERS", "1",
        "How many drivers the CPU driver library reports (as a machine with two Level Zero drivers would), each with "
        "its own devices; the threads are shared out among them."},
       "a number from 1 to 8",
       [](Settings &s, std::string_view v) { return parse_count(v, 1, 8, s.cpu_drivers); }},
      {{"ZEAL_CPU_DEVICES", "1",
        "How many root devices each CPU driver reports; the threads are shared out among them (each has at least one)."},
       "a number from 1 to 64",
       [](Settings &s, std::string_view v) { return parse_count(v, 1, 64, s.cpu_devices); }},
      {{"ZEAL_CPU_SUBDEVICES", "0",
        "How many sub-devices each CPU driver root device splits into (its threads shared out among them); 0: none."},
       "a number from 0 to 64",
       [](Settings &s, std::string_view v) { return parse_count(v, 0, 64, s.cpu_subdevices); }},
      {{"ZE_AFFINITY_MASK", "(unset: every device)",
        "The CPU driver's devices a process sees, as Level Zero drivers read it: a comma-separated list of root "
        "devices N and sub-devices N.M. A root with one sub-device listed is seen as that sub-device alone."},
       "a list such as 0,1.1",
       [](Settings &s, std::string_view v) { return parse_affinity_mask(v, s.affinity_mask); }},
      {{"ZEAL_CPU_TARGET", "native",
        "The CPU the CPU driver generates code for: native (this CPU, every feature it has) or an x86-64 CPU LLVM 15 "
        "knows, such as x86-64-v2, x86-64-v3, x86-64-v4, znver3 or skylake-avx512. A target needing instructions "
        "this CPU lacks fails zeInit."},
       "native or a CPU name",
       [](Settings &s, std::string_view v) { return parse_non_empty(v, s.cpu_target); }},
      {{"ZEAL_CPU_KERNEL_CACHE", "1",
        "1 lets the CPU driver keep each kernel's compiled code on disk (in the cpu folder of ZEAL_CACHE_DIR) "
        "when ZEAL_CACHE_PERSISTENT is on, and the runtime leaves caching to it; 0 leaves persistence to the "
        "runtime, which then stores whole native binaries as it does for a driver without a code cache."},
       "0 or 1",
       [](Settings &s, std::string_view v) { return parse_bool(v, s.cpu_kernel_cache); }},
      {{"ZEAL_CPU_STREAMING_STORES", "auto",
        "When the CPU driver's kernels store past the caches (non-temporal stores): auto (launches storing more than "
        "a quarter of the last-level cache), off, or a size such as 64M (launches storing at least that much)."},
       "auto, off or a size such as 64M",
       [](Settings &s, std::string_view v) { return parse_streaming_threshold(v, s.cpu_streaming_threshold); }},
      {{"ZEAL_CUDA_LIBRARY", "libcuda.so.1",
        "The CUDA driver library zeal's CUDA driver opens (a name dlopen searches for, or a path). Without it, or "
        "without a device, that driver's zeInit fails and the Level Zero loader goes on without it."},
       "a library name or path",
       [](Settings &s, std::string_view v) { return parse_non_empty(v, s.cuda_library); }},
      {{"ZEAL_CUDA_LIBCLC", "(the libclc-15 file found at build time)",
        "The OpenCL built-ins zeal's CUDA driver links into kernels: Debian's libclc-15 file nvptx64--nvidiacl.bc."},
       "a path",
       [](Settings &s, std::string_view v) { return parse_non_empty(v, s.cuda_libclc); }},
  };
}

const std::vector<Row> &rows() {
  static const std::vector<Row> table = [] {
    std::vector<Row> all = runtime_rows();
    for (Row &row : driver_rows()) all.push_back(std::move(row));
    return all;
  }();
  return table;
}

} // namespace

bool parse_size(std::string_view text, uint64_t &out) {
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc{} || end == text.data()) return false;
  std::string_view suffix(end, text.data() + text.size() - end);
  unsigned shift = 0;
  if (suffix == "K" || suffix == "k") shift = 10;
  else if (suffix == "M" || suffix == "m") shift = 20;
  else if (suffix == "G" || suffix == "g") shift = 30;
  else if (!suffix.empty()) return false;
  if (shift != 0 && n > (UINT64_MAX >> shift)) return false;
  out = n << shift;
  return true;
}

Settings read_settings(const char *(*getenv_fn)(const char *)) {
  Settings s;
  for (const Row &row : rows()) {
    const char *value = getenv_fn(row.doc.variable);
    if (value == nullptr) continue;
    if (!row.parse(s, value))
      s.problems.push_back(fmt::format("{}='{}' is not valid (expected {}); using the default, {}.",
                                       row.doc.variable, value, row.expected, row.doc.default_value));
  }
  return s;
}

const Settings &settings() {
  static const Settings table = read_settings([](const char *name) -> const char * { return std::getenv(name); });
  return table;
}

std::span<const SettingDoc> setting_docs() {
  static const std::vector<SettingDoc> docs = [] {
    std::vector<SettingDoc> out;
    for (const Row &row : rows()) out.push_back(row.doc);
    return out;
  }();
  return docs;
}

} // namespace zeal
