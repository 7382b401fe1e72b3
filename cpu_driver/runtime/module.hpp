// Modules (a compiled Program) and their build logs.
#pragma once

#include "cpu_driver/compiler/compiler.hpp"
#include "cpu_driver/runtime/handles.hpp"

#include <memory>
#include <string>

namespace zeal::cpu {

class Device;

class Module : public _ze_module_handle_t {
public:
  Module(std::shared_ptr<const Program> program, Device &device) : program_(std::move(program)), device_(device) {}
  static Module *from(ze_module_handle_t h) { return static_cast<Module *>(h); }

  // Shared with kernels and queued launches, which may outlive the module's handle.
  const std::shared_ptr<const Program> &program() const { return program_; }
  Device &device() { return device_; }

private:
  std::shared_ptr<const Program> program_;
  Device &device_;
};

class BuildLog : public _ze_module_build_log_handle_t {
public:
  explicit BuildLog(std::string text) : text_(std::move(text)) {}
  static BuildLog *from(ze_module_build_log_handle_t h) { return static_cast<BuildLog *>(h); }
  const std::string &text() const { return text_; }

private:
  std::string text_;
};

} // namespace zeal::cpu
