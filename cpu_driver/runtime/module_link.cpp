// zeModuleDynamicLink and zeModuleInspectLinkageExt: matching imports to exports across the modules of a call.
#include "common/log.hpp"
#include "cpu_driver/runtime/module.hpp"
#include "spirv/imports.hpp"

#include <fmt/format.h>

#include <map>
#include <mutex>

namespace zeal::cpu {
namespace {

// Who exports each symbol among the modules of one call, by index in the call.
using ExportTable = std::map<std::string, std::vector<uint32_t>, std::less<>>;

ExportTable export_table(std::span<Module *const> modules) {
  ExportTable table;
  for (uint32_t i = 0; i < modules.size(); ++i) {
    const Linkage &linkage = modules[i]->program()->linkage();
    for (const std::string &name : linkage.exported_functions) table[name].push_back(i);
    for (const GlobalSymbol &global : linkage.exported_globals) {
      if (global.symbol.empty()) table[global.name].push_back(i); // host names are not link names
    }
  }
  return table;
}

// "kernels: a, b" or "no kernels": what names a module to a caller, with its index in the call.
std::string kernel_names(const Module &module) {
  std::span<const KernelInfo> kernels = module.program()->kernels();
  std::string names;
  for (size_t k = 0; k < kernels.size() && k < 3; ++k) names += (k ? ", " : "") + kernels[k].name;
  if (kernels.size() > 3) names += ", ...";
  return names.empty() ? "no kernels" : "kernels: " + names;
}

// "module 2 (kernels: a, b)": the index in the call is how a caller knows its modules.
std::string describe(std::span<Module *const> modules, uint32_t index) {
  return fmt::format("module {} ({})", index, kernel_names(*modules[index]));
}

// For each importer, the providers of its imports; every problem as one log line.
// An import exported by two modules of the call is an error (see MODULES.md):
// picking the first would make the result depend on the order of the handles.
struct LinkPlan {
  std::map<uint32_t, std::vector<uint32_t>> providers; // importer -> exporters, both by index
  std::string log;
};

LinkPlan plan_link(std::span<Module *const> modules, const ExportTable &exports) {
  LinkPlan plan;
  for (uint32_t i = 0; i < modules.size(); ++i) {
    const Program &program = *modules[i]->program();
    if (program.linked()) continue; // a linked module is never linked again; it only provides
    std::vector<uint32_t> &providers = plan.providers[i];
    for (const std::string &name : program.linkage().imports) {
      auto found = exports.find(name);
      if (found == exports.end()) {
        plan.log += fmt::format("{}: unresolved import '{}': no module in the link exports it{}\n",
                                describe(modules, i), name, spirv::producer_library_clause(name));
      } else if (found->second.size() > 1) {
        plan.log += fmt::format("{}: import '{}' is exported by {} modules ({}), which is ambiguous\n",
                                describe(modules, i), name, found->second.size(),
                                fmt::join(found->second, ", "));
      } else if (std::find(providers.begin(), providers.end(), found->second[0]) == providers.end()) {
        providers.push_back(found->second[0]);
      }
    }
  }
  return plan;
}

// The exported functions of the call that reach a call this driver cannot make, by module and name, with
// the sentence saying which: those whose own code does, those a module linked earlier kept (trap_at_link),
// then, until nothing changes, those reaching an import bound to one. A kernel reaching such an import would
// run into a trap, which ends the process; the link refuses it instead, as the compile refused the kernels of
// the module making the call.
struct Trap {
  std::string why;  // naming the modules by their index in this call
  std::string kept; // the same for a later call, which has other indices: what trap_at_link keeps
};
using Trapping = std::map<std::pair<uint32_t, std::string>, Trap, std::less<>>;

// The trapping export an import of the call is bound to, or null.
const Trapping::value_type *bound_trap(const Trapping &trapping, const ExportTable &exports,
                                       const std::string &import) {
  auto provider = exports.find(import);
  if (provider == exports.end() || provider->second.size() != 1) return nullptr;
  auto found = trapping.find(std::pair(provider->second[0], import));
  return found == trapping.end() ? nullptr : &*found;
}

Trapping trapping_exports(std::span<Module *const> modules, const ExportTable &exports) {
  Trapping trapping;
  for (uint32_t i = 0; i < modules.size(); ++i) {
    const Program &program = *modules[i]->program();
    for (const auto &[name, reach] : program.linkage().reach)
      if (!reach.unsupported.empty()) trapping.emplace(std::pair(i, name), Trap{reach.unsupported, reach.unsupported});
    if (program.linked())
      for (const auto &[name, why] : program.link_traps()) trapping.emplace(std::pair(i, name), Trap{why, why});
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < modules.size(); ++i) {
      const Program &program = *modules[i]->program();
      if (program.linked()) continue; // its imports were bound by an earlier link, which kept its traps
      for (const auto &[name, reach] : program.linkage().reach) {
        if (trapping.contains(std::pair(i, name))) continue;
        for (const std::string &import : reach.imports) {
          if (const Trapping::value_type *trap = bound_trap(trapping, exports, import)) {
            const uint32_t provider = trap->first.first;
            trapping.emplace(std::pair(i, name),
                             Trap{fmt::format("exported function '{}' calls '{}' of {}: {}", name, import,
                                              describe(modules, provider), trap->second.why),
                                  fmt::format("exported function '{}' calls '{}' of a module it was linked with "
                                              "({}): {}",
                                              name, import, kernel_names(*modules[provider]), trap->second.kept)});
            changed = true;
            break;
          }
        }
      }
    }
  }
  return trapping;
}

// Refuses the importers' kernels that reach a trapping export, each refusal a note in the link's log, and
// keeps in each importer the exports found to trap through its imports, for later links.
void refuse_trapping_kernels(std::span<Module *const> modules, const ExportTable &exports, const LinkPlan &plan,
                             std::string &log) {
  Trapping trapping = trapping_exports(modules, exports);
  if (trapping.empty()) return;
  for (const auto &[importer, providers] : plan.providers) {
    Program &program = *modules[importer]->mutable_program();
    for (const KernelInfo &kernel : program.kernels()) {
      if (!kernel.refusal.empty()) continue;
      for (const std::string &import : kernel.imports_reached) {
        const Trapping::value_type *trap = bound_trap(trapping, exports, import);
        if (trap == nullptr) continue;
        std::string why = fmt::format("kernel '{}' calls '{}' of {}, which this driver cannot run: {}", kernel.name,
                                      import, describe(modules, trap->first.first), trap->second.why);
        log += fmt::format("info: {}: kernel refused: {}\n", describe(modules, importer), why);
        program.refuse_at_link(kernel, std::move(why));
        break;
      }
    }
    for (const auto &[name, reach] : program.linkage().reach) {
      auto found = trapping.find(std::pair(importer, name));
      if (found != trapping.end() && reach.unsupported.empty()) program.trap_at_link(name, found->second.kept);
    }
  }
}

// Link plans are made and applied one at a time: two calls sharing an
// unlinked module must not both bind it.
std::mutex link_mutex;

ze_result_t link(std::span<Module *const> modules, std::string &log) {
  std::lock_guard lock(link_mutex);
  const ExportTable exports = export_table(modules);
  LinkPlan plan = plan_link(modules, exports);
  if (!plan.log.empty()) {
    log = std::move(plan.log);
    return ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
  }
  for (auto &[importer, providers] : plan.providers) {
    std::vector<std::shared_ptr<const Program>> programs;
    for (uint32_t provider : providers) programs.push_back(modules[provider]->program());
    modules[importer]->mutable_program()->bind_imports(std::move(programs));
  }
  std::string notes;
  refuse_trapping_kernels(modules, exports, plan, notes);
  for (auto &[importer, providers] : plan.providers) {
    if (Status linked = modules[importer]->mutable_program()->finish_link(); !linked) {
      log += fmt::format("{}: {}\n", describe(modules, importer), linked.error().message);
    }
  }
  const bool failed = !log.empty();
  log = notes + log;
  return failed ? ZE_RESULT_ERROR_MODULE_LINK_FAILURE : ZE_RESULT_SUCCESS;
}

std::vector<Module *> from_handles(uint32_t count, ze_module_handle_t *handles) {
  std::vector<Module *> modules;
  for (uint32_t i = 0; i < count; ++i) modules.push_back(Module::from(handles[i]));
  return modules;
}

std::string inspection(std::span<Module *const> modules, ze_linkage_inspection_ext_flags_t flags) {
  ExportTable exports = export_table(modules);
  std::string text;
  auto section = [&](const char *title, auto &&names_of) {
    text += fmt::format("{}:\n", title);
    for (uint32_t i = 0; i < modules.size(); ++i) {
      for (const std::string &name : names_of(*modules[i]->program())) text += fmt::format("  {}: {}\n", i, name);
    }
  };
  if (flags & ZE_LINKAGE_INSPECTION_EXT_FLAG_IMPORTS) {
    section("Imports", [](const Program &p) { return p.linkage().imports; });
  }
  if (flags & ZE_LINKAGE_INSPECTION_EXT_FLAG_UNRESOLVABLE_IMPORTS) {
    section("Unresolvable imports", [&](const Program &p) {
      std::vector<std::string> missing;
      for (const std::string &name : p.linkage().imports) {
        if (!exports.contains(name)) missing.push_back(name);
      }
      return missing;
    });
  }
  if (flags & ZE_LINKAGE_INSPECTION_EXT_FLAG_EXPORTS) {
    section("Exports", [](const Program &p) {
      std::vector<std::string> names = p.linkage().exported_functions;
      for (const GlobalSymbol &global : p.linkage().exported_globals) {
        if (global.symbol.empty()) names.push_back(global.name);
      }
      return names;
    });
  }
  return text;
}

} // namespace

