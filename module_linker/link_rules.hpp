// The link rules: what a call between modules must agree on (sub-group size, range_type), for every caller of them.
#pragma once

#include "module_linker/image_metadata.hpp"
#include "module_linker/kernel_calls.hpp"
#include "module_linker/link_plan.hpp"
#include "module_linker/range_type.hpp"

#include <set>
#include <span>
#include <string>
#include <tuple>
#include <vector>

namespace zeal::module_linker {

// How a range_type mismatch is worded: by type names for a reader of modules (zeal-spirv), or by work-item
// counts for a SYCL user, whose launches the range bounds (the runtime). Both say the same rule.
enum class RangeWording : uint8_t { TypeNames, WorkItemCounts };

// A module as the rules see it: what messages call it and what its metadata declares.
struct RuleModule {
  std::string label;                       // "module 'a.spv' (libx.so)", "program ... for device 'D'"
  const ImageMetadata *metadata = nullptr;
};

// Applies the rules to calls across modules, each (caller, callee) pair once.
class CallRules {
public:
  CallRules(std::span<const RuleModule> modules, uint32_t primary_sub_group_size, RangeWording wording,
            std::vector<Diagnostic> &out)
      : modules_(modules), primary_(primary_sub_group_size), wording_(wording), out_(out) {}

  // Every call into another module that kernel `ep` of module `m` reaches, through `resolve`: the callee must
  // be compiled for the sub-group size the caller runs with (SYCL_INTEL_sub_group: a required size, a
  // declared one, else the device's primary size) and represent every value of the caller's range_type.
  // Returns the Feature bits of the kernel and every definition it reaches.
  uint32_t check_kernel(size_t m, const EntryPoint &ep, const ResolveImport &resolve);

  // What importer `importer` declares of its import `name` (function.<name>.* on the importer) must hold
  // for the definition in module `exporter`.
  void check_declared_import(size_t importer, std::string_view name, size_t exporter);

private:
  struct Side;
  Side kernel_side(size_t m, const EntryPoint &ep) const;
  Side function_side(size_t m, std::string_view name) const;
  void check_call(const Side &caller, const Side &callee);

  std::span<const RuleModule> modules_;
  uint32_t primary_;
  RangeWording wording_;
  std::vector<Diagnostic> &out_;
  std::set<std::tuple<bool, size_t, std::string, size_t, std::string>> checked_;
};

// The objects of a link as the runtime gives them: each is loaded, so each import must be exported by
// exactly one of them.
struct LinkObject {
  RuleModule module;
  const ModuleInfo *calls = nullptr;       // its kernels and exports with the imports each reaches
  std::vector<std::string> left_out;       // kernels not in its module: what they call never runs
};

// Every rule for linking `objects` as given, in order: each import exported once (the program link of
// the C ABI), what importers declare of their imports, then every kernel's calls. A native binary's call
// graph is what its metadata gives; where it gives none, that kernel is not walked.
std::vector<Diagnostic> check_object_link(std::span<const LinkObject> objects, uint32_t primary_sub_group_size);

} // namespace zeal::module_linker
