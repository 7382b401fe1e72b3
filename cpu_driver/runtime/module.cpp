// The zeModule* and zeModuleBuildLog* entry points: SPIR-V goes to the compiler, its log to the build log.
#include "cpu_driver/runtime/module.hpp"

#include "common/log.hpp"
#include "cpu_driver/runtime/ddi.hpp"
#include "cpu_driver/runtime/driver.hpp"

namespace zeal::cpu {
namespace {

// Compiles the SPIR-V of `desc`; on failure returns the error and leaves the log in `log`.
ze_result_t build(const ze_module_desc_t &desc, std::shared_ptr<const Program> &program, std::string &log) {
  if (desc.pConstants != nullptr && desc.pConstants->numConstants > 0) {
    log = "specialization constants are not supported by the zeal CPU driver yet";
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  }
  CompileOptions options = parse_build_flags(desc.pBuildFlags, log);
  Result<std::unique_ptr<Program>> compiled =
      compile_spirv({reinterpret_cast<const uint8_t *>(desc.pInputModule), desc.inputSize}, options);
  if (!compiled) {
    const Error &e = compiled.error();
    if (!log.empty() && log.back() != '\n') log += '\n';
    log += e.log.empty() ? e.message : e.log; // the log, when there is one, already says it
    return e.code == ZEAL_RESULT_ERROR_OUT_OF_HOST_MEMORY ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY
                                                          : ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  }
  const std::string &warnings = compiled.value()->build_log();
  if (!warnings.empty()) log += (log.empty() ? "" : "\n") + warnings;
  program = std::move(compiled).value();
  return ZE_RESULT_SUCCESS;
}

ze_result_t module_create(ze_context_handle_t context, ze_device_handle_t device, const ze_module_desc_t *desc,
                          ze_module_handle_t *out, ze_module_build_log_handle_t *build_log) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || desc->pInputModule == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (build_log != nullptr) *build_log = nullptr;
  *out = nullptr;
  std::shared_ptr<const Program> program;
  std::string log;
  ze_result_t result = ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
  if (desc->format == ZE_MODULE_FORMAT_IL_SPIRV) result = build(*desc, program, log);
  else log = "native binaries are not supported by the zeal CPU driver yet; pass SPIR-V";
  if (result != ZE_RESULT_SUCCESS) zeal::logger("zeal-cpu").info("zeModuleCreate failed: {}", log);
  if (build_log != nullptr) *build_log = new BuildLog(std::move(log));
  if (result == ZE_RESULT_SUCCESS) *out = new Module(std::move(program), *Device::from(device));
  return result;
}

ze_result_t module_destroy(ze_module_handle_t module) {
  if (module == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete Module::from(module);
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
  out->flags = 0; // imports are not reported until dynamic linking is implemented
  return ZE_RESULT_SUCCESS;
}

ze_result_t build_log_destroy(ze_module_build_log_handle_t log) {
  if (log == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete BuildLog::from(log);
  return ZE_RESULT_SUCCESS;
}

ze_result_t build_log_get_string(ze_module_build_log_handle_t log, size_t *size, char *text) {
  if (log == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const std::string &t = BuildLog::from(log)->text();
  return copy_string_out(t.c_str(), t.size(), size, text);
}

} // namespace

void implement(ze_module_dditable_t &t) {
  t.pfnCreate = guarded<module_create>;
  t.pfnDestroy = guarded<module_destroy>;
  t.pfnGetKernelNames = guarded<module_get_kernel_names>;
  t.pfnGetProperties = guarded<module_get_properties>;
}

void implement(ze_module_build_log_dditable_t &t) {
  t.pfnDestroy = guarded<build_log_destroy>;
  t.pfnGetString = guarded<build_log_get_string>;
}

} // namespace zeal::cpu
