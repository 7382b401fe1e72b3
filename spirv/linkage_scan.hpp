// The names a SPIR-V module shares through LinkageAttributes: what it imports and exports.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace zeal::spirv {

// The names a module shares through SPIR-V LinkageAttributes.
struct Linkage {
  // Import; SPIR-V built-ins (BuiltIn variables, is_spirv_builtin_name) excluded. Names of a driver's library
  // (is_driver_library_name) stay: a driver keeps those it does not provide for dynamic linking.
  std::vector<std::string> imports;
  std::vector<std::string> exports; // Export; entry points (kernels) excluded
  // HostAccessINTEL names of variables exported under another name: host name, exported name.
  std::vector<std::pair<std::string, std::string>> host_aliases;
  // The module declares FunctionPointersINTEL: its exported functions are meant to be called through pointers,
  // so they stay callable (zeModuleGetFunctionPointer) without -library-compilation, as on Intel's driver.
  bool function_pointers = false;
};
// Reads them from a binary whose word counts were checked (the CPU driver's check_translator_input).
Linkage scan_linkage(std::span<const uint8_t> spirv);

} // namespace zeal::spirv
