// Programs: creation with SPIR-V inspection and metadata, spec constants, symbols and the program info table.
#include "adapter/core/program.hpp"

#include <fmt/ranges.h>

#include <algorithm>

namespace zeal::adapter {

Result<Program *> Program::create(Context &context, Device &device, const zeal_program_desc_t &desc) {
  std::unique_ptr<Program> p(new Program(context, device));
  p->format_ = desc.format;
  const auto *bytes = static_cast<const uint8_t *>(desc.binary);
  p->binary_.assign(bytes, bytes + desc.size);
  if (desc.format == ZEAL_PROGRAM_FORMAT_SPIRV) {
    auto info = module_linker::inspect_spirv(std::span<const uint8_t>(p->binary_));
    if (!info.ok()) {
      Error e = std::move(info).error();
      e.message = fmt::format("the program for device '{}' is not valid SPIR-V: {}", device.name(), e.message);
      return e;
    }
    p->spirv_ = std::move(info).value();
  }
  auto meta = read_metadata(std::span(desc.metadata, desc.num_metadata), p->spirv_ ? &*p->spirv_ : nullptr,
                            device.primary_sub_group_size());
  if (!meta.ok()) {
    Error e = std::move(meta).error();
    e.message = fmt::format("programCreate for device '{}': {}", device.name(), e.message);
    return e;
  }
  p->metadata_ = std::move(meta).value();
  if (!p->spirv_) p->native_calls_ = call_graph(p->metadata_);
  // llvm-spirv gives each kernel's body Export linkage under the kernel's name;
  // that is not a function other images can import.
  auto &exports = p->metadata_.exports;
  std::erase_if(exports, [&](const std::string &s) { return contains(p->metadata_.kernels, s); });
  return p.release();
}

Result<Program *> Program::adopt(Context &context, Device &device, ze_module_handle_t module, bool owned) {
  if (module == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_HANDLE, "program adopt: the native Level Zero module is null");
  if (Status s = check_device_in_context("program adopt", context, device); !s.ok()) return std::move(s).error();
  std::unique_ptr<Program> p(new Program(context, device));
  p->format_ = ZEAL_PROGRAM_FORMAT_NATIVE;
  // Owned only once adopted: a failure leaves the module with its maker.
  if (Status s = p->become_executable({}, {module}, {}); !s.ok()) return std::move(s).error();
  if (owned) p->owned_modules_.emplace_back(module);
  return p.release();
}

zeal_program_state_t Program::state() const {
  std::lock_guard lock(mutex_);
  return state_;
}

std::string Program::options() const {
  std::lock_guard lock(mutex_);
  return compile_options_;
}

bool Program::build_failed() const {
  std::lock_guard lock(mutex_);
  return failed_;
}

Result<ze_module_handle_t> Program::single_module() const {
  std::lock_guard lock(mutex_);
  if (state_ == ZEAL_PROGRAM_STATE_OBJECT) return object_module_.get();
  if (state_ != ZEAL_PROGRAM_STATE_EXECUTABLE)
    return make_error(ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE,
                      describe() + " has no native binary: compile or build it first");
  if (modules_.size() != 1)
    return make_error(ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE,
                      fmt::format("{} is a dynamic link of {} modules: ask each of its object programs for its "
                                  "native binary",
                                  describe(), modules_.size()));
  return modules_.front();
}

Status Program::check_device_in_context(std::string_view entry, const Context &context, const Device &device) {
  if (context.has_device(&device)) return {};
  return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                    fmt::format("{}: device '{}' is not in the context", entry, device.name()));
}

Status Program::check_link_count(std::string_view entry, uint32_t count, const void *programs) {
  if (count != 0 && programs != nullptr) return {};
  return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                    fmt::format("{}: no programs to link (num_programs {}, programs {})", entry, count, programs));
}

Status Program::check_spec_constant(std::string_view entry, uint32_t id, size_t size, const void *value) {
  if (value != nullptr && size != 0) return {};
  return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                    fmt::format("{}: constant {} needs a value and a non-zero size", entry, id));
}

namespace {

// The bytes a scalar specialization constant of `type` (module_linker's names) takes; 0 for composites and
// types whose size the name does not give.
size_t scalar_size(const std::string &type) {
  if (type == "i1" || type == "i8") return 1; // a bool is set as one byte
  if (type == "i16" || type == "half") return 2;
  if (type == "i32" || type == "float") return 4;
  if (type == "i64" || type == "double") return 8;
  return 0;
}

} // namespace

