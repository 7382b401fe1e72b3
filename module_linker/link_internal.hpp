// Internal to plan_link: the state its phases share (link_plan.cpp resolves, link_checks.cpp checks).
#pragma once

#include "module_linker/link_plan.hpp"

#include <string_view>
#include <unordered_map>
#include <vector>

namespace zeal::module_linker::detail {

struct Definition {
  size_t module = 0;
  const Symbol *symbol = nullptr;
};

struct RootKernel {
  size_t module = 0;
  const EntryPoint *entry = nullptr;
};

struct PlanState {
  std::span<const ModuleInput> inputs;
  const DeviceProfile *device = nullptr;
  // Every input's exports by name: the first definition inline, further ones (rare) beside it.
  struct Exporters {
    Definition first;
    std::vector<Definition> more;
  };
  std::unordered_map<std::string_view, Exporters> exports;
  std::unordered_map<std::string_view, Definition> chosen;               // symbol -> its provider
  std::vector<bool> in_plan;
  std::vector<RootKernel> kernels;
};

// "module 'a.spv'" or "module 'a.spv' (libfoo.so)".
std::string module_label(const ModuleInput &input);

// Per-kernel checks over the resolved plan: device support, sub-group sizes and range_types
// across every call into another module.
void check_kernels(const PlanState &state, LinkPlan &plan);

} // namespace zeal::module_linker::detail
