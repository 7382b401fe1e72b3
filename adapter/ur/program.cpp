// UR entry points that make programs: create, compile, build and link (and their device-list forms), spec
// constants, retain and release, over the zeal Program the zeal ABI makes.
#include "adapter/ur/program.hpp"

namespace zeal::adapter::ur {

Outcome check_program_device(const Program &program, ur_device_handle_t handle, std::string_view entry) {
  Device *device = nullptr;
  if (Outcome o = check_handle(handle, "device", UR_RESULT_ERROR_INVALID_DEVICE, device); !o.ok()) return o;
  if (device == &program.device()) return {};
  return fail(UR_RESULT_ERROR_INVALID_DEVICE, fmt::format("{}: the {} is not for device '{}'", entry,
                                                          program.describe(), device->name()));
}

namespace {

// A UR program over a context is for all its devices, a zeal Program for one (DESIGN.md says why more are
// refused for now).
Outcome only_device(const Context &context, std::string_view entry, Device *&out) {
  if (context.devices().size() != 1)
    return fail(UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                fmt::format("{}: the context has {} devices, but zeal's UR adapter builds programs for contexts of "
                            "one device only (a zeal program is built for one device)",
                            entry, context.devices().size()));
  out = context.devices().front();
  return {};
}

// The one device of a device list (not empty), which must be in the context.
Outcome listed_device(const Context &context, uint32_t count, ur_device_handle_t *devices, std::string_view entry,
                      Device *&out) {
  if (count > 1)
    return fail(UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                fmt::format("{}: {} devices given, but a zeal program is for one device: make a program per device",
                            entry, count));
  if (Outcome o = check_handle(devices[0], "device", UR_RESULT_ERROR_INVALID_DEVICE, out); !o.ok()) return o;
  return with_code(UR_RESULT_ERROR_INVALID_DEVICE, Program::check_device_in_context(entry, context, *out));
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

Outcome create(Context &context, Device &device, zeal_program_format_t format, const void *bytes, size_t size,
               ur_program_handle_t *out) {
  const zeal_program_desc_t desc{format, bytes, size, 0, nullptr};
  auto program = Program::create(context, device, desc);
  if (!program.ok()) return std::move(program).error();
  *out = to_ur<ur_program_handle_t>(program.value());
  return {};
}

ur_result_t create_with_il(ur_context_handle_t hContext, const void *il, size_t length,
                           const ur_program_properties_t *properties, ur_program_handle_t *out) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(hContext, "context", UR_RESULT_ERROR_INVALID_CONTEXT, context); !o.ok()) return o;
    if (il == nullptr || out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urProgramCreateWithIL: pIL or phProgram is null");
    if (length == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, "urProgramCreateWithIL: length is 0");
    if (Outcome o = check_properties(properties, "urProgramCreateWithIL"); !o.ok()) return o;
    Device *device = nullptr;
    if (Outcome o = only_device(*context, "urProgramCreateWithIL", device); !o.ok()) return o;
    return create(*context, *device, ZEAL_PROGRAM_FORMAT_SPIRV, il, length, out);
  });
}

ur_result_t create_with_binary(ur_context_handle_t hContext, uint32_t count, ur_device_handle_t *devices,
                               size_t *lengths, const uint8_t **binaries, const ur_program_properties_t *properties,
                               ur_program_handle_t *out) {
  constexpr const char *entry = "urProgramCreateWithBinary";
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(hContext, "context", UR_RESULT_ERROR_INVALID_CONTEXT, context); !o.ok()) return o;
    if (devices == nullptr || lengths == nullptr || binaries == nullptr || out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER,
                  "urProgramCreateWithBinary: phDevices, pLengths, ppBinaries or phProgram is null");
    if (count == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, "urProgramCreateWithBinary: numDevices is 0");
    if (Outcome o = check_properties(properties, entry); !o.ok()) return o;
    Device *device = nullptr;
    if (Outcome o = listed_device(*context, count, devices, entry, device); !o.ok()) return o;
    if (binaries[0] == nullptr || lengths[0] == 0)
      return fail(UR_RESULT_ERROR_INVALID_NATIVE_BINARY,
                  fmt::format("urProgramCreateWithBinary: the binary for device '{}' is null or empty", device->name()));
    return create(*context, *device, ZEAL_PROGRAM_FORMAT_NATIVE, binaries[0], lengths[0], out);
  });
}

