// zeModuleDynamicLink on CUDA (module.hpp): each module that imports symbols is linked by CUDA's linker with the
// modules of the list that export them, then loaded, or, when one of them calls through function pointers or
// imports a variable, they join the device's joint module; an import no module exports is named in the link log.
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/ddi.hpp"
#include "cuda_driver/runtime/module.hpp"

#include "common/log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace zeal::cuda {
namespace {

// Links `parts` (the importing module first) and loads the image into the first.
ze_result_t link_into(const std::vector<Module *> &parts, std::string &log) {
  Module &importer = *parts.front();
  std::vector<PtxInput> inputs;
  for (size_t i = 0; i < parts.size(); ++i) inputs.push_back({&parts[i]->native(), fmt::format("module{}.ptx", i)});
  return link_ptx(importer.device(), inputs, "", log,
                  [&](const void *image) { return importer.load_linked(image, log); });
}

// "module 1 (kernels: use_helper)": how the link log names a module of the list.
std::string describe(const std::vector<Module *> &modules, const Module *m) {
  std::string kernels;
  for (const KernelFacts &k : m->kernels()) kernels += (kernels.empty() ? "" : ", ") + k.kernel.name;
  const auto index = size_t(std::find(modules.begin(), modules.end(), m) - modules.begin());
  return kernels.empty() ? fmt::format("module {} (no kernels)", index)
                         : fmt::format("module {} (kernels: {})", index, kernels);
}

// The module, then the exporters of its imports, and of theirs; false, with a line per import in `log`, when an
// import has no exporter or more than one.
bool parts_of(Module *m, const std::vector<Module *> &modules,
              const std::map<std::string, std::vector<Module *>, std::less<>> &exporters, std::vector<Module *> &parts,
              std::string &log) {
  parts = {m};
  std::set<Module *> seen{m};
  bool complete = true;
  for (size_t i = 0; i < parts.size(); ++i)
    for (const std::string &name : parts[i]->symbols().imports) {
      auto found = exporters.find(name);
      if (found == exporters.end()) {
        log += fmt::format("{}: unresolved import '{}': no module in the link exports it\n",
                           describe(modules, parts[i]), name);
        complete = false;
      } else if (found->second.size() > 1) {
        std::string which;
        for (const Module *e : found->second)
          which += fmt::format("{}{}", which.empty() ? "" : ", ",
                               std::find(modules.begin(), modules.end(), e) - modules.begin());
        log += fmt::format("{}: import '{}' is exported by {} modules ({}), which is ambiguous\n",
                           describe(modules, parts[i]), name, found->second.size(), which);
        complete = false;
      } else if (seen.insert(found->second.front()).second) {
        parts.push_back(found->second.front());
      }
    }
  return complete;
}

// Whether the module imports a variable: importer and exporter must then share one, which only the joint module
// gives (a link of its own would have a copy of the exporter's).
bool imports_variable(const Module &m) {
  for (const auto &[name, source] : m.import_sources()) {
    const std::vector<std::string> &variables = source->symbols().variables;
    if (std::find(variables.begin(), variables.end(), name) != variables.end()) return true;
  }
  return false;
}

} // namespace

ze_result_t link_ptx(const Device &device, const std::vector<PtxInput> &inputs, const std::string &what,
                     std::string &log, const std::function<ze_result_t(const void *image)> &use) {
  device.make_current();
  const DriverApi &api = device.api();
  JitErrorLog errors;
  CUlinkState state = nullptr;
  auto failed = [&](const char *call, CUresult r) {
    log += fmt::format("CUDA's linker failed{} ({}): {}{}\n", what, call, device.cuda().describe(r), errors.suffix());
    return r == CUDA_ERROR_INVALID_PTX || r == CUDA_ERROR_INVALID_VALUE ? ZE_RESULT_ERROR_MODULE_LINK_FAILURE
                                                                        : to_ze_result(r);
  };
  if (CUresult r = api.cuLinkCreate_v2(errors.count, errors.options, errors.values, &state); r != CUDA_SUCCESS)
    return failed("cuLinkCreate", r);
  // The image belongs to the link's state: `use` loads it before the state goes.
  struct Destroy {
    const DriverApi &api;
    CUlinkState state;
    ~Destroy() { api.cuLinkDestroy(state); }
  } destroy{api, state};
  for (const PtxInput &input : inputs) {
    CUresult r = api.cuLinkAddData_v2(state, CU_JIT_INPUT_PTX, const_cast<char *>(input.ptx->c_str()),
                                      input.ptx->size() + 1, input.name.c_str(), 0, nullptr, nullptr);
    if (r != CUDA_SUCCESS) return failed("cuLinkAddData", r);
  }
  void *image = nullptr;
  size_t size = 0;
  if (CUresult r = api.cuLinkComplete(state, &image, &size); r != CUDA_SUCCESS) return failed("cuLinkComplete", r);
  return use(image);
}

ze_result_t dynamic_link(uint32_t count, ze_module_handle_t *handles, ze_module_build_log_handle_t *link_log) {
  if (count > 0 && handles == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::vector<Module *> modules;
  for (uint32_t i = 0; i < count; ++i) {
    if (handles[i] == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    modules.push_back(Module::from(handles[i]));
  }
  std::map<std::string, std::vector<Module *>, std::less<>> exporters;
  for (Module *m : modules)
    for (const std::string &name : m->symbols().exports) exporters[name].push_back(m);
  // What each import resolves to, for a join of the joint module now or later (one exporter: parts_of refuses
  // the others).
  for (Module *m : modules) {
    if (!m->unlinked()) continue;
    std::map<std::string, Module *> sources;
    for (const std::string &name : m->symbols().imports)
      if (auto found = exporters.find(name); found != exporters.end() && found->second.size() == 1)
        sources[name] = found->second.front();
    m->set_import_sources(std::move(sources));
  }
  std::string log;
  ze_result_t result = ZE_RESULT_SUCCESS;
  for (Module *m : modules) {
    if (!m->unlinked()) continue;
    std::vector<Module *> parts;
    ze_result_t linked = ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
    if (parts_of(m, modules, exporters, parts, log)) {
      const bool joint = std::any_of(parts.begin(), parts.end(), [](const Module *p) {
        return p->joined() || p->symbols().calls_through_table || imports_variable(*p);
      });
      linked = joint ? m->join(log) : link_into(parts, log);
    }
    if (linked != ZE_RESULT_SUCCESS && result == ZE_RESULT_SUCCESS) result = linked;
  }
  if (!log.empty()) zeal::logger("zeal-cuda").error("zeModuleDynamicLink: {}", log);
  if (link_log != nullptr) *link_log = new BuildLog(log);
  return result;
}

} // namespace zeal::cuda
