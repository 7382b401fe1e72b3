// UR entry points that make programs: create, compile, build and link (and their device-list forms), spec
// constants, retain and release, over the zeal Programs the zeal ABI makes, one per device.
#include "adapter/ur/program.hpp"

namespace zeal::adapter::ur {
namespace {

// The devices of a device list (not empty): each in the context, none twice.
Outcome listed_devices(const Context &context, uint32_t count, const ur_device_handle_t *devices,
                       std::string_view entry, std::vector<Device *> &out) {
  for (uint32_t i = 0; i < count; ++i) {
    Device *device = nullptr;
    if (Outcome o = check_handle(devices[i], device); !o.ok()) return o;
    if (Outcome o = with_code(UR_RESULT_ERROR_INVALID_DEVICE, Program::check_device_in_context(entry, context, *device));
        !o.ok())
      return o;
    if (std::find(out.begin(), out.end(), device) != out.end())
      return fail(UR_RESULT_ERROR_INVALID_DEVICE, fmt::format("{}: device '{}' is listed twice", entry, device->name()));
    out.push_back(device);
  }
  return {};
}

// A UR program of a zeal Program for each device, made by `make(device, index)`; the first failure is the
// answer, and the programs made before it go.
template <class Make>
Outcome make_program(Context &context, std::span<Device *const> devices, ur_program_handle_t *out, Make &&make) {
  std::vector<Ref<Program>> programs;
  for (size_t i = 0; i < devices.size(); ++i) {
    Result<Program *> program = make(*devices[i], i);
    if (!program.ok()) return std::move(program).error();
    programs.emplace_back(program.value(), false);
  }
  *out = to_ur<ur_program_handle_t>(new UrProgram(context, std::move(programs)));
  return {};
}

// Compiles or builds each program with `step`: all are tried, so that each device's log says what happened,
// and the first failure is the answer.
template <class Step>
Outcome for_each_program(std::span<Program *const> programs, Step &&step) {
  Status first;
  for (Program *p : programs)
    if (Status s = step(*p); !s.ok() && first.ok()) first = std::move(s);
  return first;
}

std::vector<Program *> all_of(const UrProgram &program) {
  std::vector<Program *> list;
  for (const Ref<Program> &p : program.programs()) list.push_back(p.get());
  return list;
}

// UR's metadata names DPC++'s properties (e.g. `<kernel>@reqd_work_group_size`), which zeal reads from the
// SPIR-V instead; only the pointers are checked.
Outcome check_properties(const ur_program_properties_t *properties, std::string_view entry) {
  if (properties == nullptr) return {};
  if (properties->count > 0 && properties->pMetadatas == nullptr)
    return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER,
                fmt::format("{}: pProperties->count is {} but pMetadatas is null", entry, properties->count));
  if (properties->count == 0 && properties->pMetadatas != nullptr)
    return fail(UR_RESULT_ERROR_INVALID_SIZE, fmt::format("{}: pProperties->pMetadatas is given but count is 0", entry));
  return {};
}

// A UR program over IL is for every device of its context.
ur_result_t create_with_il(ur_context_handle_t hContext, const void *il, size_t length,
                           const ur_program_properties_t *properties, ur_program_handle_t *out) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(hContext, context); !o.ok()) return o;
    if (il == nullptr || out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urProgramCreateWithIL: pIL or phProgram is null");
    if (length == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, "urProgramCreateWithIL: length is 0");
    if (Outcome o = check_properties(properties, "urProgramCreateWithIL"); !o.ok()) return o;
    const zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_SPIRV, il, length, 0, nullptr};
    return make_program(*context, context->devices(), out,
                        [&](Device &device, size_t) { return Program::create(*context, device, desc); });
  });
}