// The program and the context it is said to be in.
Outcome program_in(ur_context_handle_t hContext, ur_program_handle_t hProgram, std::string_view entry,
                   Program *&program) {
  Context *context = nullptr;
  if (Outcome o = check_handle(hContext, "context", UR_RESULT_ERROR_INVALID_CONTEXT, context); !o.ok()) return o;
  if (Outcome o = check_handle(hProgram, "program", UR_RESULT_ERROR_INVALID_PROGRAM, program); !o.ok()) return o;
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

// The program a *Exp form builds or compiles: zeal builds a program for its own device, so that is the device
// list to give.
Outcome program_for(ur_program_handle_t handle, uint32_t count, ur_device_handle_t *devices,
                    ur_exp_program_flags_t flags, std::string_view entry, Program *&program) {
  if (Outcome o = check_handle(handle, "program", UR_RESULT_ERROR_INVALID_PROGRAM, program); !o.ok()) return o;
  if (Outcome o = check_exp_arguments(count, devices, flags, entry); !o.ok()) return o;
  for (uint32_t i = 0; i < count; ++i)
    if (Outcome o = check_program_device(*program, devices[i], entry); !o.ok()) return o;
  return {};
}

// A build refused for an import nothing exports is, to UR, a failed build.
Outcome built(Status status) {
  return Outcome(std::move(status)).remap(UR_RESULT_ERROR_PROGRAM_LINK_FAILURE, UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE);
}

ur_result_t build(ur_context_handle_t hContext, ur_program_handle_t hProgram, const char *options) {
  return run([&]() -> Outcome {
    Program *program = nullptr;
    if (Outcome o = program_in(hContext, hProgram, "urProgramBuild", program); !o.ok()) return o;
    return built(program->build(options));
  });
}

ur_result_t compile(ur_context_handle_t hContext, ur_program_handle_t hProgram, const char *options) {
  return run([&]() -> Outcome {
    Program *program = nullptr;
    if (Outcome o = program_in(hContext, hProgram, "urProgramCompile", program); !o.ok()) return o;
    return program->compile(options);
  });
}

ur_result_t build_exp(ur_program_handle_t hProgram, uint32_t count, ur_device_handle_t *devices,
                      ur_exp_program_flags_t flags, const char *options) {
  return run([&]() -> Outcome {
    Program *program = nullptr;
    if (Outcome o = program_for(hProgram, count, devices, flags, "urProgramBuildExp", program); !o.ok()) return o;
    return built(program->build(options));
  });
}

ur_result_t compile_exp(ur_program_handle_t hProgram, uint32_t count, ur_device_handle_t *devices,
                        ur_exp_program_flags_t flags, const char *options) {
  return run([&]() -> Outcome {
    Program *program = nullptr;
    if (Outcome o = program_for(hProgram, count, devices, flags, "urProgramCompileExp", program); !o.ok()) return o;
    return program->compile(options);
  });
}

// Links for `device`; on a failure with a log, *out is a program holding that log, as UR specifies.
Outcome link(Context &context, Device &device, uint32_t count, const ur_program_handle_t *handles,
             const char *options, ur_program_handle_t *out, std::string_view entry) {
  if (handles == nullptr || out == nullptr)
    return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: phPrograms or phProgram is null", entry));
  *out = nullptr;
  if (Outcome o = with_code(UR_RESULT_ERROR_INVALID_SIZE, Program::check_link_count(entry, count, handles)); !o.ok())
    return o;
  std::vector<Program *> objects;
  for (uint32_t i = 0; i < count; ++i) {
    Program *program = nullptr;
    if (Outcome o = check_handle(handles[i], "program", UR_RESULT_ERROR_INVALID_PROGRAM, program); !o.ok()) return o;
    objects.push_back(program);
  }
  Program *log_holder = nullptr;
  auto linked = Program::link(context, device, objects, options, &log_holder);
  if (!linked.ok()) {
    if (log_holder != nullptr) *out = to_ur<ur_program_handle_t>(log_holder);
    return std::move(linked).error();
  }
  *out = to_ur<ur_program_handle_t>(linked.value());
  return {};
}

ur_result_t link_all(ur_context_handle_t hContext, uint32_t count, const ur_program_handle_t *programs,
                     const char *options, ur_program_handle_t *out) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(hContext, "context", UR_RESULT_ERROR_INVALID_CONTEXT, context); !o.ok()) return o;
    Device *device = nullptr;
    if (Outcome o = only_device(*context, "urProgramLink", device); !o.ok()) return o;
    return link(*context, *device, count, programs, options, out, "urProgramLink");
  });
}

