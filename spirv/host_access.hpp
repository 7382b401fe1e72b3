// SPV_INTEL_global_variable_host_access (DPC++'s device_global), which neither LLVMSPIRVLib 15 nor
// SPIRV-Tools 2023.1 (Debian 12) can read, rewritten into what both can.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace zeal::spirv {

// The capability, the extension and the HostAccessINTEL decorations are
// removed; a decorated variable without linkage becomes an export under its
// host name (so a driver's zeModuleGetGlobalPointer finds it by that name, as
// Intel's does), and one exported under another name is listed in `aliases`.
// `spirv` stays empty when the module does not use the extension, or is too
// malformed to rewrite (the reader that follows then says how): such a module
// is scanned where it lies, not copied.
struct HostAccessRewrite {
  std::vector<uint8_t> spirv;
  std::vector<std::pair<std::string, std::string>> aliases; // host name, exported name

  // The module to read: the rewritten one, else `input` itself.
  std::span<const uint8_t> module_or(std::span<const uint8_t> input) const {
    return spirv.empty() ? input : std::span<const uint8_t>(spirv);
  }
};
HostAccessRewrite rewrite_host_access(std::span<const uint8_t> spirv);

} // namespace zeal::spirv
