// Modules: SPIR-V through the PTX back end, or a native binary, loaded by CUDA's JIT; the zeModule* and
// zeModuleBuildLog* entry points.
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/ddi.hpp"
#include "cuda_driver/runtime/joint_module.hpp"
#include "cuda_driver/runtime/module.hpp"
#include "cuda_driver/runtime/ptx_cache.hpp"

#include "common/log.hpp"
#include "ze_driver/build_flags.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace zeal::cuda {

Module::~Module() {
  if (joined()) device_.joint().leave(*this);
  std::lock_guard lock(load_mutex_);
  if (pending_) {
    std::lock_guard load(pending_->mutex);
    if (!pending_->done) {
      pending_->abandoned = true; // the loader unloads it
      return;
    }
    module_ = pending_->module;
  }
  if (module_ == nullptr) return;
  // Unloading waits, as loading does, for every stream to move: not on the application's thread while one may not.
  if (device_.streams_may_stall()) {
    device_.loader().unload(module_);
    return;
  }
  device_.make_current();
  checked(device_.api().cuModuleUnload(module_), "cuModuleUnload");
}

CUmodule Module::cu_module() const {
  std::shared_ptr<PendingLoad> pending;
  {
    std::lock_guard lock(load_mutex_);
    if (!pending_) return module_;
    pending = pending_;
  }
  pending->wait(UINT64_MAX); // not holding the lock: loading() and other kernels' creation go on meanwhile
  std::lock_guard lock(load_mutex_);
  if (pending_ == pending) {
    module_ = pending->module;
    if (pending->result != ZE_RESULT_SUCCESS)
      zeal::logger("zeal-cuda").error("zeModuleCreate returned before CUDA loaded the module, which then failed: {}",
                                      pending->log);
    pending_.reset();
  }
  return module_;
}

bool Module::loading() const {
  std::lock_guard lock(load_mutex_);
  if (!pending_) return false;
  std::lock_guard load(pending_->mutex);
  return !pending_->done;
}

const KernelFacts *Module::find(const char *name) const {
  for (const KernelFacts &k : kernels_)
    if (k.kernel.name == name) return &k;
  return nullptr;
}

ze_result_t Module::load(std::string ptx, std::vector<KernelFacts> kernels, std::string &log) {
  native_ = std::move(ptx);
  kernels_ = std::move(kernels);
  symbols_ = ptx_symbols(native_);
  aliases_ = read_aliases(native_);
  if (symbols_.prints) device_.note_printing();
  if (!symbols_.imports.empty()) return ZE_RESULT_SUCCESS; // loaded when linked
  // A module that calls through function pointers runs from the joint module, where the functions are.
  if (symbols_.calls_through_table) return join(log);
  return load_image(native_.c_str(), log, true);
}

ze_result_t Module::join(std::string &log) {
  if (joined()) return ZE_RESULT_SUCCESS;
  return device_.joint().join(*this, log);
}

const std::string &Module::exported_name(const std::string &host_name) const {
  for (const auto &[host, exported] : aliases_)
    if (host == host_name) return exported;
  return host_name;
}

ze_result_t Module::load_linked(const void *image, std::string &log) {
  if (module_ != nullptr) return ZE_RESULT_SUCCESS; // linked before: Level Zero links a module once
  return load_image(image, log, false);
}

ze_result_t load_cuda_module(const Device &device, const void *image, const std::string &what, CUmodule &module,
                             std::string &log) {
  device.make_current();
  JitErrorLog errors;
  CUresult r = device.api().cuModuleLoadDataEx(&module, image, errors.count, errors.options, errors.values);
  if (r == CUDA_SUCCESS) return ZE_RESULT_SUCCESS;
  module = nullptr;
  log += fmt::format("CUDA could not load {} for {}: {}{}\n", what, device.properties().name,
                     device.cuda().describe(r), errors.suffix());
  return r == CUDA_ERROR_INVALID_PTX ? ZE_RESULT_ERROR_MODULE_BUILD_FAILURE : to_ze_result(r);
}