Status Program::check_declares_spec_constant(std::string_view entry, uint32_t id, size_t size) const {
  const auto &constants = calls().spec_constants;
  auto it = std::find_if(constants.begin(), constants.end(), [&](const auto &c) { return c.spec_id == id; });
  if (it == constants.end())
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("{}: {} declares no specialization constant {}", entry, describe(), id));
  const size_t expected = scalar_size(it->type);
  if (expected != 0 && size != expected)
    return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                      fmt::format("{}: specialization constant {} of {} is {} ({} bytes), not {} bytes", entry, id,
                                  describe(), it->type, expected, size));
  return {};
}

namespace {

// "'a', 'b', 'c', 'd' and 3 more": enough names to recognise the image by.
std::string quoted_names(const std::vector<std::string> &names) {
  constexpr size_t kShown = 4;
  std::string text;
  for (size_t i = 0; i < std::min(names.size(), kShown); ++i) text += fmt::format("{}'{}'", i ? ", " : "", names[i]);
  if (names.size() > kShown) text += fmt::format(" and {} more", names.size() - kShown);
  return text;
}

} // namespace

// Messages name a program as its user knows it: by the name the runtime gave
// (metadata "name": file and origin), else by its kernels or exports. An address
// would mean nothing to the user and differs from run to run.
std::string Program::describe() const {
  std::string what;
  if (!metadata_.image_name.empty()) what = "program " + metadata_.image_name;
  else if (!metadata_.kernels.empty())
    what = fmt::format("program with kernel{} {}", metadata_.kernels.size() > 1 ? "s" : "",
                       quoted_names(metadata_.kernels));
  else if (!metadata_.exports.empty()) what = "program exporting " + quoted_names(metadata_.exports);
  else if (format_ == ZEAL_PROGRAM_FORMAT_NATIVE) what = fmt::format("native program of {} bytes", binary_.size());
  else what = "program without kernels";
  return fmt::format("{} for device '{}'", what, device_.name());
}

Status Program::set_spec_constant(uint32_t id, size_t size, const void *value) {
  std::lock_guard lock(mutex_);
  if (state_ != ZEAL_PROGRAM_STATE_INPUT)
    return make_error(ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE,
                      fmt::format("specialization constant {} of {} must be set before compile or build", id,
                                  describe()));
  if (format_ != ZEAL_PROGRAM_FORMAT_SPIRV)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("{} is a native binary: specialization constants need SPIR-V", describe()));
  const auto *bytes = static_cast<const uint8_t *>(value);
  std::vector<uint8_t> copy(bytes, bytes + size);
  for (auto &c : constants_)
    if (c.id == id) {
      c.value = std::move(copy);
      return {};
    }
  constants_.push_back(SpecConstant{id, std::move(copy)});
  return {};
}

