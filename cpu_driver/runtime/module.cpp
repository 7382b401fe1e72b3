// The zeModule* and zeModuleBuildLog* entry points: SPIR-V and native binaries in, programs, symbols and blobs out.
#include "cpu_driver/runtime/module.hpp"

#include "common/log.hpp"
#include "cpu_driver/runtime/ddi.hpp"
#include "cpu_driver/runtime/driver.hpp"

#include <cstring>

namespace zeal::cpu {
namespace {

// The device's side of every build: which sub-group sizes kernels may require.
CompileOptions device_options(const Device &device) {
  CompileOptions options;
  const Profile &profile = device.profile();
  options.subgroup_sizes.assign(profile.sub_group_sizes.begin(), profile.sub_group_sizes.end());
  // Sub-groups: kernels without a required size run with the profile's primary size (kernel.cpp reports it).
  options.primary_subgroup_size = profile.primary_sub_group_size;
  options.device_name = std::string("the ") + profile.name + " profile";
  return options;
}

CompileOptions input_options(const Device &device, const char *flags, const ze_module_constants_t *constants,
                             std::string &log) {
  CompileOptions parsed = compile_options_of(flags, log);
  CompileOptions options = device_options(device);
  options.opt_level = parsed.opt_level;
  options.library_compilation = parsed.library_compilation;
  options.fiber_barriers = parsed.fiber_barriers;
  if (constants != nullptr) {
    for (uint32_t i = 0; i < constants->numConstants; ++i) {
      options.spec_constants.push_back({constants->pConstantIds[i], constants->pConstantValues[i]});
    }
  }
  return options;
}

const ze_module_program_exp_desc_t *program_desc(const ze_module_desc_t &desc) {
  return find_in_chain<ze_module_program_exp_desc_t>(desc.pNext, ZE_STRUCTURE_TYPE_MODULE_PROGRAM_EXP_DESC);
}

// The inputs of a build: the module's SPIR-V, or those of a chained
// ze_module_program_exp_desc_t (whose presence makes the desc's own ignored).
std::vector<CompileInput> compile_inputs(const ze_module_desc_t &desc, const Device &device, std::string &log) {
  std::vector<CompileInput> inputs;
  if (const ze_module_program_exp_desc_t *program = program_desc(desc)) {
    for (uint32_t i = 0; i < program->count; ++i) {
      std::string flags_log;
      const char *flags = program->pBuildFlags ? program->pBuildFlags[i] : nullptr;
      const ze_module_constants_t *constants = program->pConstants ? program->pConstants[i] : nullptr;
      inputs.push_back({{program->pInputModules[i], program->inputSizes[i]},
                        input_options(device, flags, constants, flags_log)});
      if (!flags_log.empty()) log += fmt::format("input {}: {}", i, flags_log);
    }
    return inputs;
  }
  inputs.push_back({{static_cast<const uint8_t *>(desc.pInputModule), desc.inputSize},
                    input_options(device, desc.pBuildFlags, desc.pConstants, log)});
  return inputs;
}

ze_result_t finish(Result<std::unique_ptr<Program>> built, ze_result_t failure, std::shared_ptr<Program> &program,
                   std::string &log) {
  if (!built) {
    const Error &e = built.error();
    if (!log.empty() && log.back() != '\n') log += '\n';
    log += e.log.empty() ? e.message : e.log; // the log, when there is one, already says it
    return e.code == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY ? e.code : failure;
  }
  const std::string &warnings = built.value()->build_log();
  if (!warnings.empty()) log += (log.empty() || log.back() == '\n' ? "" : "\n") + warnings;
  program = std::move(built).value();
  return ZE_RESULT_SUCCESS;
}

ze_result_t build(const ze_module_desc_t &desc, const Device &device, std::shared_ptr<Program> &program,
                  std::string &log) {
  if (desc.format == ZE_MODULE_FORMAT_NATIVE) {
    auto blob = std::span(static_cast<const uint8_t *>(desc.pInputModule), desc.inputSize);
    return finish(load_native_binary(blob, device_options(device)), ZE_RESULT_ERROR_INVALID_NATIVE_BINARY, program,
                  log);
  }
  std::vector<CompileInput> inputs = compile_inputs(desc, device, log);
  return finish(compile_spirv_program(inputs), ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, program, log);
}

// Optional constants must still be whole: numConstants ids and as many value pointers.
ze_result_t check_constants(const ze_module_constants_t *constants) {
  if (constants == nullptr || constants->numConstants == 0) return ZE_RESULT_SUCCESS;
  if (constants->pConstantIds == nullptr || constants->pConstantValues == nullptr)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  for (uint32_t i = 0; i < constants->numConstants; ++i)
    if (constants->pConstantValues[i] == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return ZE_RESULT_SUCCESS;
}

ze_result_t check_desc(const ze_module_desc_t &desc) {
  if (desc.format != ZE_MODULE_FORMAT_IL_SPIRV && desc.format != ZE_MODULE_FORMAT_NATIVE) {
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  }
  const ze_module_program_exp_desc_t *program = program_desc(desc);
  if (program == nullptr) {
    if (desc.pInputModule == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc.inputSize == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
    return desc.format == ZE_MODULE_FORMAT_IL_SPIRV ? check_constants(desc.pConstants) : ZE_RESULT_SUCCESS;
  }
  if (desc.format != ZE_MODULE_FORMAT_IL_SPIRV) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (program->count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  if (program->inputSizes == nullptr || program->pInputModules == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  for (uint32_t i = 0; i < program->count; ++i) {
    if (program->pInputModules[i] == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (program->inputSizes[i] == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
    if (program->pConstants == nullptr) continue;
    if (ze_result_t r = check_constants(program->pConstants[i]); r != ZE_RESULT_SUCCESS) return r;
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t module_create(ze_context_handle_t context, ze_device_handle_t device, const ze_module_desc_t *desc,
                          ze_module_handle_t *out, ze_module_build_log_handle_t *build_log) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // A refused call leaves no stale handle behind for a caller that destroys whatever it got.
  if (build_log != nullptr) *build_log = nullptr;
  *out = nullptr;
  if (ze_result_t valid = check_desc(*desc); valid != ZE_RESULT_SUCCESS) return valid;
  std::shared_ptr<Program> program;
  std::string log;
  ze_result_t result = build(*desc, *Device::from(device), program, log);
  if (result != ZE_RESULT_SUCCESS) zeal::logger("zeal-cpu").info("zeModuleCreate failed: {}", log);
  if (build_log != nullptr) *build_log = new BuildLog(std::move(log));
  if (result == ZE_RESULT_SUCCESS) *out = new Module(std::move(program), *Device::from(device));
  return result;
}

ze_result_t module_get_native_binary(ze_module_handle_t module, size_t *size, uint8_t *out) {
  if (module == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (size == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  auto compiled = Module::from(module)->program()->native_binary();
  if (!compiled) {
    zeal::logger("zeal-cpu").warn("zeModuleGetNativeBinary: {}", compiled.error().message);
    return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  }
  const std::vector<uint8_t> &blob = *compiled;
  if (out == nullptr) {
    *size = blob.size();
    return ZE_RESULT_SUCCESS;
  }
  if (*size < blob.size()) return ZE_RESULT_ERROR_INVALID_SIZE;
  std::memcpy(out, blob.data(), blob.size());
  *size = blob.size();
  return ZE_RESULT_SUCCESS;
}

// Symbols of a module with unbound imports cannot be resolved yet (their code
// needs the imports), so asking for one is the unlinked-module error.
ze_result_t module_get_global_pointer(ze_module_handle_t module, const char *name, size_t *size, void **pointer) {
  if (module == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (name == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const Program &program = *Module::from(module)->program();
  const auto &globals = program.linkage().exported_globals;
  auto global = std::find_if(globals.begin(), globals.end(), [&](const GlobalSymbol &g) { return g.name == name; });
  if (global == globals.end()) {
    zeal::logger("zeal-cpu").warn("zeModuleGetGlobalPointer: the module exports no variable named '{}'", name);
    return ZE_RESULT_ERROR_INVALID_GLOBAL_NAME;
  }
  if (!program.linked()) return ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED;
  Result<void *> address = program.symbol_address(global->object_name());
  if (!address) {
    zeal::logger("zeal-cpu").warn("zeModuleGetGlobalPointer: {}", address.error().message);
    return ZE_RESULT_ERROR_INVALID_GLOBAL_NAME;
  }
  if (size != nullptr) *size = global->size;
  if (pointer != nullptr) *pointer = *address;
  return ZE_RESULT_SUCCESS;
}

ze_result_t module_get_function_pointer(ze_module_handle_t module, const char *name, void **function) {
  if (module == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (name == nullptr || function == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const Program &program = *Module::from(module)->program();
  const auto &functions = program.linkage().exported_functions;
  if (std::find(functions.begin(), functions.end(), name) == functions.end()) {
    zeal::logger("zeal-cpu").warn("zeModuleGetFunctionPointer: the module exports no function named '{}' (functions "
                                  "are exported by modules built with -library-compilation)", name);
    return ZE_RESULT_ERROR_INVALID_FUNCTION_NAME;
  }
  if (!program.linked()) return ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED;
  Result<void *> address = program.symbol_address(name);
  if (!address) {
    zeal::logger("zeal-cpu").warn("zeModuleGetFunctionPointer: {}", address.error().message);
    return ZE_RESULT_ERROR_INVALID_FUNCTION_NAME;
  }
  *function = *address;
  return ZE_RESULT_SUCCESS;
}

ze_result_t module_get_kernel_names(ze_module_handle_t module, uint32_t *count, const char **names) {
  if (module == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::span<const KernelInfo> kernels = Module::from(module)->program()->kernels();
  if (*count == 0 || names == nullptr) {
    *count = static_cast<uint32_t>(kernels.size());
    return ZE_RESULT_SUCCESS;
  }
  *count = std::min(*count, static_cast<uint32_t>(kernels.size()));
  for (uint32_t i = 0; i < *count; ++i) names[i] = kernels[i].name.c_str();
  return ZE_RESULT_SUCCESS;
}

ze_result_t module_get_properties(ze_module_handle_t module, ze_module_properties_t *out) {
  if (module == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  out->flags = Module::from(module)->program()->linked() ? 0 : ZE_MODULE_PROPERTY_FLAG_IMPORTS;
  return ZE_RESULT_SUCCESS;
}


} // namespace

void implement(ze_module_dditable_t &t) {
  t.pfnCreate = guarded<module_create>;
  t.pfnDestroy = guarded<destroy<Module>>;
  t.pfnDynamicLink = guarded<module_dynamic_link>;
  t.pfnGetNativeBinary = guarded<module_get_native_binary>;
  t.pfnGetGlobalPointer = guarded<module_get_global_pointer>;
  t.pfnGetKernelNames = guarded<module_get_kernel_names>;
  t.pfnGetProperties = guarded<module_get_properties>;
  t.pfnGetFunctionPointer = guarded<module_get_function_pointer>;
  t.pfnInspectLinkageExt = guarded<module_inspect_linkage>;
}

void implement(ze_module_build_log_dditable_t &t) {
  ze::fill_build_log_table(t);
}

} // namespace zeal::cpu