// A native binary for each listed device; the program is for those devices.
ur_result_t create_with_binary(ur_context_handle_t hContext, uint32_t count, ur_device_handle_t *devices,
                               size_t *lengths, const uint8_t **binaries, const ur_program_properties_t *properties,
                               ur_program_handle_t *out) {
  constexpr const char *entry = "urProgramCreateWithBinary";
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(hContext, context); !o.ok()) return o;
    if (devices == nullptr || lengths == nullptr || binaries == nullptr || out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER,
                  "urProgramCreateWithBinary: phDevices, pLengths, ppBinaries or phProgram is null");
    if (count == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, "urProgramCreateWithBinary: numDevices is 0");
    if (Outcome o = check_properties(properties, entry); !o.ok()) return o;
    std::vector<Device *> listed;
    if (Outcome o = listed_devices(*context, count, devices, entry, listed); !o.ok()) return o;
    // A missing binary is a bad value (UR's multi-device test); an empty one is not a binary.
    for (uint32_t i = 0; i < count; ++i)
      if (binaries[i] == nullptr || lengths[i] == 0)
        return fail(binaries[i] == nullptr ? UR_RESULT_ERROR_INVALID_VALUE : UR_RESULT_ERROR_INVALID_NATIVE_BINARY,
                    fmt::format("urProgramCreateWithBinary: the binary for device '{}' is {}", listed[i]->name(),
                                binaries[i] == nullptr ? "null" : "empty"));
    return make_program(*context, listed, out, [&](Device &device, size_t i) {
      const zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_NATIVE, binaries[i], lengths[i], 0, nullptr};
      return Program::create(*context, device, desc);
    });
  });
}

// The program and the context it is said to be in.
Outcome program_in(ur_context_handle_t hContext, ur_program_handle_t hProgram, std::string_view entry,
                   UrProgram *&program) {
  Context *context = nullptr;
  if (Outcome o = check_handle(hContext, context); !o.ok()) return o;
  if (Outcome o = check_handle(hProgram, program); !o.ok()) return o;
  if (&program->context() == context) return {};
  return fail(UR_RESULT_ERROR_INVALID_CONTEXT,
              fmt::format("{}: the {} belongs to another context", entry, program->describe()));
}

// The device list and flags of the *Exp forms.
Outcome check_exp_arguments(uint32_t count, const ur_device_handle_t *devices, ur_exp_program_flags_t flags,
                            std::string_view entry) {
  if (devices == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: phDevices is null", entry));
  // ALLOW_UNRESOLVED_SYMBOLS allows and does not require: zeal resolves every import when it links, and a link
  // that cannot fails naming what is missing.
  if (flags & UR_EXP_PROGRAM_FLAGS_MASK)
    return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                fmt::format("{}: flags {:#x} hold bits ur_exp_program_flags_t does not define", entry, flags));
  if (count == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, fmt::format("{}: numDevices is 0", entry));
  return {};
}

// The programs of the devices a *Exp form builds or compiles for: each must be one of the program's.
Outcome programs_for(ur_program_handle_t handle, uint32_t count, ur_device_handle_t *devices,
                     ur_exp_program_flags_t flags, std::string_view entry, std::vector<Program *> &programs) {
  UrProgram *program = nullptr;
  if (Outcome o = check_handle(handle, program); !o.ok()) return o;
  if (Outcome o = check_exp_arguments(count, devices, flags, entry); !o.ok()) return o;
  return program->of(count, devices, entry, programs);
}

// A build refused for an import nothing exports is, to UR, a failed build.
Outcome built(Outcome outcome) {
  return std::move(outcome).remap(UR_RESULT_ERROR_PROGRAM_LINK_FAILURE, UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE);
}
// A program already built for a device is, for UR as for Intel's adapter, built: building it again changes
// nothing (the *Exp forms build for subsets of devices, one after another, and may name a device twice).
Outcome build_all(std::span<Program *const> programs, const char *options) {
  return built(for_each_program(programs, [&](Program &p) -> Status {
    if (p.state() == ZEAL_PROGRAM_STATE_EXECUTABLE) return {};
    return p.build(options);
  }));
}
// A native binary is compiled already: only IL compiles (UR's Level Zero semantics).
Outcome native_refused(std::span<Program *const> programs, std::string_view entry) {
  for (Program *p : programs)
    if (p->format() == ZEAL_PROGRAM_FORMAT_NATIVE)
      return fail(UR_RESULT_ERROR_INVALID_OPERATION,
                  fmt::format("{}: {} was made from a native binary, which is compiled already; only a program made "
                              "from IL compiles, and only compiled IL links",
                              entry, p->describe()));
  return {};
}
Outcome compile_all(std::span<Program *const> programs, const char *options) {
  if (Outcome o = native_refused(programs, "urProgramCompile"); !o.ok()) return o;
  return for_each_program(programs, [&](Program &p) { return p.compile(options); });
}

