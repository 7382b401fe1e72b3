// plan_link: a pipeline of phases (index, roots, resolve, duplicates, re-creations, kernel checks) filling one LinkPlan.
#include "module_linker/link_plan.hpp"

#include "module_linker/link_rules.hpp"
#include "spirv/imports.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <string_view>
#include <unordered_map>

namespace zeal::module_linker {
namespace {

struct Definition {
  size_t module = 0;
  const Symbol *symbol = nullptr;
};

struct RootKernel {
  size_t module = 0;
  const EntryPoint *entry = nullptr;
};

// What the phases share.
struct PlanState {
  std::span<const ModuleInput> inputs;
  const DeviceProfile *device = nullptr;
  CallRules *rules = nullptr;          // the link rules, over every input
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
std::string module_label(const ModuleInput &input) {
  if (input.metadata.library.empty()) return fmt::format("module '{}'", input.name);
  return fmt::format("module '{}' ({})", input.name, input.metadata.library);
}

// Phase 1. Contract: every export of every input is listed under its name, in input order.
void index_exports(PlanState &state) {
  size_t total = 0;
  for (const ModuleInput &in : state.inputs) total += in.info.exported_symbols.size();
  state.exports.reserve(total);
  for (size_t m = 0; m < state.inputs.size(); ++m)
    for (const Symbol &sym : state.inputs[m].info.exported_symbols) {
      auto [it, fresh] = state.exports.try_emplace(sym.name, PlanState::Exporters{{m, &sym}, {}});
      if (!fresh) it->second.more.push_back({m, &sym});
    }
}

void add_module(PlanState &state, LinkPlan &plan, size_t m) {
  if (state.in_plan[m]) return;
  state.in_plan[m] = true;
  plan.modules.push_back(m);
}

// Phase 2. Contract: the modules of the roots are in the plan, and the kernels to check are
// listed (the named kernels, or every kernel of a named module); an unknown root is diagnosed.
void select_roots(PlanState &state, LinkPlan &plan, std::span<const std::string> roots) {
  auto add_all_kernels = [&](size_t m) {
    add_module(state, plan, m);
    for (const EntryPoint &ep : state.inputs[m].info.entry_points) state.kernels.push_back({m, &ep});
  };
  if (roots.empty()) {
    for (size_t m = 0; m < state.inputs.size(); ++m) add_all_kernels(m);
    return;
  }
  for (const std::string &root : roots) {
    bool found = false;
    for (size_t m = 0; m < state.inputs.size(); ++m) {
      if (state.inputs[m].name == root) {
        add_all_kernels(m);
        found = true;
      } else if (const EntryPoint *ep = state.inputs[m].info.find_entry_point(root)) {
        add_module(state, plan, m);
        state.kernels.push_back({m, ep});
        found = true;
      }
    }
    if (!found)
      plan.diagnostics.push_back({DiagnosticCode::UnknownRoot,
                                  fmt::format("root '{}' is neither a kernel nor a module of the inputs", root)});
  }
}

bool same_definition(const Definition &a, const Definition &b) {
  return a.symbol->type == b.symbol->type && a.symbol->definition_hash == b.symbol->definition_hash;
}

std::string list_definitions(const PlanState &state, const std::vector<Definition> &defs) {
  std::string out;
  for (size_t i = 0; i < defs.size(); ++i) {
    const char *sep = i == 0 ? "" : i + 1 == defs.size() ? " and " : ", ";
    out += fmt::format("{}{} as '{}'{}", sep, module_label(state.inputs[defs[i].module]), defs[i].symbol->type,
                       defs[i].symbol->link_once_odr ? " (LinkOnceODR)" : "");
  }
  return out;
}

// The provider of a symbol defined by several modules, by the preference rule of link_plan.hpp;
// nullopt (and a diagnostic) when the rule does not decide. A module already in the plan is
// preferred among identical definitions.
std::optional<Definition> choose_definition(const PlanState &state, LinkPlan &plan, std::string_view name,
                                            const std::vector<Definition> &defs) {
  if (defs.size() == 1) return defs.front();
  bool identical = std::all_of(defs.begin(), defs.end(), [&](auto &d) { return same_definition(d, defs.front()); });
  if (identical) {
    auto in = std::find_if(defs.begin(), defs.end(), [&](auto &d) { return state.in_plan[d.module]; });
    Definition pick = in != defs.end() ? *in : defs.front();
    plan.notes.push_back(fmt::format("'{}' is defined identically by {}; {} provides it", name,
                                     list_definitions(state, defs), module_label(state.inputs[pick.module])));
    return pick;
  }
  size_t strong = static_cast<size_t>(std::count_if(defs.begin(), defs.end(), [](auto &d) { return !d.symbol->link_once_odr; }));
  if (strong <= 1) {
    auto pick = std::find_if(defs.begin(), defs.end(), [](auto &d) { return !d.symbol->link_once_odr; });
    return pick != defs.end() ? *pick : defs.front();
  }
  plan.diagnostics.push_back({DiagnosticCode::DuplicateSymbol,
                              fmt::format("symbol '{}' is exported with different definitions by {}", name,
                                          list_definitions(state, defs))});
  return std::nullopt;
}

void check_types(const PlanState &state, LinkPlan &plan, size_t importer, const Symbol &import, const Definition &def) {
  if (import.type == def.symbol->type && import.kind == def.symbol->kind) return;
  const char *kind = import.kind == SymbolKind::Function ? "function" : "variable";
  plan.diagnostics.push_back(
      {DiagnosticCode::TypeMismatch,
       fmt::format("{} imports {} '{}' as '{}', but {} exports it as {} '{}'", module_label(state.inputs[importer]),
                   kind, import.name, import.type, module_label(state.inputs[def.module]),
                   def.symbol->kind == SymbolKind::Function ? "function" : "variable", def.symbol->type)});
}

// Phase 3. Contract: every import of every module in the plan is resolved to a provider (which
// joins the plan, transitively) or diagnosed as unresolved or ambiguous; resolved types are checked,
// and what the importer declares of the function holds for the provider's definition.
void resolve_imports(PlanState &state, LinkPlan &plan) {
  std::deque<size_t> work(plan.modules.begin(), plan.modules.end());
  while (!work.empty()) {
    size_t m = work.front();
    work.pop_front();
    for (const Symbol &import : state.inputs[m].info.imported_symbols) {
      auto chosen = state.chosen.find(import.name);
      std::optional<Definition> def;
      if (chosen != state.chosen.end()) {
        def = chosen->second;
      } else if (auto it = state.exports.find(import.name); it != state.exports.end()) {
        if (it->second.more.empty()) {
          def = it->second.first;
        } else {
          std::vector<Definition> all{it->second.first};
          all.insert(all.end(), it->second.more.begin(), it->second.more.end());
          def = choose_definition(state, plan, import.name, all);
        }
        if (!def) continue;
        state.chosen.emplace(it->first, *def);
      } else {
        plan.diagnostics.push_back({DiagnosticCode::UnresolvedImport,
                                    fmt::format("{} imports '{}' ({}), which no module exports{}",
                                                module_label(state.inputs[m]), import.name, import.type,
                                                spirv::producer_library_clause(import.name))});
        continue;
      }
      check_types(state, plan, m, import, *def);
      state.rules->check_declared_import(m, import.name, def->module);
      plan.resolutions.push_back({import.name, m, def->module});
      if (!state.in_plan[def->module]) {
        add_module(state, plan, def->module);
        work.push_back(def->module);
      }
    }
  }
}

// Phase 4. Contract: a symbol exported by two modules of the plan that no import chose is
// checked by the same preference rule (both would be loaded into one program).
void check_duplicates_in_plan(PlanState &state, LinkPlan &plan) {
  std::unordered_map<std::string_view, std::vector<Definition>> in_plan;
  for (size_t m : plan.modules)
    for (const Symbol &sym : state.inputs[m].info.exported_symbols) in_plan[sym.name].push_back({m, &sym});
  for (auto &[name, defs] : in_plan) {
    if (defs.size() < 2 || state.chosen.count(name) != 0) continue;
    if (auto def = choose_definition(state, plan, name, defs)) state.chosen.emplace(name, *def);
  }
}

// Phase 5. Contract: an already-linked module that this plan links with others is listed for
// re-creation, since Level Zero forbids linking a module's imports twice.
void mark_recreations(const PlanState &state, LinkPlan &plan) {
  if (plan.modules.size() < 2) return;
  for (size_t m : plan.modules)
    if (state.inputs[m].already_linked) plan.recreate.push_back(m);
}

// Phase 6. Contract: every call a root kernel reaches into another module keeps the link rules, and
// the device supports what the kernel and everything it reaches use.
void check_kernels(const PlanState &state, LinkPlan &plan) {
  auto resolve = [&](std::string_view name) -> std::optional<ImportTarget> {
    auto def = state.chosen.find(name);
    if (def == state.chosen.end()) return std::nullopt; // unresolved: already diagnosed
    return ImportTarget{def->second.module, def->second.symbol};
  };
  for (const RootKernel &k : state.kernels) {
    uint32_t features = state.rules->check_kernel(k.module, *k.entry, resolve);
    for (const std::string &why : kernel_unsupported_reasons(*k.entry, features, *state.device))
      plan.diagnostics.push_back({DiagnosticCode::UnsupportedKernel,
                                  fmt::format("kernel '{}' of {} cannot run on device '{}': it {}", k.entry->name,
                                              module_label(state.inputs[k.module]), state.device->name, why)});
  }
}

} // namespace

LinkPlan plan_link(std::span<const ModuleInput> inputs, std::span<const std::string> roots,
                   const DeviceProfile &device) {
  LinkPlan plan;
  std::vector<RuleModule> modules;
  for (const ModuleInput &in : inputs) modules.push_back({module_label(in), &in.metadata});
  CallRules rules(modules, device.primary_sub_group_size, RangeWording::TypeNames, plan.diagnostics);
  PlanState state;
  state.inputs = inputs;
  state.device = &device;
  state.rules = &rules;
  state.in_plan.assign(inputs.size(), false);
  index_exports(state);
  select_roots(state, plan, roots);
  resolve_imports(state, plan);
  check_duplicates_in_plan(state, plan);
  mark_recreations(state, plan);
  check_kernels(state, plan);
  return plan;
}

std::string_view diagnostic_code_name(DiagnosticCode code) {
  switch (code) {
  case DiagnosticCode::UnresolvedImport: return "unresolved-import";
  case DiagnosticCode::DuplicateSymbol: return "duplicate-symbol";
  case DiagnosticCode::TypeMismatch: return "type-mismatch";
  case DiagnosticCode::SubGroupSizeMismatch: return "sub-group-size-mismatch";
  case DiagnosticCode::RangeTypeMismatch: return "range-type-mismatch";
  case DiagnosticCode::UnknownRangeType: return "unknown-range-type";
  case DiagnosticCode::UnsupportedKernel: return "unsupported-kernel";
  case DiagnosticCode::UnknownRoot: return "unknown-root";
  }
  return "unknown";
}

std::string describe(const LinkPlan &plan, std::span<const ModuleInput> inputs) {
  std::string out;
  for (size_t m : plan.modules) out += fmt::format("module {}\n", module_label(inputs[m]).substr(7));
  for (const Resolution &r : plan.resolutions)
    out += fmt::format("resolve '{}': {} <- {}\n", r.symbol, inputs[r.importer].name, inputs[r.provider].name);
  for (size_t m : plan.recreate)
    out += fmt::format("recreate {}: already dynamically linked, create it again from SPIR-V\n", inputs[m].name);
  for (const std::string &note : plan.notes) out += fmt::format("note: {}\n", note);
  for (const Diagnostic &d : plan.diagnostics)
    out += fmt::format("error[{}]: {}\n", diagnostic_code_name(d.code), d.message);
  return out;
}

} // namespace zeal::module_linker
