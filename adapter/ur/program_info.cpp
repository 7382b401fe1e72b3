// UR queries of programs: info, build info, function and global variable pointers, the native handle — from the
// facts the zeal Program already answers.
#include "adapter/ur/program.hpp"

#include <algorithm>

namespace zeal::adapter::ur {
namespace {

using R = Result<InfoValue>;

// The binary a UR program holds for a device: once compiled or built its module's native binary (the zeal
// answer), before that the native binary it was created from, or none for IL.
R binary_of(const Program &p) {
  if (p.state() != ZEAL_PROGRAM_STATE_INPUT) return p.info(ZEAL_PROGRAM_INFO_NATIVE_BINARY);
  if (p.format() == ZEAL_PROGRAM_FORMAT_NATIVE) return info_array<uint8_t>(p.input());
  return InfoValue{};
}

// One answer per device, in the program's order.
template <class T, class Of>
R per_device(const UrProgram &u, Of &&of) {
  std::vector<T> values;
  for (const Ref<Program> &p : u.programs()) {
    auto v = of(*p);
    if (!v.ok()) return std::move(v).error();
    values.push_back(v.value());
  }
  return info_array<T>(values);
}

Result<size_t> binary_size(const Program &p) {
  auto binary = binary_of(p);
  if (!binary.ok()) return std::move(binary).error();
  return binary.value().bytes.size();
}

// Kernel names and counts are the image's, the same for each device: the first executable program answers.
const UrInfoRow<UrProgram, ur_program_info_t> kProgramInfo[] = {
    {UR_PROGRAM_INFO_REFERENCE_COUNT, "REFERENCE_COUNT", [](const UrProgram &u) -> R { return info_of<uint32_t>(u.ref_count()); }},
    {UR_PROGRAM_INFO_CONTEXT, "CONTEXT", [](const UrProgram &u) -> R { return info_of(to_ur<ur_context_handle_t>(&u.context())); }},
    {UR_PROGRAM_INFO_NUM_DEVICES, "NUM_DEVICES",
     [](const UrProgram &u) -> R { return info_of<uint32_t>(u.programs().size()); }},
    {UR_PROGRAM_INFO_DEVICES, "DEVICES",
     [](const UrProgram &u) -> R {
       return per_device<ur_device_handle_t>(
           u, [](const Program &p) -> Result<ur_device_handle_t> { return to_ur<ur_device_handle_t>(&p.device()); });
     }},
    {UR_PROGRAM_INFO_IL, "IL",
     [](const UrProgram &u) -> R {
       const Program &p = u.first();
       return p.format() == ZEAL_PROGRAM_FORMAT_SPIRV ? info_array<uint8_t>(p.input()) : InfoValue{};
     }},
    {UR_PROGRAM_INFO_BINARY_SIZES, "BINARY_SIZES", [](const UrProgram &u) -> R { return per_device<size_t>(u, binary_size); }},
    {UR_PROGRAM_INFO_NUM_KERNELS, "NUM_KERNELS",
     [](const UrProgram &u) -> R {
       auto n = zeal_fact<uint32_t>(u.representative(), ZEAL_PROGRAM_INFO_NUM_KERNELS);
       if (!n.ok()) return std::move(n).error();
       return info_of<size_t>(n.value()); // UR's is a size_t
     }},
    {UR_PROGRAM_INFO_KERNEL_NAMES, "KERNEL_NAMES",
     [](const UrProgram &u) -> R { return u.representative().info(ZEAL_PROGRAM_INFO_KERNEL_NAMES); }},
};

// BINARIES is an array of the caller's buffers, one per device, which the binaries are copied into (each as large
// as BINARY_SIZES said): no info row can answer it. A null buffer skips its device.
ur_result_t get_binaries(ur_program_handle_t handle, size_t size, void *value, size_t *size_ret) {
  return run([&]() -> Outcome {
    UrProgram *program = nullptr;
    if (Outcome o = check_handle(handle, program); !o.ok()) return o;
    if (value == nullptr && size_ret == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urProgramGetInfo BINARIES: both outputs are null");
    const size_t needed = program->programs().size() * sizeof(uint8_t *);
    if (value != nullptr && size < needed)
      return fail(UR_RESULT_ERROR_INVALID_SIZE,
                  fmt::format("urProgramGetInfo BINARIES: propSize {} holds fewer than the {} pointers of the {}", size,
                              program->programs().size(), program->describe()));
    if (size_ret != nullptr) *size_ret = needed;
    if (value == nullptr) return {};
    for (size_t i = 0; i < program->programs().size(); ++i) {
      uint8_t *buffer = nullptr;
      std::memcpy(&buffer, static_cast<const uint8_t *>(value) + i * sizeof buffer, sizeof buffer);
      if (buffer == nullptr) continue;
      auto binary = binary_of(*program->programs()[i]);
      if (!binary.ok()) return std::move(binary).error();
      if (!binary.value().bytes.empty())
        std::memcpy(buffer, binary.value().bytes.data(), binary.value().bytes.size());
    }
    return {};
  });
}

ur_result_t program_get_info(ur_program_handle_t handle, ur_program_info_t key, size_t size, void *value, size_t *size_ret) {
  if (abi_value(key) == UR_PROGRAM_INFO_BINARIES) return get_binaries(handle, size, value, size_ret);
  return get_info<UrProgram>(handle, kProgramInfo, UR_PROGRAM_INFO_KERNEL_NAMES, key, size, value, size_ret,
                             [](const UrProgram &u) { return u.describe(); });
}

ur_program_build_status_t build_status(const Program &p) {
  if (p.state() != ZEAL_PROGRAM_STATE_INPUT) return UR_PROGRAM_BUILD_STATUS_SUCCESS;
  return p.build_failed() ? UR_PROGRAM_BUILD_STATUS_ERROR : UR_PROGRAM_BUILD_STATUS_NONE;
}

ur_program_binary_type_t binary_type(zeal_program_state_t state) {
  switch (state) {
  case ZEAL_PROGRAM_STATE_OBJECT: return UR_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
  case ZEAL_PROGRAM_STATE_EXECUTABLE: return UR_PROGRAM_BINARY_TYPE_EXECUTABLE;
  default: return UR_PROGRAM_BINARY_TYPE_NONE;
  }
}

const UrInfoRow<Program, ur_program_build_info_t> kBuildInfo[] = {
    {UR_PROGRAM_BUILD_INFO_STATUS, "STATUS", [](const Program &p) -> R { return info_of(build_status(p)); }},
    {UR_PROGRAM_BUILD_INFO_OPTIONS, "OPTIONS", [](const Program &p) -> R { return info_string(p.options()); }},
    {UR_PROGRAM_BUILD_INFO_LOG, "LOG", [](const Program &p) -> R { return p.info(ZEAL_PROGRAM_INFO_BUILD_LOG); }},
    {UR_PROGRAM_BUILD_INFO_BINARY_TYPE, "BINARY_TYPE", [](const Program &p) -> R { return info_of(binary_type(p.state())); }},
};

// The program of the device a query names.
Outcome program_of(ur_program_handle_t handle, ur_device_handle_t device, std::string_view entry, Program *&out) {
  UrProgram *program = nullptr;
  if (Outcome o = check_handle(handle, program); !o.ok()) return o;
  return program->of(device, entry, out);
}

ur_result_t get_build_info(ur_program_handle_t handle, ur_device_handle_t device, ur_program_build_info_t key,
                           size_t size, void *value, size_t *size_ret) {
  return run([&]() -> Outcome {
    Program *program = nullptr;
    if (Outcome o = program_of(handle, device, "urProgramGetBuildInfo", program); !o.ok()) return o;
    return answer_ur_info<Program, ur_program_build_info_t>(kBuildInfo, *program, key, UR_PROGRAM_BUILD_INFO_BINARY_TYPE,
                                                            size, value, size_ret, program->describe());
  });
}

ur_result_t function_pointer(ur_device_handle_t device, ur_program_handle_t handle, const char *name, void **out) {
  return run([&]() -> Outcome {
    Program *program = nullptr;
    if (Outcome o = program_of(handle, device, "urProgramGetFunctionPointer", program); !o.ok()) return o;
    if (name == nullptr || out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER,
                  "urProgramGetFunctionPointer: pFunctionName or ppFunctionPointer is null");
    auto pointer = program->function_pointer(name);
    if (!pointer.ok()) {
      // A kernel is found, but Level Zero gives no address for one: UR has a code of its own for that.
      const std::vector<std::string> kernels = program->kernel_names();
      if (std::find(kernels.begin(), kernels.end(), name) != kernels.end())
        return fail(UR_RESULT_ERROR_FUNCTION_ADDRESS_NOT_AVAILABLE,
                    fmt::format("urProgramGetFunctionPointer: '{}' is a kernel of the program, which has no function "
                                "address",
                                name));
      // UR's code for a name the program does not define.
      return Outcome(std::move(pointer).error())
          .remap(to_ur_result(ZEAL_RESULT_ERROR_INVALID_FUNCTION_NAME), UR_RESULT_ERROR_INVALID_KERNEL_NAME);
    }
    *out = pointer.value();
    return {};
  });
}

ur_result_t global_pointer(ur_device_handle_t device, ur_program_handle_t handle, const char *name, size_t *size,
                           void **out) {
  return run([&]() -> Outcome {
    Program *program = nullptr;
    if (Outcome o = program_of(handle, device, "urProgramGetGlobalVariablePointer", program); !o.ok()) return o;
    if (name == nullptr || out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER,
                  "urProgramGetGlobalVariablePointer: pGlobalVariableName or ppGlobalVariablePointerRet is null");
    auto global = program->global_pointer(name);
    // UR's code for a name the program does not define.
    if (!global.ok())
      return Outcome(std::move(global).error())
          .remap(to_ur_result(ZEAL_RESULT_ERROR_INVALID_GLOBAL_NAME), UR_RESULT_ERROR_INVALID_VALUE);
    *out = global.value().first;
    if (size != nullptr) *size = global.value().second;
    return {};
  });
}

// The Level Zero module of the program's first device, where there is one (the zeal answer for the native binary
// says when there is not); Intel's adapter also answers with one device's module.
ur_result_t native_module(ur_program_handle_t handle, ur_native_handle_t *out) {
  return run([&]() -> Outcome {
    UrProgram *program = nullptr;
    if (Outcome o = check_handle(handle, program); !o.ok()) return o;
    if (out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urProgramGetNativeHandle: phNativeProgram is null");
    auto module = program->first().single_module();
    if (!module.ok()) return std::move(module).error();
    *out = reinterpret_cast<ur_native_handle_t>(module.value());
    return {};
  });
}

} // namespace

void implement_program_queries(ur_program_dditable_t &t) {
  t.pfnGetInfo = program_get_info;
  t.pfnGetBuildInfo = get_build_info;
  t.pfnGetFunctionPointer = function_pointer;
  t.pfnGetGlobalVariablePointer = global_pointer;
  t.pfnGetNativeHandle = native_module;
}

} // namespace zeal::adapter::ur
