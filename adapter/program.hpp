// A zeal program: a SPIR-V or native image for one device, built into a Level Zero module.
#pragma once

#include "adapter/context.hpp"
#include "adapter/info.hpp"
#include "module_linker/module_info.hpp"

#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace zeal::adapter {

class Program : public Object {
public:
  static constexpr Kind kKind = Kind::Program;

  struct Metadata {
    std::string key;
    std::vector<uint8_t> value;
  };

  // SPIR-V is inspected first: a binary that is not SPIR-V is INVALID_BINARY.
  static Result<Program *> create(Context &context, Device &device, const zeal_program_desc_t &desc);

  Context &context() const { return *context_; }
  Device &device() const { return device_; }
  // The SPIR-V facts of the image, when it is SPIR-V.
  const std::optional<module_linker::ModuleInfo> &spirv() const { return spirv_; }

  Status build(const char *options);
  // The module and its kernel names; INVALID_PROGRAM_STATE before a successful build.
  Result<ze_module_handle_t> module() const;
  std::vector<std::string> kernel_names() const;
  Result<InfoValue> info(zeal_program_info_t key) const;
  std::string describe() const;

private:
  Program(Context &context, Device &device) : Object(kKind), context_(&context), device_(device) {}
  Status read_kernel_names();

  Ref<Context> context_;
  Device &device_;
  zeal_program_format_t format_ = ZEAL_PROGRAM_FORMAT_SPIRV;
  std::vector<uint8_t> binary_;
  std::vector<Metadata> metadata_;
  std::optional<module_linker::ModuleInfo> spirv_;

  mutable std::mutex mutex_; // guards what build changes
  zeal_program_state_t state_ = ZEAL_PROGRAM_STATE_INPUT;
  ZeModule module_;
  std::string build_log_;
  std::vector<std::string> kernel_names_;
};

} // namespace zeal::adapter
