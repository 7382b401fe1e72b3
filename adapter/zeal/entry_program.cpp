// C ABI entry points of programs: create, compile, link, build, spec constants, info and symbols.
#include "adapter/zeal/entry_points.hpp"
#include "adapter/core/program.hpp"

namespace zeal::adapter {
namespace {

Status check_program_desc(const zeal_program_desc_t *desc) {
  if (Status s = require(desc != nullptr, "programCreate: the descriptor is null"); !s.ok()) return s;
  const int32_t format = abi_value(desc->format);
  if (format != ZEAL_PROGRAM_FORMAT_SPIRV && format != ZEAL_PROGRAM_FORMAT_NATIVE)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ENUMERATION,
                      fmt::format("programCreate: the descriptor's format {} is not a zeal_program_format_t "
                                  "(SPIRV {} or NATIVE {})",
                                  format, static_cast<int>(ZEAL_PROGRAM_FORMAT_SPIRV),
                                  static_cast<int>(ZEAL_PROGRAM_FORMAT_NATIVE)));
  if (desc->binary == nullptr || desc->size == 0)
    return make_error(ZEAL_RESULT_ERROR_INVALID_BINARY, "programCreate: the binary is null or empty");
  if (desc->num_metadata > 0 && desc->metadata == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("programCreate: metadata is null but num_metadata is {}", desc->num_metadata));
  for (uint32_t i = 0; i < desc->num_metadata; ++i) {
    const auto &m = desc->metadata[i];
    if (m.key == nullptr || (m.size > 0 && m.value == nullptr))
      return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                        fmt::format("programCreate: metadata entry {} has a null key or value", i));
  }
  return {};
}

zeal_result_t ZEAL_APICALL program_create(zeal_context_handle_t context, zeal_device_handle_t device,
                                          const zeal_program_desc_t *desc, zeal_program_handle_t *program) {
  return run_entry(
      "programCreate",
      [&] {
        return fmt::format("context={}, device={}, format={}, size={}", fmt::ptr(context), fmt::ptr(device),
                           desc ? abi_value(desc->format) : 0, desc ? desc->size : 0);
      },
      [&]() -> Status {
        auto c = from_handle<Context>(context, "context");
        if (!c.ok()) return std::move(c).error();
        auto d = from_handle<Device>(device, "device");
        if (!d.ok()) return std::move(d).error();
        if (Status s = require(program != nullptr, "programCreate: the program output pointer is null"); !s.ok())
          return s;
        if (Status s = check_program_desc(desc); !s.ok()) return s;
        if (Status s = Program::check_device_in_context("programCreate", *c.value(), *d.value()); !s.ok()) return s;
        auto p = Program::create(*c.value(), *d.value(), *desc);
        if (!p.ok()) return std::move(p).error();
        *program = to_handle<Program, zeal_program_handle_t>(p.value());
        return {};
      });
}

zeal_result_t ZEAL_APICALL program_build(zeal_program_handle_t program, const char *options) {
  return run_entry(
      "programBuild",
      [&] { return fmt::format("program={}, options='{}'", fmt::ptr(program), options ? options : ""); },
      [&]() -> Status {
        auto p = from_handle<Program>(program, "program");
        if (!p.ok()) return std::move(p).error();
        return p.value()->build(options);
      });
}

zeal_result_t ZEAL_APICALL program_get_info(zeal_program_handle_t program, zeal_program_info_t key, size_t size,
                                            void *value, size_t *size_ret) {
  return get_info<Program>("programGetInfo", "program", program, key, size, value, size_ret,
                           [](const Program &p) { return p.describe(); });
}

zeal_result_t ZEAL_APICALL program_compile(zeal_program_handle_t program, const char *options) {
  return run_entry(
      "programCompile",
      [&] { return fmt::format("program={}, options='{}'", fmt::ptr(program), options ? options : ""); },
      [&]() -> Status {
        auto p = from_handle<Program>(program, "program");
        if (!p.ok()) return std::move(p).error();
        return p.value()->compile(options);
      });
}

Status check_link(zeal_context_handle_t context, zeal_device_handle_t device, uint32_t num_programs,
                  const zeal_program_handle_t *programs, zeal_program_handle_t *out, Context *&c, Device *&d,
                  std::vector<Program *> &objects) {
  auto cr = from_handle<Context>(context, "context");
  if (!cr.ok()) return std::move(cr).error();
  auto dr = from_handle<Device>(device, "device");
  if (!dr.ok()) return std::move(dr).error();
  c = cr.value();
  d = dr.value();
  if (Status s = require(out != nullptr, "programLink: the program output pointer is null"); !s.ok()) return s;
  if (Status s = Program::check_link_count("programLink", num_programs, programs); !s.ok()) return s;
  if (Status s = Program::check_device_in_context("programLink", *c, *d); !s.ok()) return s;
  for (uint32_t i = 0; i < num_programs; ++i) {
    auto p = from_handle<Program>(programs[i], "program");
    if (!p.ok()) return std::move(p).error();
    objects.push_back(p.value());
  }
  return {};
}

