// Per-kernel link checks: device support, and sub-group size and range_type agreement across modules.
#include "module_linker/kernel_calls.hpp"
#include "module_linker/link_internal.hpp"

#include <fmt/format.h>

#include <limits>
#include <set>

namespace zeal::module_linker::detail {
namespace {

struct Range {
  int64_t min = 0;
  uint64_t max = 0;
};

// The integral types a range_type property may name (sycl_ext_oneapi_range_type), LP64.
std::optional<Range> range_of(std::string_view name) {
  if (name.starts_with("std::")) name.remove_prefix(5);
  constexpr int64_t i8 = INT8_MIN, i16 = INT16_MIN, i32 = INT32_MIN, i64 = INT64_MIN;
  struct Row { std::string_view name; Range range; };
  static constexpr Row kRows[] = {
      {"char", {i8, INT8_MAX}},          {"signed char", {i8, INT8_MAX}},   {"int8_t", {i8, INT8_MAX}},
      {"unsigned char", {0, UINT8_MAX}}, {"uint8_t", {0, UINT8_MAX}},       {"short", {i16, INT16_MAX}},
      {"int16_t", {i16, INT16_MAX}},     {"unsigned short", {0, UINT16_MAX}}, {"uint16_t", {0, UINT16_MAX}},
      {"int", {i32, INT32_MAX}},         {"int32_t", {i32, INT32_MAX}},     {"unsigned int", {0, UINT32_MAX}},
      {"unsigned", {0, UINT32_MAX}},     {"uint32_t", {0, UINT32_MAX}},     {"long", {i64, INT64_MAX}},
      {"long long", {i64, INT64_MAX}},   {"int64_t", {i64, INT64_MAX}},     {"ptrdiff_t", {i64, INT64_MAX}},
      {"unsigned long", {0, UINT64_MAX}}, {"unsigned long long", {0, UINT64_MAX}},
      {"uint64_t", {0, UINT64_MAX}},     {"size_t", {0, UINT64_MAX}},
  };
  for (const Row &row : kRows)
    if (row.name == name) return row.range;
  return std::nullopt;
}

// One side of a call across modules: who, in which module, compiled for what. Text is made
// only for diagnostics, which keeps the walk cheap.
struct Caller {
  const void *key = nullptr;       // the EntryPoint or Symbol, to check each pair once
  bool is_kernel = false;
  size_t module = 0;
  std::string_view name;
  uint32_t sub_group_size = 0;
  const char *sub_group_source = "";  // "required", "declared" or "the device's primary size"
  std::string_view range_type;
  bool range_default = false;
};

std::string describe(const PlanState &state, const Caller &c) {
  return fmt::format("{} '{}' of {}", c.is_kernel ? "kernel" : "function", c.name, module_label(state.inputs[c.module]));
}

Caller function_side(const PlanState &state, const Definition &def) {
  const ModuleInput &in = state.inputs[def.module];
  Caller c;
  c.key = def.symbol;
  c.module = def.module;
  c.name = def.symbol->name;
  auto meta = in.metadata.functions.find(def.symbol->name);
  bool known = meta != in.metadata.functions.end();
  bool has_sg = known && meta->second.sub_group_size;
  c.sub_group_size = has_sg ? *meta->second.sub_group_size : state.device->primary_sub_group_size;
  c.sub_group_source = has_sg ? "declared" : "the device's primary size";
  bool has_range = known && meta->second.range_type;
  c.range_type = has_range ? std::string_view(*meta->second.range_type) : "size_t";
  c.range_default = !has_range;
  return c;
}

Caller kernel_side(const PlanState &state, const RootKernel &k) {
  const ModuleInput &in = state.inputs[k.module];
  Caller c;
  c.key = k.entry;
  c.is_kernel = true;
  c.module = k.module;
  c.name = k.entry->name;
  c.sub_group_size = k.entry->required_sub_group_size.value_or(state.device->primary_sub_group_size);
  c.sub_group_source = k.entry->required_sub_group_size ? "required" : "the device's primary size";
  auto range = in.metadata.kernel_range_types.find(k.entry->name);
  c.range_default = range == in.metadata.kernel_range_types.end();
  c.range_type = c.range_default ? "size_t" : std::string_view(range->second);
  return c;
}

std::string range_text(const Caller &c) {
  return c.range_default ? std::string(c.range_type) + " (the default)" : std::string(c.range_type);
}

void check_call(const PlanState &state, const Caller &caller, const Caller &callee, LinkPlan &plan) {
  if (caller.sub_group_size != callee.sub_group_size)
    plan.diagnostics.push_back(
        {DiagnosticCode::SubGroupSizeMismatch,
         fmt::format("{} runs with sub-group size {} ({}) and calls '{}', but {} was compiled for sub-group size {} ({})",
                     describe(state, caller), caller.sub_group_size, caller.sub_group_source, callee.name,
                     describe(state, callee), callee.sub_group_size, callee.sub_group_source)});
  std::optional<Range> a = range_of(caller.range_type), b = range_of(callee.range_type);
  for (const Caller *side : {&caller, &callee})
    if (!range_of(side->range_type))
      plan.diagnostics.push_back({DiagnosticCode::UnknownRangeType,
                                  fmt::format("{} declares range_type '{}', which is not an integral type zeal knows",
                                              describe(state, *side), side->range_type)});
  if (a && b && (b->min > a->min || b->max < a->max))
    plan.diagnostics.push_back(
        {DiagnosticCode::RangeTypeMismatch,
         fmt::format("{} has range_type {} and calls '{}', but {} has range_type {}, which cannot represent every value "
                     "of {}",
                     describe(state, caller), range_text(caller), callee.name, describe(state, callee),
                     range_text(callee), caller.range_type)});
}

using CheckedPairs = std::set<std::pair<const void *, const void *>>;

// Walks every call from the kernel into other modules, transitively; returns the features of
// everything the kernel runs. Each (caller, callee) pair is checked once per plan.
uint32_t walk_kernel(const PlanState &state, const RootKernel &k, LinkPlan &plan, CheckedPairs &checked) {
  uint32_t features = k.entry->features;
  const Caller root = kernel_side(state, k);
  auto resolve = [&](std::string_view name) -> std::optional<ImportTarget> {
    auto def = state.chosen.find(name);
    if (def == state.chosen.end()) return std::nullopt; // unresolved: already diagnosed
    return ImportTarget{def->second.module, def->second.symbol};
  };
  auto visit = [&](const CallSite &site, std::string_view, const ImportTarget &target) {
    features |= target.symbol->features;
    Caller caller = site.kernel != nullptr ? root : function_side(state, {site.module, site.function});
    Caller callee = function_side(state, {target.module, target.symbol});
    if (checked.emplace(caller.key, callee.key).second) check_call(state, caller, callee, plan);
  };
  walk_kernel_calls(k.module, *k.entry, resolve, visit);
  return features;
}

} // namespace

void check_kernels(const PlanState &state, LinkPlan &plan) {
  CheckedPairs checked;
  for (const RootKernel &k : state.kernels) {
    uint32_t features = walk_kernel(state, k, plan, checked);
    std::vector<std::string> reasons = kernel_unsupported_reasons(*k.entry, features, *state.device);
    for (const std::string &why : reasons)
      plan.diagnostics.push_back({DiagnosticCode::UnsupportedKernel,
                                  fmt::format("kernel '{}' of {} cannot run on device '{}': it {}", k.entry->name,
                                              module_label(state.inputs[k.module]), state.device->name, why)});
  }
}

} // namespace zeal::module_linker::detail