using ProgramStep = Outcome (*)(std::span<Program *const> programs, const char *options);

// urProgramBuild and urProgramCompile: the step for every device of the program.
template <ProgramStep step, EntryName entry>
ur_result_t on_all_devices(ur_context_handle_t hContext, ur_program_handle_t hProgram, const char *options) {
  return run([&]() -> Outcome {
    UrProgram *program = nullptr;
    if (Outcome o = program_in(hContext, hProgram, entry.text, program); !o.ok()) return o;
    return step(all_of(*program), options);
  });
}

// urProgramBuildExp and urProgramCompileExp: the step for the devices named.
template <ProgramStep step, EntryName entry>
ur_result_t on_devices(ur_program_handle_t hProgram, uint32_t count, ur_device_handle_t *devices,
                       ur_exp_program_flags_t flags, const char *options) {
  return run([&]() -> Outcome {
    std::vector<Program *> programs;
    if (Outcome o = programs_for(hProgram, count, devices, flags, entry.text, programs); !o.ok()) return o;
    return step(programs, options);
  });
}

// Links the objects' programs of each device into a program for those devices. On a failure *out is, as UR
// specifies, a program holding each device's log, when every device has one (the zeal link makes a program
// holding its log for any failure past its argument checks).
Outcome link(Context &context, std::span<Device *const> devices, uint32_t count, const ur_program_handle_t *handles,
             const char *options, ur_program_handle_t *out, std::string_view entry) {
  if (handles == nullptr || out == nullptr)
    return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: phPrograms or phProgram is null", entry));
  *out = nullptr;
  if (Outcome o = with_code(UR_RESULT_ERROR_INVALID_SIZE, Program::check_link_count(entry, count, handles)); !o.ok())
    return o;
  std::vector<UrProgram *> inputs;
  for (uint32_t i = 0; i < count; ++i) {
    UrProgram *program = nullptr;
    if (Outcome o = check_handle(handles[i], program); !o.ok()) return o;
    inputs.push_back(program);
  }
  std::vector<std::vector<Program *>> objects(devices.size());
  for (size_t d = 0; d < devices.size(); ++d) {
    for (UrProgram *input : inputs) {
      Program *p = input->of(*devices[d]);
      if (p == nullptr)
        return fail(UR_RESULT_ERROR_INVALID_DEVICE, fmt::format("{}: the {} is not for device '{}'", entry,
                                                                input->describe(), devices[d]->name()));
      objects[d].push_back(p);
    }
    if (Outcome o = native_refused(objects[d], entry); !o.ok()) return o;
  }
  std::vector<Ref<Program>> linked;
  Outcome first;
  for (size_t d = 0; d < devices.size(); ++d) {
    Program *log_holder = nullptr;
    auto program = Program::link(context, *devices[d], objects[d], options, &log_holder);
    if (program.ok()) {
      linked.emplace_back(program.value(), false);
      continue;
    }
    if (log_holder != nullptr) linked.emplace_back(log_holder, false);
    if (first.ok()) first = std::move(program).error();
  }
  if (linked.size() == devices.size())
    *out = to_ur<ur_program_handle_t>(new UrProgram(context, std::move(linked)));
  return first;
}

ur_result_t link_all(ur_context_handle_t hContext, uint32_t count, const ur_program_handle_t *programs,
                     const char *options, ur_program_handle_t *out) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(hContext, context); !o.ok()) return o;
    return link(*context, context->devices(), count, programs, options, out, "urProgramLink");
  });
}

