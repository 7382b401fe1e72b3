// The link rules, applied to calls across modules for zeal-spirv's link plans and the runtime's program links alike.
#include "module_linker/link_rules.hpp"

#include "module_linker/range_type.hpp"

#include <fmt/format.h>

namespace zeal::module_linker {

// One side of a call across modules: who, in which module, compiled for what. Text is made only
// for diagnostics, which keeps the walk cheap.
struct CallRules::Side {
  bool is_kernel = false;
  size_t module = 0;
  std::string_view name;
  uint32_t sub_group_size = 0;
  const char *sub_group_source = "";  // "required", "declared" or "the device's primary size"
  std::string_view range_type;        // as declared, else kUndeclaredRangeType
  bool range_declared = false;
};

namespace {

// "int" or "size_t (the default)".
std::string range_text(std::string_view type, bool declared) {
  return declared ? std::string(type) : std::string(type) + " (the default)";
}

} // namespace

CallRules::Side CallRules::kernel_side(size_t m, const EntryPoint &ep) const {
  const KernelRequirements *k = modules_[m].metadata->kernel(ep.name);
  const uint32_t required = ep.required_sub_group_size.value_or(k != nullptr ? k->sub_group_size : 0);
  const bool has_range = k != nullptr && !k->range_type.empty();
  return {true, m, ep.name, required != 0 ? required : primary_,
          required != 0 ? "required" : "the device's primary size",
          has_range ? std::string_view(k->range_type) : kUndeclaredRangeType, has_range};
}

CallRules::Side CallRules::function_side(size_t m, std::string_view name) const {
  const FunctionProperties *f = modules_[m].metadata->function(name);
  const bool declared = f != nullptr && f->sub_group_size != 0;
  const bool has_range = f != nullptr && !f->range_type.empty();
  return {false, m, name, declared ? f->sub_group_size : primary_, declared ? "declared" : "the device's primary size",
          has_range ? std::string_view(f->range_type) : kUndeclaredRangeType, has_range};
}

void CallRules::check_call(const Side &caller, const Side &callee) {
  auto describe = [&](const Side &s) {
    return fmt::format("{} '{}' of {}", s.is_kernel ? "kernel" : "function", s.name, modules_[s.module].label);
  };
  if (caller.sub_group_size != callee.sub_group_size)
    out_.push_back(
        {DiagnosticCode::SubGroupSizeMismatch,
         fmt::format("{} runs with sub-group size {} ({}) and calls '{}', but {} was compiled for sub-group size {} ({})",
                     describe(caller), caller.sub_group_size, caller.sub_group_source, callee.name, describe(callee),
                     callee.sub_group_size, callee.sub_group_source)});
  const std::optional<RangeType> a = parse_range_type(caller.range_type), b = parse_range_type(callee.range_type);
  for (const Side *side : {&caller, &callee})
    if (!parse_range_type(side->range_type))
      out_.push_back({DiagnosticCode::UnknownRangeType,
                      fmt::format("{} declares range_type '{}', which is not an integral type zeal knows",
                                  describe(*side), side->range_type)});
  if (!a || !b || represents(*b, *a)) return;
  if (wording_ == RangeWording::WorkItemCounts && a->max > b->max)
    out_.push_back({DiagnosticCode::RangeTypeMismatch,
                    fmt::format("{} runs with up to {} work-items ({}) and calls '{}', but {} is defined for at most "
                                "{} (range_type)",
                                describe(caller), a->max, caller.range_declared ? "range_type" : "size_t, the default",
                                callee.name, describe(callee), b->max)});
  else
    out_.push_back({DiagnosticCode::RangeTypeMismatch,
                    fmt::format("{} has range_type {} and calls '{}', but {} has range_type {}, which cannot represent "
                                "every value of {}",
                                describe(caller), range_text(caller.range_type, caller.range_declared), callee.name,
                                describe(callee), range_text(callee.range_type, callee.range_declared),
                                caller.range_type)});
}

uint32_t CallRules::check_kernel(size_t m, const EntryPoint &ep, const ResolveImport &resolve) {
  uint32_t features = ep.features;
  const Side root = kernel_side(m, ep);
  walk_kernel_calls(m, ep, resolve, [&](const CallSite &site, std::string_view callee, const ImportTarget &target) {
    if (target.symbol != nullptr) features |= target.symbol->features;
    const Side caller = site.kernel != nullptr ? root : function_side(site.module, site.function->name);
    if (checked_.emplace(caller.is_kernel, caller.module, caller.name, target.module, callee).second)
      check_call(caller, function_side(target.module, callee));
  });
  return features;
}

void CallRules::check_declared_import(size_t importer, std::string_view name, size_t exporter) {
  const FunctionProperties *want = modules_[importer].metadata->function(name);
  if (want == nullptr) return;
  const Side have = function_side(exporter, name);
  const std::string &from = modules_[importer].label, &to = modules_[exporter].label;
  if (want->sub_group_size != 0 && want->sub_group_size != have.sub_group_size)
    out_.push_back({DiagnosticCode::SubGroupSizeMismatch,
                    fmt::format("{} calls '{}' with sub-group size {}, but {} defines it with sub-group size {}{}", from,
                                name, want->sub_group_size, to, have.sub_group_size,
                                std::string_view(have.sub_group_source) == "declared" ? "" : " (the device's primary size)")});
  if (want->range_type.empty()) return;
  const std::optional<RangeType> a = parse_range_type(want->range_type), b = parse_range_type(have.range_type);
  if (!a || !b || represents(*b, *a)) return; // read_image_metadata refuses unknown names
  if (wording_ == RangeWording::WorkItemCounts && a->max > b->max)
    out_.push_back({DiagnosticCode::RangeTypeMismatch,
                    fmt::format("{} calls '{}' with up to {} work-items, but {} defines it for at most {} (range_type)",
                                from, name, a->max, to, b->max)});
  else
    out_.push_back({DiagnosticCode::RangeTypeMismatch,
                    fmt::format("{} calls '{}' with range_type {}, but {} defines it with range_type {}, which cannot "
                                "represent every value of {}",
                                from, name, want->range_type, to, range_text(have.range_type, have.range_declared),
                                want->range_type)});
}

namespace {

// Each import exported by exactly one object; then what the importer declares of it.
void check_symbols(std::span<const LinkObject> objects, CallRules &rules, std::vector<Diagnostic> &out) {
  for (size_t i = 0; i < objects.size(); ++i)
    for (const std::string &name : objects[i].module.metadata->imports) {
      std::vector<size_t> exporters;
      for (size_t o = 0; o < objects.size(); ++o)
        if (contains(objects[o].module.metadata->exports, name)) exporters.push_back(o);
      if (exporters.empty())
        out.push_back({DiagnosticCode::UnresolvedImport,
                       fmt::format("{} imports '{}', which none of the {} programs being linked exports",
                                   objects[i].module.label, name, objects.size())});
      else if (exporters.size() > 1)
        out.push_back({DiagnosticCode::DuplicateSymbol,
                       fmt::format("'{}' imported by {} is exported by both {} and {}", name, objects[i].module.label,
                                   objects[exporters[0]].module.label, objects[exporters[1]].module.label)});
      else
        rules.check_declared_import(i, name, exporters[0]);
    }
}

} // namespace

std::vector<Diagnostic> check_object_link(std::span<const LinkObject> objects, uint32_t primary_sub_group_size) {
  std::vector<RuleModule> modules;
  for (const LinkObject &o : objects) modules.push_back(o.module);
  std::vector<Diagnostic> out;
  CallRules rules(modules, primary_sub_group_size, RangeWording::WorkItemCounts, out);
  check_symbols(objects, rules, out);
  if (!out.empty()) return out;
  auto resolve = [&](std::string_view name) -> std::optional<ImportTarget> {
    for (size_t o = 0; o < objects.size(); ++o)
      if (contains(objects[o].module.metadata->exports, name)) return ImportTarget{o, objects[o].calls->find_export(name)};
    return std::nullopt;
  };
  for (size_t i = 0; i < objects.size(); ++i)
    for (const EntryPoint &ep : objects[i].calls->entry_points) {
      // A kernel left out of the module never runs, so what it calls cannot mismatch.
      if (ep.execution_model != static_cast<uint32_t>(spv::ExecutionModel::Kernel) ||
          contains(objects[i].left_out, ep.name))
        continue;
      rules.check_kernel(i, ep, resolve);
    }
  return out;
}

} // namespace zeal::module_linker
