// Program compile and build: zeModuleCreate with the build log kept, and kernels the device cannot honour left out.
#include "adapter/core/program.hpp"

#include "adapter/core/build_log.hpp"
#include "adapter/core/spirv_strip.hpp"

#include <fmt/ranges.h>

#include <algorithm>

namespace zeal::adapter {

// Reading the log of a FAILED zeModuleCreate crashes inside libze_loader 1.8.12
// when the loader wraps handles (2+ drivers or ZE_ENABLE_LOADER_INTERCEPT=1).
// The adapter runs with one driver here, where the loader passes handles through.
std::string read_build_log(ze_module_build_log_handle_t log) {
  if (log == nullptr) return {};
  size_t size = 0;
  if (zeModuleBuildLogGetString(log, &size, nullptr) != ZE_RESULT_SUCCESS || size == 0) return {};
  std::string text(size, '\0');
  if (zeModuleBuildLogGetString(log, &size, text.data()) != ZE_RESULT_SUCCESS) return {};
  text.resize(text.find('\0') == std::string::npos ? text.size() : text.find('\0'));
  return text;
}

namespace {

std::string join_flags(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  if (b.empty()) return std::string(a);
  return fmt::format("{} {}", a, b);
}

} // namespace

// What the device cannot honour was decided from metadata (refused_kernels) before this call; a build the
// driver still refuses fails as a whole, since guessing the kernel to blame from its log text is not reliable.
Result<Program::Built> Program::create_module(const std::string &flags) {
  std::string notes;
  if (format_ == ZEAL_PROGRAM_FORMAT_SPIRV && !refused_.empty()) {
    std::vector<std::string> names;
    for (const auto &r : refused_) names.push_back(r.name);
    auto stripped = strip_kernels(binary_, names);
    if (!stripped.ok()) return std::move(stripped).error();
    stripped_ = std::move(stripped).value();
    for (const auto &r : refused_) notes += fmt::format("zeal: kernel '{}' left out: {}\n", r.name, r.reason.message);
  }
  std::vector<uint32_t> ids;
  std::vector<const void *> values;
  for (const auto &c : constants_) {
    ids.push_back(c.id);
    values.push_back(c.value.data());
  }
  ze_module_constants_t constants{static_cast<uint32_t>(ids.size()), ids.data(), values.data()};
  auto desc = ze_desc<ze_module_desc_t>();
  desc.format = format_ == ZEAL_PROGRAM_FORMAT_SPIRV ? ZE_MODULE_FORMAT_IL_SPIRV : ZE_MODULE_FORMAT_NATIVE;
  desc.inputSize = driver_input().size();
  desc.pInputModule = driver_input().data();
  desc.pBuildFlags = flags.c_str();
  desc.pConstants = ids.empty() ? nullptr : &constants;
  ze_module_handle_t module = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  ze_result_t r = zeModuleCreate(context_->ze(), device_.ze(), &desc, &module, &log);
  ZeModuleBuildLog log_owner(log);
  std::string text = notes + read_build_log(log);
  if (r == ZE_RESULT_SUCCESS) return Built{ZeModule(module), std::move(text)};
  build_log_ = text;
  return fail_build(r, text, "building").error();
}

Status Program::fail_build(ze_result_t r, const std::string &log, const char *step) {
  bool memory = r == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY || r == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  zeal_result_t code = memory ? to_zeal_result(r) : ZEAL_RESULT_ERROR_BUILD_FAILURE;
  if (r == ZE_RESULT_ERROR_MODULE_LINK_FAILURE) code = ZEAL_RESULT_ERROR_LINK_FAILURE;
  if (r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE) code = ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE;
  if (r == ZE_RESULT_ERROR_INVALID_NATIVE_BINARY) code = ZEAL_RESULT_ERROR_INVALID_BINARY;
  std::string reason = driver_reason(log);
  if (reason.empty()) reason = fmt::format("{} with an empty log", ze_result_name(r));
  Error e = make_error(code, fmt::format("{} {} failed: {}", step, describe(), reason));
  e.native_code = r;
  e.log = log;
  return e;
}

Status Program::compile(const char *options) {
  std::lock_guard lock(mutex_);
  if (state_ != ZEAL_PROGRAM_STATE_INPUT)
    return make_error(ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE, describe() + " has already been compiled or built");
  refused_ = refused_kernels(metadata_.kernel_requirements, device_.limits());
  compile_options_ = options != nullptr ? options : "";
  auto built = create_module(join_flags(compile_options_, "-library-compilation"));
  failed_ = !built.ok();
  if (!built.ok()) return std::move(built).error();
  build_log_ = std::move(built.value().log);
  object_module_ = std::move(built.value().module);
  state_ = ZEAL_PROGRAM_STATE_OBJECT;
  return {};
}

Status Program::build(const char *options) {
  std::unique_lock lock(mutex_);
  if (state_ != ZEAL_PROGRAM_STATE_INPUT)
    return make_error(ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE, describe() + " has already been compiled or built");
  if (!metadata_.imports.empty()) {
    // build = compile + link of this program alone, which cannot resolve an import.
    build_log_ = fmt::format("zeal: {} imports {}, which nothing it is built with exports: compile it and link it "
                             "with the programs that export them",
                             describe(), fmt::join(metadata_.imports, ", "));
    Error e = make_error(ZEAL_RESULT_ERROR_LINK_FAILURE, "building " + build_log_.substr(6));
    e.log = build_log_;
    failed_ = true;
    return e;
  }
  refused_ = refused_kernels(metadata_.kernel_requirements, device_.limits());
  compile_options_ = options != nullptr ? options : "";
  // Exported functions stay visible (function pointers) only in library compilation.
  auto built = create_module(metadata_.exports.empty() ? compile_options_
                                                       : join_flags(compile_options_, "-library-compilation"));
  failed_ = !built.ok();
  if (!built.ok()) return std::move(built).error();
  build_log_ = std::move(built.value().log);
  std::vector<ZeModule> owned;
  owned.push_back(std::move(built.value().module));
  std::vector<ze_module_handle_t> modules{owned.back().get()};
  lock.unlock();
  return become_executable(std::move(owned), std::move(modules), {});
}

} // namespace zeal::adapter
