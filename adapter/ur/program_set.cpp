// A UR program's zeal Programs, one per device, and a UR kernel's zeal Kernels.
#include "adapter/ur/program_set.hpp"

namespace zeal::adapter::ur {

Program *UrProgram::of(const Device &device) const {
  for (const Ref<Program> &p : programs_)
    if (&p->device() == &device) return p.get();
  return nullptr;
}

Outcome UrProgram::of(ur_device_handle_t handle, std::string_view entry, Program *&out) const {
  Device *device = nullptr;
  if (Outcome o = check_handle(handle, device); !o.ok()) return o;
  out = of(*device);
  if (out != nullptr) return {};
  return fail(UR_RESULT_ERROR_INVALID_DEVICE,
              fmt::format("{}: the {} is not for device '{}'", entry, describe(), device->name()));
}

Outcome UrProgram::of(uint32_t count, const ur_device_handle_t *devices, std::string_view entry,
                      std::vector<Program *> &out) const {
  out.clear();
  for (uint32_t i = 0; i < count; ++i) {
    Program *p = nullptr;
    if (Outcome o = of(devices[i], entry, p); !o.ok()) return o;
    if (std::find(out.begin(), out.end(), p) != out.end())
      return fail(UR_RESULT_ERROR_INVALID_DEVICE,
                  fmt::format("{}: device '{}' is listed twice", entry, p->device().name()));
    out.push_back(p);
  }
  return {};
}

Program &UrProgram::representative() const {
  for (const Ref<Program> &p : programs_)
    if (p->state() == ZEAL_PROGRAM_STATE_EXECUTABLE) return *p;
  return first();
}

std::string UrProgram::describe() const {
  if (programs_.size() == 1) return first().describe();
  // Each zeal Program names its device; the image is the same for all.
  std::string what = first().describe();
  if (size_t device = what.rfind(" for device '"); device != std::string::npos) what.resize(device);
  return fmt::format("{} for {} devices", what, programs_.size());
}

Result<UrKernel *> UrKernel::create(UrProgram &program, const std::string &name) {
  std::vector<Ref<Kernel>> kernels;
  for (const Ref<Program> &p : program.programs()) {
    if (p->state() != ZEAL_PROGRAM_STATE_EXECUTABLE) continue;
    auto kernel = Kernel::create(*p, name);
    if (!kernel.ok()) return std::move(kernel).error();
    kernels.emplace_back(kernel.value(), false);
  }
  if (kernels.empty()) {
    // The zeal answer for a kernel of a program that is not executable, with its sentence.
    auto module = program.first().module_of(name);
    if (!module.ok()) return std::move(module).error();
    return make_error(ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE,
                      fmt::format("{} is not built for any of its devices", program.describe()));
  }
  return new UrKernel(program, std::move(kernels));
}

UrKernel::UrKernel(UrProgram &program, Ref<Kernel> kernel) : Object(kKind), program_(&program) {
  kernels_.push_back(std::move(kernel));
}

Outcome UrKernel::of(const Device &device, std::string_view entry, Kernel *&out) const {
  out = of(device);
  if (out != nullptr) return {};
  if (program_->of(device) == nullptr)
    return fail(UR_RESULT_ERROR_INVALID_DEVICE, fmt::format("{}: kernel '{}' is of a {}, not for device '{}'", entry,
                                                            first().name(), program_->describe(), device.name()));
  return fail(UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE,
              fmt::format("{}: kernel '{}' has no code for device '{}': its program was not built for that device "
                          "when the kernel was made",
                          entry, first().name(), device.name()));
}

} // namespace zeal::adapter::ur