ur_result_t link_exp(ur_context_handle_t hContext, uint32_t num_devices, ur_device_handle_t *devices,
                     ur_exp_program_flags_t flags, uint32_t count, const ur_program_handle_t *programs,
                     const char *options, ur_program_handle_t *out) {
  constexpr const char *entry = "urProgramLinkExp";
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(hContext, "context", UR_RESULT_ERROR_INVALID_CONTEXT, context); !o.ok()) return o;
    if (Outcome o = check_exp_arguments(num_devices, devices, flags, entry); !o.ok()) return o;
    Device *device = nullptr;
    if (Outcome o = listed_device(*context, num_devices, devices, entry, device); !o.ok()) return o;
    return link(*context, *device, count, programs, options, out, entry);
  });
}

ur_result_t set_spec_constants(ur_program_handle_t hProgram, uint32_t count,
                               const ur_specialization_constant_info_t *constants) {
  constexpr const char *entry = "urProgramSetSpecializationConstants";
  return run([&]() -> Outcome {
    Program *program = nullptr;
    if (Outcome o = check_handle(hProgram, "program", UR_RESULT_ERROR_INVALID_PROGRAM, program); !o.ok()) return o;
    if (constants == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urProgramSetSpecializationConstants: pSpecConstants is null");
    if (count == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, "urProgramSetSpecializationConstants: count is 0");
    // All checked before any is set, so that a refused call changes nothing.
    for (uint32_t i = 0; i < count; ++i) {
      const auto &c = constants[i];
      if (Outcome o = with_code(UR_RESULT_ERROR_INVALID_VALUE, Program::check_spec_constant(entry, c.id, c.size, c.pValue));
          !o.ok())
        return o;
    }
    for (uint32_t i = 0; i < count; ++i)
      if (Status s = program->set_spec_constant(constants[i].id, constants[i].size, constants[i].pValue); !s.ok())
        return s;
    return {};
  });
}

// A native handle is a Level Zero module (what urProgramGetNativeHandle gives) built for the context's device:
// an executable program of its kernels. Not owned unless the properties say so.
ur_result_t program_from_native(ur_native_handle_t native, ur_context_handle_t hContext,
                                const ur_program_native_properties_t *properties, ur_program_handle_t *out) {
  constexpr const char *entry = "urProgramCreateWithNativeHandle";
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(hContext, "context", UR_RESULT_ERROR_INVALID_CONTEXT, context); !o.ok()) return o;
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: phProgram is null", entry));
    Device *device = nullptr;
    if (Outcome o = only_device(*context, entry, device); !o.ok()) return o;
    const bool owned = properties != nullptr && properties->isNativeHandleOwned;
    auto program = Program::adopt(*context, *device, reinterpret_cast<ze_module_handle_t>(native), owned);
    if (!program.ok()) return std::move(program).error();
    *out = to_ur<ur_program_handle_t>(program.value());
    return {};
  });
}

} // namespace

void implement(ur_program_dditable_t &t) {
  t.pfnCreateWithNativeHandle = program_from_native;
  t.pfnCreateWithIL = create_with_il;
  t.pfnCreateWithBinary = create_with_binary;
  t.pfnBuild = build;
  t.pfnCompile = compile;
  t.pfnLink = link_all;
  t.pfnRetain = [](ur_program_handle_t p) {
    return retain_or_release<Program>(p, "program", UR_RESULT_ERROR_INVALID_PROGRAM, true);
  };
  t.pfnRelease = [](ur_program_handle_t p) {
    return retain_or_release<Program>(p, "program", UR_RESULT_ERROR_INVALID_PROGRAM, false);
  };
  t.pfnSetSpecializationConstants = set_spec_constants;
  implement_program_queries(t);
}

void implement(ur_program_exp_dditable_t &t) {
  t.pfnBuildExp = build_exp;
  t.pfnCompileExp = compile_exp;
  t.pfnLinkExp = link_exp;
}

} // namespace zeal::adapter::ur
