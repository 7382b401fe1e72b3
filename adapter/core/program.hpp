// A zeal program: an image for one device, compiled to an object module, linked or built into an executable.
#pragma once

#include "adapter/core/context.hpp"
#include "adapter/core/info.hpp"
#include "adapter/core/launch_checks.hpp"
#include "adapter/core/metadata.hpp"

#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace zeal::adapter {

class Program : public Object {
public:
  static constexpr Kind kKind = Kind::Program;

  // A kernel left out of the module because the device cannot honour it; kernels
  // of that name still exist (for sub-group info) but refuse to launch with `reason`.
  using RefusedKernel = KernelRefusal;

  // SPIR-V is inspected first: a binary that is not SPIR-V is INVALID_BINARY.
  static Result<Program *> create(Context &context, Device &device, const zeal_program_desc_t &desc);
  // An executable over a Level Zero module made elsewhere (a native handle) for `device` of `context`: its
  // kernels are the module's, with no metadata but what the driver reports. `owned`: the program destroys the
  // module when it goes; otherwise its maker does.
  static Result<Program *> adopt(Context &context, Device &device, ze_module_handle_t module, bool owned);
  // objects -> a new executable. On a failure with a log, *log_holder receives a
  // program holding that log (state INPUT), for the C ABI to hand out.
  static Result<Program *> link(Context &context, Device &device, std::span<Program *const> objects,
                                const char *options, Program **log_holder);

  // Checks both faces' entry points make, one home each (issue 23); `entry` names the caller's entry point
  // in the sentence, and each face gives the failure its own code.
  static Status check_device_in_context(std::string_view entry, const Context &context, const Device &device);
  static Status check_link_count(std::string_view entry, uint32_t count, const void *programs);
  static Status check_spec_constant(std::string_view entry, uint32_t id, size_t size, const void *value);
  // Whether the SPIR-V declares specialization constant `id` (INVALID_ARGUMENT when not) and, for a scalar, whether `size` is its type's (INVALID_SIZE when not). A program without SPIR-V
  // declares none. UR's face asks; the zeal ABI passes constants through to the driver as Level Zero does.
  Status check_declares_spec_constant(std::string_view entry, uint32_t id, size_t size) const;

  Context &context() const { return *context_; }
  Device &device() const { return device_; }
  const ImageMetadata &metadata() const { return metadata_; }
  // Its kernels and exported functions with the imports each reaches: read from the SPIR-V, or
  // for a native binary from its metadata (call_graph()).
  const module_linker::ModuleInfo &calls() const { return spirv_ ? *spirv_ : native_calls_; }
  zeal_program_state_t state() const;
  zeal_program_format_t format() const { return format_; }
  // The bytes it was created from (SPIR-V or a native binary); empty for a linked program.
  const std::vector<uint8_t> &input() const { return binary_; }
  // The options of its last compile or build, or for a linked program of its link.
  std::string options() const;
  // A compile, build or link of it failed, and none has succeeded since (its log says why).
  bool build_failed() const;
  // The one Level Zero module of an object or of an executable made of one module; UNSUPPORTED_FEATURE for a
  // dynamic link of several (each object has its own), INVALID_PROGRAM_STATE for an input.
  Result<ze_module_handle_t> single_module() const;

  Status set_spec_constant(uint32_t id, size_t size, const void *value);
  Status compile(const char *options); // input -> object
  Status build(const char *options);   // input -> executable

  // The module holding a kernel: INVALID_PROGRAM_STATE before it is executable,
  // INVALID_KERNEL_NAME (listing the kernels) when there is none of that name.
  Result<ze_module_handle_t> module_of(const std::string &kernel) const;
  // The refusal of a kernel left out of the module, or null.
  const RefusedKernel *refused(std::string_view kernel) const;
  std::vector<std::string> kernel_names() const;
  Result<void *> function_pointer(const char *name) const;
  Result<std::pair<void *, size_t>> global_pointer(const char *name) const;
  Result<InfoValue> info(int32_t key) const;
  std::string describe() const;

private:
  Program(Context &context, Device &device) : Object(kKind), context_(&context), device_(device) {}

  struct SpecConstant {
    uint32_t id;
    std::vector<uint8_t> value;
  };
  struct KernelLocation {
    std::string name;
    ze_module_handle_t module;
  };
  struct Built {
    ZeModule module;
    std::string log;
  };

  // zeModuleCreate of this image with `flags`, leaving out the kernels refused_ names.
  Result<Built> create_module(const std::string &flags);
  const std::vector<uint8_t> &driver_input() const { return stripped_.empty() ? binary_ : stripped_; }
  // The module a dynamic link uses: the object module unless its imports were linked already.
  Result<std::pair<ze_module_handle_t, std::optional<ZeModule>>> module_for_link(std::string &log);
  Status become_executable(std::vector<ZeModule> owned, std::vector<ze_module_handle_t> modules,
                           std::vector<Program *> objects);
  Status static_link(std::span<Program *const> objects, const std::string &options);
  Status fail_build(ze_result_t r, const std::string &log, const char *step);

  Ref<Context> context_;
  Device &device_;
  zeal_program_format_t format_ = ZEAL_PROGRAM_FORMAT_SPIRV;
  std::vector<uint8_t> binary_;
  std::optional<module_linker::ModuleInfo> spirv_;
  module_linker::ModuleInfo native_calls_;   // a native binary's call graph, from its metadata
  ImageMetadata metadata_;

  mutable std::mutex mutex_; // guards everything below
  zeal_program_state_t state_ = ZEAL_PROGRAM_STATE_INPUT;
  std::vector<SpecConstant> constants_;
  std::string compile_options_;           // a linked program: its link options
  bool failed_ = false;                    // the last compile, build or link failed
  std::vector<uint8_t> stripped_;          // the SPIR-V given to the driver, when kernels were left out
  std::vector<RefusedKernel> refused_;
  std::string build_log_;
  ZeModule object_module_;                 // state OBJECT: the -library-compilation module
  bool object_imports_linked_ = false;     // it took part in a zeModuleDynamicLink
  std::vector<ZeModule> owned_modules_;    // state EXECUTABLE: modules this program made
  std::vector<ze_module_handle_t> modules_;
  std::vector<Ref<Program>> objects_;      // the objects whose modules modules_ borrows
  std::vector<KernelLocation> kernels_;
};

// The text of a build or link log; empty when there is none or it cannot be read.
std::string read_build_log(ze_module_build_log_handle_t log);

} // namespace zeal::adapter