ze_result_t Module::load_image(const void *image, std::string &log, bool own_ptx) {
  std::lock_guard lock(load_mutex_);
  if (!own_ptx || !device_.streams_may_stall())
    return load_cuda_module(device_, image, "the module's PTX", module_, log);
  // A stream may wait for the host, and CUDA would load only once it moves: the code loader loads it, and if that
  // is not done soon, the module is made with its load pending. CUDA's JIT errors then reach the log when its
  // kernels are first enqueued, not the build log.
  constexpr uint64_t a_while = 20'000'000; // ns
  auto pending = device_.loader().load(native_, "the module's PTX");
  if (!pending->wait(a_while)) {
    pending_ = std::move(pending);
    return ZE_RESULT_SUCCESS;
  }
  module_ = pending->module;
  log += pending->log;
  return pending->result;
}

namespace {

// The back end's options from the build flags (ze_driver/build_flags.hpp: unknown ones get a line in `log`).
PtxOptions options_from(const ze::BuildFlags &flags, const Device &device) {
  PtxOptions options;
  options.sm = device.ptx_sm();
  options.opt_level = flags.opt_level;
  options.library_compilation = flags.library_compilation;
  return options;
}

void add_constants(const ze_module_constants_t *constants, PtxOptions &options) {
  if (constants == nullptr) return;
  for (uint32_t i = 0; i < constants->numConstants; ++i) {
    options.spec_constants.push_back({constants->pConstantIds[i], constants->pConstantValues[i]});
  }
}

// The module's PTX and kernels, from SPIR-V or a native binary; a failure's sentence goes to `log`.
ze_result_t ptx_of(const ze_module_desc_t &desc, const Device &device, std::string &ptx,
                   std::vector<KernelFacts> &kernels, std::string &log) {
  const auto *bytes = static_cast<const uint8_t *>(static_cast<const void *>(desc.pInputModule));
  if (desc.format == ZE_MODULE_FORMAT_NATIVE) {
    ptx.assign(reinterpret_cast<const char *>(bytes), desc.inputSize);
    while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
    std::string why;
    if (!read_native_binary(ptx, kernels, why)) {
      log += why + "\n";
      return ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
    }
    return ZE_RESULT_SUCCESS;
  }
  const ze::BuildFlags flags = ze::parse_build_flags(desc.pBuildFlags, log);
  PtxOptions options = options_from(flags, device);
  add_constants(desc.pConstants, options);
  PtxCache *cache = PtxCache::instance();
  const std::string key = cache != nullptr ? PtxCache::key_of({bytes, desc.inputSize}, options) : std::string();
  if (!key.empty())
    if (std::optional<std::string> cached = cache->load(key)) {
      std::string why;
      if (read_native_binary(*cached, kernels, why)) {
        ptx = std::move(*cached);
        return ZE_RESULT_SUCCESS;
      }
      kernels.clear(); // an entry this driver cannot read: built again below
    }
  Result<PtxProgram> program = compile_ptx({bytes, desc.inputSize}, options);
  if (!program) {
    log += program.error().log.empty() ? program.error().message : program.error().log;
    if (!log.empty() && log.back() != '\n') log += '\n';
    return program.error().code;
  }
  log += program->log;
  for (const PtxKernel &k : program->kernels) kernels.push_back({k, true});
  // What the code depends on (and the cache key holds): the level and library compilation.
  ptx = native_binary(*program, ze::build_flags_record({flags.opt_level, flags.library_compilation, false}));
  if (!key.empty()) cache->store(key, ptx);
  return ZE_RESULT_SUCCESS;
}

ze_result_t module_create(ze_context_handle_t context, ze_device_handle_t device, const ze_module_desc_t *desc,
                          ze_module_handle_t *out, ze_module_build_log_handle_t *build_log) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr || desc->pInputModule == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->format != ZE_MODULE_FORMAT_IL_SPIRV && desc->format != ZE_MODULE_FORMAT_NATIVE)
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (desc->inputSize == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  Device &d = *Device::from(device);
  std::string log, ptx;
  std::vector<KernelFacts> kernels;
  ze_result_t result = ptx_of(*desc, d, ptx, kernels, log);
  auto module = std::make_unique<Module>(d);
  if (result == ZE_RESULT_SUCCESS) result = module->load(std::move(ptx), std::move(kernels), log);
  if (result != ZE_RESULT_SUCCESS && !log.empty()) zeal::logger("zeal-cuda").error("zeModuleCreate: {}", log);
  if (build_log != nullptr) *build_log = new BuildLog(log);
  if (result != ZE_RESULT_SUCCESS) return result;
  *out = module.release();
  return ZE_RESULT_SUCCESS;
}

