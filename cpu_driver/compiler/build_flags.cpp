// parse_build_flags: Level Zero module build flags -> CompileOptions.
#include "cpu_driver/compiler/compiler.hpp"

#include <fmt/format.h>

#include <charconv>
#include <sstream>
#include <string_view>

namespace zeal::cpu {
namespace {

void note(std::string &log, const std::string &line) {
  log += line;
  log += '\n';
}

void parse_opt_level(std::string_view value, CompileOptions &options, std::string &log) {
  unsigned level = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), level);
  if (ec != std::errc() || end != value.data() + value.size() || level > 3) {
    note(log, fmt::format("build flag '-ze-opt-level={}' ignored: the level must be 0, 1, 2 or 3", value));
    return;
  }
  options.opt_level = level;
}

} // namespace

CompileOptions parse_build_flags(const char *flags, std::string &log) {
  CompileOptions options;
  if (flags == nullptr) return options;
  std::istringstream words{std::string(flags)};
  std::string word;
  bool opt_disabled = false;
  constexpr std::string_view opt_level = "-ze-opt-level=";
  while (words >> word) {
    std::string_view flag = word;
    if (flag.starts_with(opt_level)) {
      parse_opt_level(flag.substr(opt_level.size()), options, log);
    } else if (flag == "-ze-opt-disable") {
      opt_disabled = true;
    } else if (flag == "-ze-library-compilation" || flag == "-library-compilation") {
      options.library_compilation = true;
    } else if (flag == "-zeal-barriers=fibers" || flag == "-zeal-barriers=regions") {
      options.fiber_barriers = flag.ends_with("fibers");
    } else if (flag == "-ze-opt-greater-than-4GB-buffer-required" || flag.starts_with("-cl-")) {
      // Meaningful to GPU compilers only: 64-bit offsets are all a CPU has, and
      // the -cl-* math relaxations do not change what is correct here.
    } else {
      note(log, fmt::format("unknown build flag '{}' ignored", flag));
    }
  }
  // -ze-opt-disable wins wherever it appears, as in Intel's driver.
  if (opt_disabled) options.opt_level = 0;
  return options;
}

} // namespace zeal::cpu