ur_result_t link_exp(ur_context_handle_t hContext, uint32_t num_devices, ur_device_handle_t *devices,
                     ur_exp_program_flags_t flags, uint32_t count, const ur_program_handle_t *programs,
                     const char *options, ur_program_handle_t *out) {
  constexpr const char *entry = "urProgramLinkExp";
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(hContext, context); !o.ok()) return o;
    if (Outcome o = check_exp_arguments(num_devices, devices, flags, entry); !o.ok()) return o;
    std::vector<Device *> listed;
    if (Outcome o = listed_devices(*context, num_devices, devices, entry, listed); !o.ok()) return o;
    return link(*context, listed, count, programs, options, out, entry);
  });
}

ur_result_t set_spec_constants(ur_program_handle_t hProgram, uint32_t count,
                               const ur_specialization_constant_info_t *constants) {
  constexpr const char *entry = "urProgramSetSpecializationConstants";
  return run([&]() -> Outcome {
    UrProgram *program = nullptr;
    if (Outcome o = check_handle(hProgram, program); !o.ok()) return o;
    if (constants == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urProgramSetSpecializationConstants: pSpecConstants is null");
    if (count == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, "urProgramSetSpecializationConstants: count is 0");
    // All checked before any is set, so that a refused call changes nothing.
    for (uint32_t i = 0; i < count; ++i) {
      const auto &c = constants[i];
      if (Outcome o = with_code(UR_RESULT_ERROR_INVALID_VALUE, Program::check_spec_constant(entry, c.id, c.size, c.pValue));
          !o.ok())
        return o;
      // UR's codes: an id the module does not declare is INVALID_SPEC_ID, a size not its type's INVALID_VALUE.
      for (const Ref<Program> &p : program->programs())
        if (Status s = p->check_declares_spec_constant(entry, c.id, c.size); !s.ok())
          return Outcome(std::move(s))
              .remap(to_ur_result(ZEAL_RESULT_ERROR_INVALID_ARGUMENT), UR_RESULT_ERROR_INVALID_SPEC_ID)
              .remap(to_ur_result(ZEAL_RESULT_ERROR_INVALID_SIZE), UR_RESULT_ERROR_INVALID_VALUE);
    }
    for (const Ref<Program> &p : program->programs())
      for (uint32_t i = 0; i < count; ++i)
        if (Status s = p->set_spec_constant(constants[i].id, constants[i].size, constants[i].pValue); !s.ok())
          return s;
    return {};
  });
}

// A native handle is a Level Zero module (what urProgramGetNativeHandle gives): an executable program of its
// kernels. Level Zero cannot say which device a module was made for, so the context must have one device.
// Not owned unless the properties say so.
ur_result_t program_from_native(ur_native_handle_t native, ur_context_handle_t hContext,
                                const ur_program_native_properties_t *properties, ur_program_handle_t *out) {
  constexpr const char *entry = "urProgramCreateWithNativeHandle";
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(hContext, context); !o.ok()) return o;
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: phProgram is null", entry));
    if (context->devices().size() != 1)
      return fail(UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                  fmt::format("{}: the context has {} devices, and a Level Zero module does not say which one it was "
                              "made for: give a context of that one device",
                              entry, context->devices().size()));
    const bool owned = properties != nullptr && properties->isNativeHandleOwned;
    return make_program(*context, context->devices(), out, [&](Device &device, size_t) {
      return Program::adopt(*context, device, reinterpret_cast<ze_module_handle_t>(native), owned);
    });
  });
}

} // namespace

void implement(ur_program_dditable_t &t) {
  t.pfnCreateWithNativeHandle = program_from_native;
  t.pfnCreateWithIL = create_with_il;
  t.pfnCreateWithBinary = create_with_binary;
  t.pfnBuild = on_all_devices<build_all, "urProgramBuild">;
  t.pfnCompile = on_all_devices<compile_all, "urProgramCompile">;
  t.pfnLink = link_all;
  t.pfnRetain = retain<UrProgram>;
  t.pfnRelease = release<UrProgram>;
  t.pfnSetSpecializationConstants = set_spec_constants;
  implement_program_queries(t);
}

void implement(ur_program_exp_dditable_t &t) {
  t.pfnBuildExp = on_devices<build_all, "urProgramBuildExp">;
  t.pfnCompileExp = on_devices<compile_all, "urProgramCompileExp">;
  t.pfnLinkExp = link_exp;
}

} // namespace zeal::adapter::ur
