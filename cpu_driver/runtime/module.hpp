// Modules (a compiled Program, dynamically linked or not) and their build logs.
#pragma once

#include "cpu_driver/compiler/compiler.hpp"
#include "cpu_driver/runtime/handles.hpp"

#include <memory>
#include <string>

namespace zeal::cpu {

class Device;

class Module : public _ze_module_handle_t {
public:
  Module(std::shared_ptr<Program> program, Device &device) : program_(std::move(program)), device_(device) {}
  static Module *from(ze_module_handle_t h) { return static_cast<Module *>(h); }

  // Shared with kernels, queued launches and importing modules, which may outlive the module's handle.
  std::shared_ptr<const Program> program() const { return program_; }
  // Only zeModuleDynamicLink changes a program, under its lock (module_link.cpp).
  const std::shared_ptr<Program> &mutable_program() { return program_; }
  Device &device() { return device_; }

private:
  std::shared_ptr<Program> program_;
  Device &device_;
};

using ze::BuildLog;

// The entry points of module_link.cpp, installed by module.cpp's table.
ze_result_t module_dynamic_link(uint32_t count, ze_module_handle_t *modules, ze_module_build_log_handle_t *link_log);
ze_result_t module_inspect_linkage(ze_linkage_inspection_ext_desc_t *desc, uint32_t count, ze_module_handle_t *modules,
                                   ze_module_build_log_handle_t *log);

} // namespace zeal::cpu
