// The build flags of zeModuleCreate, as both zeal drivers read them (Intel's compiler's spelling), and how a native
// binary records the ones its code was built with.
#pragma once

#include <string>

namespace zeal::ze {

struct BuildFlags {
  unsigned opt_level = 2;           // -ze-opt-level=N (0 to 3); 0 with -ze-opt-disable, wherever it appears
  bool library_compilation = false; // -library-compilation or -ze-library-compilation: exported functions stay
                                    // visible to other modules
  bool fiber_barriers = false;      // -zeal-barriers=fibers (=regions is the default): the CPU driver's barriers
                                    // as fibers; the CUDA driver has no use for it
};

// Reads `flags` (null or empty: the defaults). The flags of Intel's GPU compiler that mean nothing to zeal's
// drivers (-ze-opt-* but the level, -ze-intel-*, -ze-gtpin-*, -ze-exp-*, -cl-*, -g, -s FILE,
// -ze-kernel-debug-enable, -ze-no-local-to-generic) are accepted silently, as Intel's driver accepts them where they
// do nothing; an unknown flag or a bad level gets a line in `log` and is ignored.
BuildFlags parse_build_flags(const char *flags, std::string &log);

// "-ze-opt-level=O2 -library-compilation": the flags a module's code was built with, spelled as Intel's compiler
// records them in its binaries, so that a native binary says how it was made.
std::string build_flags_record(const BuildFlags &flags);

} // namespace zeal::ze
