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

bool gpu_only(std::string_view flag) {
  for (std::string_view family : {"-ze-opt-", "-ze-intel-", "-ze-gtpin-", "-ze-exp-", "-cl-"})
    if (flag.starts_with(family)) return true;
  return flag == "-g" || flag == "-ze-kernel-debug-enable" || flag == "-ze-no-local-to-generic";
}

} // namespace

std::string build_options_record(const CompileOptions &options) {
  std::string record = fmt::format("-ze-opt-level=O{}", options.opt_level);
  if (options.library_compilation) record += " -library-compilation";
  if (options.fiber_barriers) record += " -zeal-barriers=fibers";
  return record;
}

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
    } else if (flag == "-s" && words >> word) {
      // The source file a debugger shows (with -g): the CPU driver keeps no debug information.
    } else if (gpu_only(flag)) {
      // Meaningful to GPU compilers only, accepted silently as Intel's driver accepts them on GPUs that ignore
      // them: register-file sizes and 4 GB buffers (64-bit offsets are all a CPU has), debugging and
      // instrumentation, and the -cl-* math relaxations, which do not change what is correct here.
    } else {
      note(log, fmt::format("unknown build flag '{}' ignored", flag));
    }
  }
  // -ze-opt-disable wins wherever it appears, as in Intel's driver.
  if (opt_disabled) options.opt_level = 0;
  return options;
}

} // namespace zeal::cpu
