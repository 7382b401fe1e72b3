// Link planning: which modules provide each import, and every reason the link would fail or misbehave.
#pragma once

#include "module_linker/device_profile.hpp"
#include "module_linker/module_info.hpp"

#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace zeal::module_linker {

// What an exported function (SYCL_EXTERNAL) was compiled for; declared to zeal-pack.
struct FunctionMetadata {
  std::optional<uint32_t> sub_group_size;    // none: the device's primary size
  std::optional<std::string> range_type;     // "int", "unsigned int", "size_t", ...; none: size_t
};

// The optional metadata of a device image (DESIGN.md, "Device-image metadata").
struct ModuleMetadata {
  std::string library;                                   // the shared library holding it, "" if unknown
  std::map<std::string, FunctionMetadata, std::less<>> functions;  // by exported function name
  std::map<std::string, std::string, std::less<>> kernel_range_types;  // by kernel name
};

// Reads metadata key/value entries with the keys of include/zeal/zeal_adapter.h:
// "library", "function.<name>.sub_group_size", "function.<name>.range_type",
// "kernel.<name>.range_type"; other keys are ignored. A bad sub-group size is an
// INVALID_ARGUMENT error naming the key.
Result<ModuleMetadata> parse_module_metadata(std::span<const std::pair<std::string, std::string>> entries);

struct ModuleInput {
  std::string name;                 // for messages: a file or image name
  ModuleInfo info;                  // from inspect_spirv
  ModuleMetadata metadata;
  bool already_linked = false;      // its Level Zero module exists and was dynamically linked
};

enum class DiagnosticCode {
  UnresolvedImport,
  DuplicateSymbol,          // two different definitions and no preference rule
  TypeMismatch,             // import and export types differ
  SubGroupSizeMismatch,     // callee not compiled for the caller's sub-group size
  RangeTypeMismatch,        // callee's range_type cannot represent the caller's range
  UnknownRangeType,         // metadata names a type the checks do not know
  UnsupportedKernel,        // the device lacks a capability or sub-group size the kernel needs
  UnknownRoot,              // a root names no kernel and no module
};
std::string_view diagnostic_code_name(DiagnosticCode code);  // "unresolved-import", ...

struct Diagnostic {
  DiagnosticCode code;
  std::string message;      // one sentence naming symbols, modules and libraries
};

struct Resolution {
  std::string symbol;
  size_t importer = 0;      // index into the inputs
  size_t provider = 0;
};

struct LinkPlan {
  std::vector<size_t> modules;        // inputs taking part: roots first, then providers as found
  std::vector<Resolution> resolutions;
  std::vector<size_t> recreate;       // already-linked inputs to re-create from SPIR-V first
  std::vector<std::string> notes;     // e.g. identical duplicate definitions merged into one
  std::vector<Diagnostic> diagnostics;

  bool ok() const { return diagnostics.empty(); }
};

// Plans the link of the roots (kernel or module names; empty: every input) with the inputs
// that provide their imports, transitively, and checks it for `device`.
//
// Preference rule for a symbol defined by several modules: identical definitions (same type
// and definition fingerprint) are one symbol; otherwise a single Export definition wins over
// LinkOnceODR ones (which promise to be equivalent), and LinkOnceODR-only definitions take the
// first module's. Anything else is a DuplicateSymbol error.
LinkPlan plan_link(std::span<const ModuleInput> inputs, std::span<const std::string> roots,
                   const DeviceProfile &device);

// The plan as text for tools and logs: modules, resolutions, re-creations, then diagnostics.
std::string describe(const LinkPlan &plan, std::span<const ModuleInput> inputs);

} // namespace zeal::module_linker