zeal_result_t ZEAL_APICALL program_link(zeal_context_handle_t context, zeal_device_handle_t device,
                                        uint32_t num_programs, const zeal_program_handle_t *programs,
                                        const char *options, zeal_program_handle_t *program) {
  return run_entry(
      "programLink",
      [&] {
        return fmt::format("context={}, device={}, num_programs={}, options='{}' -> {}", fmt::ptr(context),
                           fmt::ptr(device), num_programs, options ? options : "",
                           fmt::ptr(program ? *program : nullptr));
      },
      [&]() -> Status {
        Context *c = nullptr;
        Device *d = nullptr;
        std::vector<Program *> objects;
        if (Status s = check_link(context, device, num_programs, programs, program, c, d, objects); !s.ok()) return s;
        Program *log_holder = nullptr;
        auto linked = Program::link(*c, *d, objects, options, &log_holder);
        if (!linked.ok()) {
          *program = log_holder ? to_handle<Program, zeal_program_handle_t>(log_holder) : nullptr;
          return std::move(linked).error();
        }
        *program = to_handle<Program, zeal_program_handle_t>(linked.value());
        return {};
      });
}

zeal_result_t ZEAL_APICALL program_set_spec_constant(zeal_program_handle_t program, uint32_t id, size_t size,
                                                     const void *value) {
  return run_entry(
      "programSetSpecConstant",
      [&] { return fmt::format("program={}, id={}, size={}", fmt::ptr(program), id, size); },
      [&]() -> Status {
        auto p = from_handle<Program>(program, "program");
        if (!p.ok()) return std::move(p).error();
        if (Status s = Program::check_spec_constant("programSetSpecConstant", id, size, value); !s.ok()) return s;
        return p.value()->set_spec_constant(id, size, value);
      });
}

zeal_result_t ZEAL_APICALL program_get_function_pointer(zeal_program_handle_t program, const char *name,
                                                        void **pointer) {
  return run_entry(
      "programGetFunctionPointer",
      [&] { return fmt::format("program={}, name='{}'", fmt::ptr(program), name ? name : "(null)"); },
      [&]() -> Status {
        auto p = from_handle<Program>(program, "program");
        if (!p.ok()) return std::move(p).error();
        if (Status s = require(name != nullptr && pointer != nullptr,
                               "programGetFunctionPointer: name or pointer is null");
            !s.ok())
          return s;
        auto f = p.value()->function_pointer(name);
        if (!f.ok()) return std::move(f).error();
        *pointer = f.value();
        return {};
      });
}

zeal_result_t ZEAL_APICALL program_get_global_pointer(zeal_program_handle_t program, const char *name, size_t *size,
                                                      void **pointer) {
  return run_entry(
      "programGetGlobalPointer",
      [&] { return fmt::format("program={}, name='{}'", fmt::ptr(program), name ? name : "(null)"); },
      [&]() -> Status {
        auto p = from_handle<Program>(program, "program");
        if (!p.ok()) return std::move(p).error();
        if (Status s = require(name != nullptr && pointer != nullptr,
                               "programGetGlobalPointer: name or pointer is null");
            !s.ok())
          return s;
        auto g = p.value()->global_pointer(name);
        if (!g.ok()) return std::move(g).error();
        *pointer = g.value().first;
        if (size != nullptr) *size = g.value().second;
        return {};
      });
}

} // namespace

void fill_program_entries(zeal_adapter_dispatch_t &t) {
  t.programCreate = program_create;
  t.programBuild = program_build;
  t.programGetInfo = program_get_info;
  t.programRetain = [](zeal_program_handle_t p) {
    return retain_or_release<Program>("programRetain", "program", p, true);
  };
  t.programRelease = [](zeal_program_handle_t p) {
    return retain_or_release<Program>("programRelease", "program", p, false);
  };
  t.programCompile = program_compile;
  t.programLink = program_link;
  t.programSetSpecConstant = program_set_spec_constant;
  t.programGetFunctionPointer = program_get_function_pointer;
  t.programGetGlobalPointer = program_get_global_pointer;
}

} // namespace zeal::adapter
