// Programs: creation with SPIR-V inspection, zeModuleCreate with its build log, and the program info table.
#include "adapter/program.hpp"

#include <fmt/ranges.h>

namespace zeal::adapter {

Result<Program *> Program::create(Context &context, Device &device, const zeal_program_desc_t &desc) {
  std::unique_ptr<Program> p(new Program(context, device));
  p->format_ = desc.format;
  const auto *bytes = static_cast<const uint8_t *>(desc.binary);
  p->binary_.assign(bytes, bytes + desc.size);
  for (uint32_t i = 0; i < desc.num_metadata; ++i) {
    const auto &m = desc.metadata[i];
    const auto *value = static_cast<const uint8_t *>(m.value);
    p->metadata_.push_back(Metadata{m.key, m.size == 0 ? std::vector<uint8_t>() : std::vector<uint8_t>(value, value + m.size)});
  }
  if (desc.format == ZEAL_PROGRAM_FORMAT_SPIRV) {
    auto info = module_linker::inspect_spirv(std::span<const uint8_t>(p->binary_));
    if (!info.ok()) {
      Error e = std::move(info).error();
      e.message = fmt::format("the program for device '{}' is not valid SPIR-V: {}", device.name(), e.message);
      return e;
    }
    p->spirv_ = std::move(info).value();
  }
  return p.release();
}

std::string Program::describe() const {
  return fmt::format("program {} for device '{}'", static_cast<const void *>(this), device_.name());
}

namespace {

std::string read_build_log(ze_module_build_log_handle_t log) {
  if (log == nullptr) return {};
  size_t size = 0;
  if (zeModuleBuildLogGetString(log, &size, nullptr) != ZE_RESULT_SUCCESS || size == 0) return {};
  std::string text(size, '\0');
  if (zeModuleBuildLogGetString(log, &size, text.data()) != ZE_RESULT_SUCCESS) return {};
  text.resize(text.find('\0') == std::string::npos ? text.size() : text.find('\0'));
  return text;
}

std::string first_line(const std::string &text) {
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return {};
  return text.substr(start, text.find('\n', start) - start);
}

} // namespace

Status Program::build(const char *options) {
  std::lock_guard lock(mutex_);
  if (state_ != ZEAL_PROGRAM_STATE_INPUT)
    return make_error(ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE, describe() + " has already been built");
  auto desc = ze_desc<ze_module_desc_t>();
  desc.format = format_ == ZEAL_PROGRAM_FORMAT_SPIRV ? ZE_MODULE_FORMAT_IL_SPIRV : ZE_MODULE_FORMAT_NATIVE;
  desc.inputSize = binary_.size();
  desc.pInputModule = binary_.data();
  desc.pBuildFlags = options;
  ze_module_handle_t module = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  ze_result_t r = zeModuleCreate(context_->ze(), device_.ze(), &desc, &module, &log);
  ZeModuleBuildLog log_owner(log);
  build_log_ = read_build_log(log);
  if (r != ZE_RESULT_SUCCESS) {
    bool memory = r == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY || r == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    std::string reason = first_line(build_log_);
    if (reason.empty()) reason = fmt::format("zeModuleCreate returned {} with an empty build log", ze_result_name(r));
    Error e = make_error(memory ? to_zeal_result(r) : ZEAL_RESULT_ERROR_BUILD_FAILURE,
                         fmt::format("building {} failed: {}", describe(), reason));
    e.native_code = r;
    e.log = build_log_;
    return e;
  }
  module_.reset(module);
  if (Status s = read_kernel_names(); !s.ok()) {
    module_.reset();
    return s;
  }
  state_ = ZEAL_PROGRAM_STATE_EXECUTABLE;
  return {};
}

Status Program::read_kernel_names() {
  uint32_t count = 0;
  if (Status s = ze_check(zeModuleGetKernelNames(module_.get(), &count, nullptr), "zeModuleGetKernelNames", describe());
      !s.ok())
    return s;
  std::vector<const char *> names(count);
  if (Status s = ze_check(zeModuleGetKernelNames(module_.get(), &count, names.data()), "zeModuleGetKernelNames",
                          describe());
      !s.ok())
    return s;
  kernel_names_.assign(names.begin(), names.begin() + count);
  return {};
}

Result<ze_module_handle_t> Program::module() const {
  std::lock_guard lock(mutex_);
  if (state_ != ZEAL_PROGRAM_STATE_EXECUTABLE)
    return make_error(ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE, describe() + " has not been built");
  return module_.get();
}

std::vector<std::string> Program::kernel_names() const {
  std::lock_guard lock(mutex_);
  return kernel_names_;
}

namespace {
using Row = InfoRow<Program, zeal_program_info_t>;

Result<InfoValue> built_names(const Program &p, bool count_only) {
  if (auto m = p.module(); !m.ok()) return std::move(m).error();
  auto names = p.kernel_names();
  if (count_only) return info_of<uint32_t>(static_cast<uint32_t>(names.size()));
  return info_string(fmt::format("{}", fmt::join(names, ";")));
}

} // namespace

Result<InfoValue> Program::info(zeal_program_info_t key) const {
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
  };
  return answer_info<Program, zeal_program_info_t>(table, *this, key, describe());
}

} // namespace zeal::adapter
