// The names a SPIR-V module shares through LinkageAttributes: what it imports and exports.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace zeal::cpu::detail {

// The names a module shares through SPIR-V LinkageAttributes.
struct SpirvLinkage {
  std::vector<std::string> imports; // Import; built-ins (`__spirv_*` names, BuiltIn variables) excluded
  std::vector<std::string> exports; // Export; entry points (kernels) excluded
  // HostAccessINTEL names of variables exported under another name: host name, exported name.
  std::vector<std::pair<std::string, std::string>> host_aliases;
  // The module declares FunctionPointersINTEL: its exported functions are meant to be called through pointers,
  // so they stay callable (zeModuleGetFunctionPointer) without -library-compilation, as on Intel's driver.
  bool function_pointers = false;
};
// Reads them from a binary that passed check_translator_input.
SpirvLinkage scan_linkage(std::span<const uint8_t> spirv);

} // namespace zeal::cpu::detail