ze_result_t module_get_native_binary(ze_module_handle_t handle, size_t *size, uint8_t *out) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (size == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const std::string &native = Module::from(handle)->native();
  if (out == nullptr) {
    *size = native.size() + 1; // with the terminator CUDA wants
    return ZE_RESULT_SUCCESS;
  }
  if (*size < native.size() + 1) return ZE_RESULT_ERROR_INVALID_SIZE;
  std::memcpy(out, native.c_str(), native.size() + 1);
  *size = native.size() + 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t module_get_kernel_names(ze_module_handle_t handle, uint32_t *count, const char **names) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const auto &kernels = Module::from(handle)->kernels();
  if (*count == 0 || names == nullptr) {
    *count = uint32_t(kernels.size());
    return ZE_RESULT_SUCCESS;
  }
  *count = std::min(*count, uint32_t(kernels.size()));
  for (uint32_t i = 0; i < *count; ++i) names[i] = kernels[i].kernel.name.c_str();
  return ZE_RESULT_SUCCESS;
}

ze_result_t module_get_properties(ze_module_handle_t handle, ze_module_properties_t *out) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  out->flags = Module::from(handle)->unlinked() ? ZE_MODULE_PROPERTY_FLAG_IMPORTS : 0;
  return ZE_RESULT_SUCCESS;
}

ze_result_t module_get_global_pointer(ze_module_handle_t handle, const char *name, size_t *size, void **pointer) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (name == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Module *module = Module::from(handle);
  if (module->unlinked()) return ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED;
  module->device().make_current();
  CUdeviceptr address = 0;
  size_t bytes = 0;
  if (module->joined()) {
    if (ze_result_t r = module->device().joint().global(*module, module->exported_name(name), address, bytes);
        r != ZE_RESULT_SUCCESS)
      return r;
  } else {
    CUresult r = module->device().api().cuModuleGetGlobal_v2(&address, &bytes, module->cu_module(),
                                                             module->exported_name(name).c_str());
    if (r == CUDA_ERROR_NOT_FOUND) return ZE_RESULT_ERROR_INVALID_GLOBAL_NAME;
    if (ze_result_t result = checked(r, "cuModuleGetGlobal_v2"); result != ZE_RESULT_SUCCESS) return result;
  }
  if (size != nullptr) *size = bytes;
  if (pointer != nullptr) *pointer = reinterpret_cast<void *>(address);
  return ZE_RESULT_SUCCESS;
}

// A function's pointer is an id of the device's joint module (ptx_compiler.hpp), which the module joins at the
// first request: kernels of every member, whichever module they came from, call the function through it.
ze_result_t module_get_function_pointer(ze_module_handle_t handle, const char *name, void **pointer) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (name == nullptr || pointer == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Module *module = Module::from(handle);
  if (module->unlinked()) return ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED;
  const std::vector<std::string> &exports = module->symbols().exports;
  if (std::find(exports.begin(), exports.end(), ptx_function_address_prefix + std::string(name)) == exports.end()) {
    zeal::logger("zeal-cuda").error("zeModuleGetFunctionPointer: the module exports no function named '{}'", name);
    return ZE_RESULT_ERROR_INVALID_FUNCTION_NAME;
  }
  std::string log;
  if (ze_result_t r = module->join(log); r != ZE_RESULT_SUCCESS) {
    zeal::logger("zeal-cuda").error("zeModuleGetFunctionPointer: '{}': {}", name, log);
    return r;
  }
  uint64_t value = 0;
  ze_result_t r = module->device().joint().function_pointer(*module, name, value);
  if (r == ZE_RESULT_SUCCESS) *pointer = reinterpret_cast<void *>(value);
  return r;
}

} // namespace

void implement(ze_module_dditable_t &t) {
  t.pfnCreate = guarded<module_create>;
  t.pfnDestroy = guarded<destroy<Module>>;
  t.pfnGetNativeBinary = guarded<module_get_native_binary>;
  t.pfnGetKernelNames = guarded<module_get_kernel_names>;
  t.pfnGetProperties = guarded<module_get_properties>;
  t.pfnGetGlobalPointer = guarded<module_get_global_pointer>;
  t.pfnGetFunctionPointer = guarded<module_get_function_pointer>;
  t.pfnDynamicLink = guarded<dynamic_link>;
}

void implement(ze_module_build_log_dditable_t &t) {
  ze::fill_build_log_table(t);
}

} // namespace zeal::cuda