ze_result_t module_dynamic_link(uint32_t count, ze_module_handle_t *handles, ze_module_build_log_handle_t *link_log) {
  if (link_log != nullptr) *link_log = nullptr;
  if (count > 0 && handles == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  for (uint32_t i = 0; i < count; ++i) {
    if (handles[i] == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  }
  std::vector<Module *> modules = from_handles(count, handles);
  std::string log;
  ze_result_t result = link(modules, log);
  if (result != ZE_RESULT_SUCCESS) zeal::logger("zeal-cpu").info("zeModuleDynamicLink failed:\n{}", log);
  if (link_log != nullptr) *link_log = new BuildLog(std::move(log));
  return result;
}

ze_result_t module_inspect_linkage(ze_linkage_inspection_ext_desc_t *desc, uint32_t count, ze_module_handle_t *handles,
                                   ze_module_build_log_handle_t *log) {
  if (desc == nullptr || log == nullptr || (count > 0 && handles == nullptr)) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  constexpr ze_linkage_inspection_ext_flags_t known = ZE_LINKAGE_INSPECTION_EXT_FLAG_IMPORTS |
                                                      ZE_LINKAGE_INSPECTION_EXT_FLAG_UNRESOLVABLE_IMPORTS |
                                                      ZE_LINKAGE_INSPECTION_EXT_FLAG_EXPORTS;
  if (desc->flags & ~known) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  for (uint32_t i = 0; i < count; ++i) {
    if (handles[i] == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  }
  // 0 asks for everything, as the flags' default.
  ze_linkage_inspection_ext_flags_t flags = desc->flags == 0 ? known : desc->flags;
  std::vector<Module *> modules = from_handles(count, handles);
  *log = new BuildLog(inspection(modules, flags));
  return ZE_RESULT_SUCCESS;
}

} // namespace zeal::cpu
