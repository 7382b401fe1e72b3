// UR's programs and kernels are for the devices of a context; zeal's are for one device. A UrProgram is the
// zeal Programs of one image, one per device, and a UrKernel the zeal Kernels of one name in them: each UR
// query that names a device asks that device's, the others ask the first, and a launch takes the kernel of
// its queue's device (DESIGN.md).
#pragma once

#include "adapter/core/kernel.hpp"
#include "adapter/core/program.hpp"
#include "adapter/ur/entry.hpp"

#include <vector>

namespace zeal::adapter::ur {

class UrProgram : public Object {
public:
  static constexpr Kind kKind = Kind::UrProgram;

  // `programs`: one per device, none twice, all of `context` (not empty).
  UrProgram(Context &context, std::vector<Ref<Program>> programs)
      : Object(kKind), context_(&context), programs_(std::move(programs)) {}

  Context &context() const { return *context_; }
  std::span<const Ref<Program>> programs() const { return programs_; }
  Program &first() const { return *programs_.front(); }
  // The program of `device`, or null when the UR program is not for it.
  Program *of(const Device &device) const;
  // The program of a device handle a UR call names: INVALID_DEVICE when it is not one of the program's devices.
  Outcome of(ur_device_handle_t handle, std::string_view entry, Program *&out) const;
  // The programs of the devices an *Exp call lists (not empty): each must be one of the program's.
  Outcome of(uint32_t count, const ur_device_handle_t *devices, std::string_view entry,
             std::vector<Program *> &out) const;
  // The first program that is executable (kernel names and counts are the same in each), else the first.
  Program &representative() const;
  std::string describe() const;

private:
  Ref<Context> context_;
  std::vector<Ref<Program>> programs_;
};

class UrKernel : public Object {
public:
  static constexpr Kind kKind = Kind::UrKernel;

  // The kernel of `name` in each executable program of `program` (INVALID_PROGRAM_EXECUTABLE when none is).
  static Result<UrKernel *> create(UrProgram &program, const std::string &name);
  // One kernel adopted from a native handle, in a UR program of one device.
  UrKernel(UrProgram &program, Ref<Kernel> kernel);

  UrProgram &program() const { return *program_; }
  std::span<const Ref<Kernel>> kernels() const { return kernels_; }
  Kernel &first() const { return *kernels_.front(); }
  // The kernel for `device`, or null when its program was not built for it.
  Kernel *of(const Device &device) const {
    for (const Ref<Kernel> &k : kernels_)
      if (&k->program().device() == &device) return k.get();
    return nullptr;
  }
  // The kernel a launch or query on `device` uses; `entry` names the caller in the sentence when there is none
  // (INVALID_DEVICE for a device outside the program, INVALID_PROGRAM_EXECUTABLE for one it was not built for).
  Outcome of(const Device &device, std::string_view entry, Kernel *&out) const;

private:
  UrKernel(UrProgram &program, std::vector<Ref<Kernel>> kernels)
      : Object(kKind), program_(&program), kernels_(std::move(kernels)) {}

  Ref<UrProgram> program_;
  std::vector<Ref<Kernel>> kernels_;
};

} // namespace zeal::adapter::ur
