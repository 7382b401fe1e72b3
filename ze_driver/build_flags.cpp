// parse_build_flags and build_flags_record (build_flags.hpp).
#include "ze_driver/build_flags.hpp"

#include <fmt/format.h>

#include <charconv>
#include <sstream>
#include <string_view>

namespace zeal::ze {
namespace {

void note(std::string &log, const std::string &line) {
  log += line;
  log += '\n';
}

void parse_opt_level(std::string_view value, BuildFlags &out, std::string &log) {
  unsigned level = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), level);
  if (ec != std::errc() || end != value.data() + value.size() || level > 3) {
    note(log, fmt::format("build flag '-ze-opt-level={}' ignored: the level must be 0, 1, 2 or 3", value));
    return;
  }
  out.opt_level = level;
}

// Register-file sizes, 4 GB buffers, debugging and instrumentation, and the -cl-* math relaxations, which do not
// change what is correct.
bool intel_compiler_only(std::string_view flag) {
  for (std::string_view family : {"-ze-opt-", "-ze-intel-", "-ze-gtpin-", "-ze-exp-", "-cl-"})
    if (flag.starts_with(family)) return true;
  return flag == "-g" || flag == "-ze-kernel-debug-enable" || flag == "-ze-no-local-to-generic";
}

} // namespace

std::string build_flags_record(const BuildFlags &flags) {
  std::string record = fmt::format("-ze-opt-level=O{}", flags.opt_level);
  if (flags.library_compilation) record += " -library-compilation";
  if (flags.fiber_barriers) record += " -zeal-barriers=fibers";
  return record;
}

BuildFlags parse_build_flags(const char *flags, std::string &log) {
  BuildFlags out;
  if (flags == nullptr) return out;
  std::istringstream words{std::string(flags)};
  std::string word;
  bool opt_disabled = false;
  constexpr std::string_view opt_level = "-ze-opt-level=";
  while (words >> word) {
    std::string_view flag = word;
    if (flag.starts_with(opt_level)) {
      parse_opt_level(flag.substr(opt_level.size()), out, log);
    } else if (flag == "-ze-opt-disable") {
      opt_disabled = true;
    } else if (flag == "-ze-library-compilation" || flag == "-library-compilation") {
      out.library_compilation = true;
    } else if (flag == "-zeal-barriers=fibers" || flag == "-zeal-barriers=regions") {
      out.fiber_barriers = flag.ends_with("fibers");
    } else if (flag == "-s" && words >> word) {
      // The source file a debugger shows (with -g): zeal's drivers keep no debug information.
    } else if (!intel_compiler_only(flag)) {
      note(log, fmt::format("unknown build flag '{}' ignored", flag));
    }
  }
  if (opt_disabled) out.opt_level = 0;
  return out;
}

} // namespace zeal::ze
