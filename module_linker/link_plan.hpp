// Link planning: which modules provide each import, and every reason the link would fail or misbehave.
#pragma once

#include "module_linker/device_profile.hpp"
#include "module_linker/image_metadata.hpp"
#include "module_linker/module_info.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace zeal::module_linker {

struct ModuleInput {
  std::string name;                 // for messages: a file or image name
  ModuleInfo info;                  // from inspect_spirv
  ImageMetadata metadata;           // library, and what functions and kernels were compiled for (zeal-pack's)
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
// that provide their imports, transitively, and checks it for `device` by the link rules
// (link_rules.hpp) the runtime's program links keep too.
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