Result<ze_module_handle_t> Program::module_of(const std::string &kernel) const {
  std::lock_guard lock(mutex_);
  if (state_ != ZEAL_PROGRAM_STATE_EXECUTABLE)
    return make_error(ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE,
                      describe() + " is not executable: build it, or link it with others");
  for (const auto &k : kernels_)
    if (k.name == kernel) return k.module;
  std::vector<std::string> names;
  for (const auto &k : kernels_) names.push_back(k.name);
  for (const auto &r : refused_) names.push_back(r.name);
  return make_error(ZEAL_RESULT_ERROR_INVALID_KERNEL_NAME,
                    fmt::format("{} has no kernel named '{}' (its kernels: {})", describe(), kernel,
                                names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
}

const Program::RefusedKernel *Program::refused(std::string_view kernel) const {
  std::lock_guard lock(mutex_);
  for (const auto &r : refused_)
    if (r.name == kernel) return &r; // refused_ no longer changes once the program is executable
  return nullptr;
}

std::vector<std::string> Program::kernel_names() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> names;
  for (const auto &k : kernels_) names.push_back(k.name);
  for (const auto &r : refused_) names.push_back(r.name);
  return names;
}

namespace {

// A symbol looked up in every module of an executable, first found wins (Level
// Zero refuses ambiguous exports at link, so at most one has it).
template <class Lookup>
Result<ze_result_t> find_symbol(const std::vector<ze_module_handle_t> &modules, Lookup &&lookup) {
  ze_result_t last = ZE_RESULT_ERROR_INVALID_FUNCTION_NAME;
  for (ze_module_handle_t m : modules) {
    last = lookup(m);
    if (last == ZE_RESULT_SUCCESS || last == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE) return last;
  }
  return last;
}

} // namespace

Result<void *> Program::function_pointer(const char *name) const {
  std::lock_guard lock(mutex_);
  if (state_ != ZEAL_PROGRAM_STATE_EXECUTABLE)
    return make_error(ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE, describe() + " is not executable");
  void *pointer = nullptr;
  auto r = find_symbol(modules_, [&](ze_module_handle_t m) { return zeModuleGetFunctionPointer(m, name, &pointer); });
  if (r.value() == ZE_RESULT_SUCCESS) return pointer;
  if (r.value() == ZE_RESULT_ERROR_INVALID_FUNCTION_NAME || r.value() == ZE_RESULT_ERROR_INVALID_ARGUMENT)
    return make_error(ZEAL_RESULT_ERROR_INVALID_FUNCTION_NAME,
                      fmt::format("{} has no function named '{}'", describe(), name));
  Status s = ze_check(r.value(), "zeModuleGetFunctionPointer", fmt::format("function '{}' of {}", name, describe()));
  return std::move(s).error();
}

Result<std::pair<void *, size_t>> Program::global_pointer(const char *name) const {
  std::lock_guard lock(mutex_);
  if (state_ != ZEAL_PROGRAM_STATE_EXECUTABLE)
    return make_error(ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE, describe() + " is not executable");
  void *pointer = nullptr;
  size_t size = 0;
  auto r = find_symbol(modules_, [&](ze_module_handle_t m) { return zeModuleGetGlobalPointer(m, name, &size, &pointer); });
  if (r.value() == ZE_RESULT_SUCCESS) return std::make_pair(pointer, size);
  if (r.value() == ZE_RESULT_ERROR_INVALID_GLOBAL_NAME || r.value() == ZE_RESULT_ERROR_INVALID_FUNCTION_NAME ||
      r.value() == ZE_RESULT_ERROR_INVALID_ARGUMENT)
    return make_error(ZEAL_RESULT_ERROR_INVALID_GLOBAL_NAME,
                      fmt::format("{} has no global variable named '{}'", describe(), name));
  Status s = ze_check(r.value(), "zeModuleGetGlobalPointer", fmt::format("global '{}' of {}", name, describe()));
  return std::move(s).error();
}

namespace {
using Row = InfoRow<Program, zeal_program_info_t>;

Result<InfoValue> native_binary(ze_module_handle_t module, const std::string &what) {
  size_t size = 0;
  if (Status s = ze_check(zeModuleGetNativeBinary(module, &size, nullptr), "zeModuleGetNativeBinary", what); !s.ok())
    return std::move(s).error();
  InfoValue v;
  v.bytes.resize(size);
  if (Status s = ze_check(zeModuleGetNativeBinary(module, &size, v.bytes.data()), "zeModuleGetNativeBinary", what);
      !s.ok())
    return std::move(s).error();
  v.bytes.resize(size);
  return v;
}

Result<InfoValue> built_names(const Program &p, bool count_only) {
  if (p.state() != ZEAL_PROGRAM_STATE_EXECUTABLE)
    return make_error(ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE, p.describe() + " has not been built");
  auto names = p.kernel_names();
  if (count_only) return info_of<uint32_t>(static_cast<uint32_t>(names.size()));
  return info_string(fmt::format("{}", fmt::join(names, ";")));
}

} // namespace

Result<InfoValue> Program::info(int32_t key) const {
  static const Row table[] = {
      {ZEAL_PROGRAM_INFO_STATE, "STATE",
       [](const Program &p) -> Result<InfoValue> {
         std::lock_guard lock(p.mutex_);
         return info_of(p.state_);
       }},
      {ZEAL_PROGRAM_INFO_KERNEL_NAMES, "KERNEL_NAMES",
       [](const Program &p) -> Result<InfoValue> { return built_names(p, false); }},
      {ZEAL_PROGRAM_INFO_BUILD_LOG, "BUILD_LOG",
       [](const Program &p) -> Result<InfoValue> {
         std::lock_guard lock(p.mutex_);
         return info_string(p.build_log_);
       }},
      {ZEAL_PROGRAM_INFO_NUM_KERNELS, "NUM_KERNELS",
       [](const Program &p) -> Result<InfoValue> { return built_names(p, true); }},
      {ZEAL_PROGRAM_INFO_NATIVE_BINARY, "NATIVE_BINARY",
       [](const Program &p) -> Result<InfoValue> {
         auto module = p.single_module();
         if (!module.ok()) return std::move(module).error();
         return native_binary(module.value(), p.describe());
       }},
      {ZEAL_PROGRAM_INFO_EXPORTS, "EXPORTS",
       [](const Program &p) -> Result<InfoValue> {
         return info_string(fmt::format("{}", fmt::join(p.metadata_.exports, ";")));
       }},
      {ZEAL_PROGRAM_INFO_IMPORTS, "IMPORTS",
       [](const Program &p) -> Result<InfoValue> {
         return info_string(fmt::format("{}", fmt::join(p.metadata_.imports, ";")));
       }},
  };
  return answer_info<Program, zeal_program_info_t>(table, *this, key, describe());
}

} // namespace zeal::adapter
