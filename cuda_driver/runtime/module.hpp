// Modules on the CUDA driver: SPIR-V compiled to PTX by the back end (cuda_driver/compiler), or a native binary
// (PTX), loaded into the device's context by CUDA's JIT; and their build logs.
#pragma once

#include "cuda_driver/compiler/ptx_compiler.hpp"
#include "cuda_driver/runtime/code_loader.hpp"
#include "cuda_driver/runtime/context.hpp"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace zeal::cuda {

// A kernel as the runtime launches it: the back end's facts, and whether its PTX entry takes the hidden
// parameters (PTX written elsewhere, loaded as a native binary, takes only its own).
struct KernelFacts {
  PtxKernel kernel;
  bool hidden_params = true;
};

// The native binary is PTX; zeal's facts about each kernel ride along as PTX comments ("// zeal.kernel ..."), so
// the binary stays PTX that CUDA loads as it is. PTX with no such lines (written by hand, or by another compiler)
// has its kernels' parameters read from the .entry lines, every one taken as bytes by value.
// The flags its code was built with ride along too ("// zeal.build -ze-opt-level=O2", ze_driver/build_flags.hpp).
std::string native_binary(const PtxProgram &program, const std::string &build_record);
// The kernels of a native binary; false, with `why` set, when it is not PTX.
bool read_native_binary(const std::string &ptx, std::vector<KernelFacts> &kernels, std::string &why);
// Its aliases of variables ("// zeal.alias <host name> <exported name>", after the kernels' lines): PtxProgram's.
std::vector<std::pair<std::string, std::string>> read_aliases(const std::string &ptx);

// What a module's PTX takes from others (`.extern` functions and variables) and gives them (`.visible` functions
// and variables; kernels are reached as kernels, not listed).
struct PtxSymbols {
  std::vector<std::string> imports, exports; // PTX's system calls (vprintf), which CUDA's JIT provides, are neither
  std::vector<std::string> variables;        // the exports that are variables
  bool prints = false;                       // the PTX calls vprintf
  bool calls_through_table = false;          // it calls through function pointers (ptx_function_table)
};
PtxSymbols ptx_symbols(const std::string &ptx);

class Module : public _ze_module_handle_t {
public:
  explicit Module(Device &device) : device_(device) {}
  ~Module();
  static Module *from(ze_module_handle_t h) { return static_cast<Module *>(h); }
  Device &device() const { return device_; }
  const std::vector<KernelFacts> &kernels() const { return kernels_; }
  const KernelFacts *find(const char *name) const;
  const std::string &native() const { return native_; }
  // The name a variable is exported under for the name the host knows it by (itself when it has no alias).
  const std::string &exported_name(const std::string &host_name) const;

  // Takes the module's PTX and kernels, and loads the PTX into the device's context unless it imports symbols
  // (then zeModuleDynamicLink loads it, linked with the modules that export them); a JIT failure is a build
  // failure with CUDA's log in `log`.
  ze_result_t load(std::string ptx, std::vector<KernelFacts> kernels, std::string &log);
  const PtxSymbols &symbols() const { return symbols_; }
  // Imports not linked yet: its kernels cannot be made before zeModuleDynamicLink.
  bool unlinked() const { return !symbols_.imports.empty() && module_ == nullptr && !joined(); }
  // Loads what cuLinkComplete made of this module and those it imports from.
  ze_result_t load_linked(const void *image, std::string &log);
  // The CUDA module it was loaded as alone or linked, if it was: null for a member of the joint module that joined
  // when it was made, or when its load failed. Waits for a load the code loader has not finished (code_loader.hpp).
  CUmodule cu_module() const;
  // Whether its own PTX is still being loaded by the code loader.
  bool loading() const;
  // Whether it is a member of the device's joint module (joint_module.hpp): its kernels and variables are there.
  bool joined() const { return joined_.load(std::memory_order_acquire); }
  void set_joined() { joined_.store(true, std::memory_order_release); }
  // For each import, the module zeModuleDynamicLink resolved it to.
  const std::map<std::string, Module *> &import_sources() const { return import_sources_; }
  void set_import_sources(std::map<std::string, Module *> sources) { import_sources_ = std::move(sources); }
  // Makes it a member of the device's joint module (with the modules it imports from) if it is not one.
  ze_result_t join(std::string &log);

private:
  // Loads `image`: the module's own PTX (`own_ptx`, which the code loader may load) or a linked image.
  ze_result_t load_image(const void *image, std::string &log, bool own_ptx);
  Device &device_;
  mutable std::mutex load_mutex_;                // module_ and pending_
  mutable CUmodule module_ = nullptr;
  mutable std::shared_ptr<PendingLoad> pending_; // its load, while the code loader has it
  std::vector<KernelFacts> kernels_;
  std::string native_;
  PtxSymbols symbols_;
  std::vector<std::pair<std::string, std::string>> aliases_;
  std::map<std::string, Module *> import_sources_;
  std::atomic<bool> joined_{false};
};

// CUDA's JIT (cuModuleLoadDataEx, cuLinkCreate) writes its errors here: pass `count` options and `values`.
struct JitErrorLog {
  char text[8192] = {};
  int options[2] = {int(JitOption::ErrorLogBuffer), int(JitOption::ErrorLogBufferSizeBytes)};
  void *values[2] = {text, reinterpret_cast<void *>(uintptr_t(sizeof text - 1))};
  static constexpr unsigned count = 2;
  JitErrorLog() = default;
  JitErrorLog(const JitErrorLog &) = delete; // `values` points into the object
  JitErrorLog &operator=(const JitErrorLog &) = delete;
  // "\n<the log>" when CUDA wrote one, else nothing: the end of a sentence about the failure.
  std::string suffix() const { return text[0] != '\0' ? std::string("\n") + text : std::string(); }
};

// Loads `image` (PTX or what CUDA's linker made) into the device's context; a failure is a sentence in `log` naming
// `what` was loaded ("CUDA could not load <what> for <device>: ...", with CUDA's own log).
ze_result_t load_cuda_module(const Device &device, const void *image, const std::string &what, CUmodule &module,
                             std::string &log);

// A PTX text CUDA's linker takes, and the name its log gives it.
struct PtxInput {
  const std::string *ptx;
  std::string name;
};
// Links `inputs` with CUDA's linker and hands the image to `use` (which loads it) while the image lives; a failure
// of the linker is a sentence in `log` ("CUDA's linker failed<what> (cuLinkComplete): ..." with CUDA's own log) and
// ZE_RESULT_ERROR_MODULE_LINK_FAILURE for PTX it refuses.
ze_result_t link_ptx(const Device &device, const std::vector<PtxInput> &inputs, const std::string &what,
                     std::string &log, const std::function<ze_result_t(const void *image)> &use);

// zeModuleDynamicLink (module_link.cpp): every module that imports symbols is linked, by CUDA's linker, with the
// modules of the list that export them (and theirs in turn) into an image of its own. When one of them is a
// member of the joint module (it calls through function pointers) or the module imports a variable, they all join
// the joint module instead, where each module is there once: an exported variable is one for the exporter's
// kernels and every importer's, as on the CPU driver.
ze_result_t dynamic_link(uint32_t count, ze_module_handle_t *modules, ze_module_build_log_handle_t *link_log);

using ze::BuildLog;

} // namespace zeal::cuda
