// The CPU compiler's side of the build flags both drivers read (ze_driver/build_flags.hpp).
#include "cpu_driver/compiler/compiler.hpp"

#include "ze_driver/build_flags.hpp"

namespace zeal::cpu {

CompileOptions compile_options_of(const char *flags, std::string &log) {
  const ze::BuildFlags parsed = ze::parse_build_flags(flags, log);
  CompileOptions options;
  options.opt_level = parsed.opt_level;
  options.library_compilation = parsed.library_compilation;
  options.fiber_barriers = parsed.fiber_barriers;
  return options;
}

std::string build_options_record(const CompileOptions &options) {
  return ze::build_flags_record({options.opt_level, options.library_compilation, options.fiber_barriers});
}

} // namespace zeal::cpu
