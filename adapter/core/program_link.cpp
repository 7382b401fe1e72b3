// Program link: module_linker's link rules across objects, then zeModuleDynamicLink of their modules or one static module.
#include "adapter/core/program.hpp"

#include "module_linker/link_rules.hpp"

#include <fmt/ranges.h>

#include <algorithm>

namespace zeal::adapter {
namespace {

// ZEAL_RESULT_ERROR_LINK_FAILURE whose log is its message.
Error link_error(std::string message) {
  Error e = make_error(ZEAL_RESULT_ERROR_LINK_FAILURE, std::move(message));
  e.log = "zeal: " + e.message;
  return e;
}

// The link rules (module_linker/link_rules.hpp) over the objects as given; the first broken one is the error's
// sentence, and the log names every one (each unresolved import, not only the first).
Status check_link(std::span<Program *const> objects, const Device &device) {
  std::vector<module_linker::LinkObject> views;
  for (const Program *o : objects) {
    module_linker::LinkObject v{{o->describe(), &o->metadata()}, &o->calls(), {}};
    for (const std::string &k : o->metadata().kernels)
      if (o->refused(k) != nullptr) v.left_out.push_back(k);
    views.push_back(std::move(v));
  }
  std::vector<module_linker::Diagnostic> broken = module_linker::check_object_link(views, device.primary_sub_group_size());
  if (broken.empty()) return {};
  Error e = link_error(broken.front().message);
  for (size_t i = 1; i < broken.size(); ++i) e.log += "\nzeal: " + broken[i].message;
  return e;
}

// The options without ZEAL_LINK_OPTION_STATIC, and whether it was there.
std::pair<std::string, bool> split_link_options(const char *options) {
  std::string rest;
  bool is_static = false;
  std::string_view text = options != nullptr ? options : "";
  size_t at = 0;
  while (at < text.size()) {
    size_t start = text.find_first_not_of(' ', at);
    if (start == std::string_view::npos) break;
    size_t end = std::min(text.find(' ', start), text.size());
    std::string_view word = text.substr(start, end - start);
    if (word == ZEAL_LINK_OPTION_STATIC) is_static = true;
    else rest += (rest.empty() ? "" : " ") + std::string(word);
    at = end;
  }
  return {rest, is_static};
}

ImageMetadata merged_metadata(std::span<Program *const> objects) {
  ImageMetadata m;
  for (const Program *o : objects) {
    const ImageMetadata &x = o->metadata();
    m.kernels.insert(m.kernels.end(), x.kernels.begin(), x.kernels.end());
    m.exports.insert(m.exports.end(), x.exports.begin(), x.exports.end());
    m.kernel_requirements.insert(m.kernel_requirements.end(), x.kernel_requirements.begin(),
                                 x.kernel_requirements.end());
    m.functions.insert(m.functions.end(), x.functions.begin(), x.functions.end());
  }
  // Named after its objects when the runtime named them all; else after its kernels.
  std::vector<std::string> names;
  for (const Program *o : objects)
    if (!o->metadata().image_name.empty()) names.push_back(o->metadata().image_name);
  if (names.size() == objects.size()) m.image_name = fmt::format("linked from {}", fmt::join(names, " and "));
  for (const Program *o : objects)
    for (const auto &i : o->metadata().imports)
      if (!contains(m.exports, i) && !contains(m.imports, i)) m.imports.push_back(i);
  return m;
}

} // namespace

Result<std::pair<ze_module_handle_t, std::optional<ZeModule>>> Program::module_for_link(std::string &log) {
  std::lock_guard lock(mutex_);
  // Level Zero links a module's imports once: a module without imports serves
  // every link, one with imports serves its first and later links get a fresh one.
  if (metadata_.imports.empty() || !object_imports_linked_) {
    object_imports_linked_ = !metadata_.imports.empty();
    return std::make_pair(object_module_.get(), std::optional<ZeModule>());
  }
  std::string flags = compile_options_.empty() ? "-library-compilation" : compile_options_ + " -library-compilation";
  auto built = create_module(flags);
  if (!built.ok()) return std::move(built).error();
  log += built.value().log;
  ze_module_handle_t handle = built.value().module.get();
  return std::make_pair(handle, std::optional<ZeModule>(std::move(built.value().module)));
}

Status Program::become_executable(std::vector<ZeModule> owned, std::vector<ze_module_handle_t> modules,
                                  std::vector<Program *> objects) {
  std::vector<KernelLocation> kernels;
  for (ze_module_handle_t m : modules) {
    uint32_t count = 0;
    if (Status s = ze_check(zeModuleGetKernelNames(m, &count, nullptr), "zeModuleGetKernelNames", describe()); !s.ok())
      return s;
    std::vector<const char *> names(count);
    if (Status s = ze_check(zeModuleGetKernelNames(m, &count, names.data()), "zeModuleGetKernelNames", describe());
        !s.ok())
      return s;
    for (uint32_t i = 0; i < count; ++i) {
      if (std::any_of(kernels.begin(), kernels.end(), [&](const KernelLocation &k) { return k.name == names[i]; }))
        return link_error(fmt::format("kernel '{}' is defined by more than one of the programs linked into {}",
                                      names[i], describe()));
      kernels.push_back(KernelLocation{names[i], m});
    }
  }
  std::lock_guard lock(mutex_);
  for (Program *o : objects) {
    objects_.emplace_back(o);
    std::lock_guard object_lock(o->mutex_);
    refused_.insert(refused_.end(), o->refused_.begin(), o->refused_.end());
  }
  owned_modules_ = std::move(owned);
  modules_ = std::move(modules);
  kernels_ = std::move(kernels);
  state_ = ZEAL_PROGRAM_STATE_EXECUTABLE;
  return {};
}

namespace {

Status dynamic_link(std::vector<ze_module_handle_t> &modules, bool any_imports, const Device &device,
                    std::string &log, Program &exe) {
  if (!any_imports) return {}; // "Modules that do not have any imports or exports do not need to be linked."
  ze_module_build_log_handle_t link_log = nullptr;
  ze_result_t r = zeModuleDynamicLink(static_cast<uint32_t>(modules.size()), modules.data(), &link_log);
  ZeModuleBuildLog owner(link_log);
  log += read_build_log(link_log);
  if (r == ZE_RESULT_SUCCESS) return {};
  if (r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
    return make_error(ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE,
                      fmt::format("the driver of device '{}' does not support zeModuleDynamicLink; link with the "
                                  "option " ZEAL_LINK_OPTION_STATIC " instead",
                                  device.name()));
  Error e = make_error(r == ZE_RESULT_ERROR_MODULE_LINK_FAILURE ? ZEAL_RESULT_ERROR_LINK_FAILURE : to_zeal_result(r),
                       fmt::format("linking {} failed: {}", exe.describe(),
                                   log.empty() ? std::string(ze_result_name(r)) : log.substr(0, log.find('\n'))));
  e.native_code = r;
  e.log = log;
  return e;
}

} // namespace

// One module from the SPIR-V of every object (ze_module_program_exp_desc_t),
// each input with its own compile options and specialization constants.
Status Program::static_link(std::span<Program *const> objects, const std::string &options) {
  const size_t n = objects.size();
  std::vector<std::unique_lock<std::mutex>> locks;
  std::vector<size_t> sizes;
  std::vector<const uint8_t *> inputs;
  std::vector<std::string> flags(n);
  std::vector<std::vector<uint32_t>> ids(n);
  std::vector<std::vector<const void *>> values(n);
  std::vector<ze_module_constants_t> constants(n);
  std::vector<const ze_module_constants_t *> constant_ptrs(n);
  bool any_constants = false;
  std::vector<std::string> expected;
  for (size_t i = 0; i < n; ++i) {
    Program &o = *objects[i];
    locks.emplace_back(o.mutex_); // each object once: link refuses no duplicates, so guard against them
    if (o.format_ != ZEAL_PROGRAM_FORMAT_SPIRV)
      return make_error(ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE,
                        fmt::format("static linking needs SPIR-V, but {} is a native binary", o.describe()));
    sizes.push_back(o.driver_input().size());
    inputs.push_back(o.driver_input().data());
    flags[i] = o.compile_options_.empty() ? options : o.compile_options_ + " " + options;
    for (const auto &c : o.constants_) {
      ids[i].push_back(c.id);
      values[i].push_back(c.value.data());
    }
    constants[i] = {static_cast<uint32_t>(ids[i].size()), ids[i].data(), values[i].data()};
    constant_ptrs[i] = &constants[i];
    any_constants = any_constants || !ids[i].empty();
    for (const auto &k : o.metadata_.kernels)
      if (std::none_of(o.refused_.begin(), o.refused_.end(), [&](const RefusedKernel &r) { return r.name == k; }))
        expected.push_back(k);
  }
  std::vector<const char *> flag_ptrs;
  for (const auto &f : flags) flag_ptrs.push_back(f.c_str());
  auto program = ze_desc<ze_module_program_exp_desc_t>();
  program.count = static_cast<uint32_t>(n);
  program.inputSizes = sizes.data();
  program.pInputModules = inputs.data();
  program.pBuildFlags = flag_ptrs.data();
  program.pConstants = any_constants ? constant_ptrs.data() : nullptr;
  auto desc = ze_desc<ze_module_desc_t>();
  desc.pNext = &program;
  desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
  // The first input again in the plain fields, for drivers and layers that check them.
  desc.inputSize = sizes.front();
  desc.pInputModule = inputs.front();
  desc.pBuildFlags = flag_ptrs.front();
  ze_module_handle_t module = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  ze_result_t r = zeModuleCreate(context_->ze(), device_.ze(), &desc, &module, &log);
  ZeModuleBuildLog log_owner(log);
  std::string text = read_build_log(log);
  locks.clear();
  if (r != ZE_RESULT_SUCCESS) return fail_build(r, text, "statically linking");
  std::vector<ZeModule> owned;
  owned.emplace_back(module);
  build_log_ = text;
  if (Status s = become_executable(std::move(owned), {module}, {objects.begin(), objects.end()}); !s.ok()) return s;
  // A driver that ignores the extension builds the first input alone: say so
  // rather than hand out a program missing kernels.
  for (const auto &k : expected)
    if (std::none_of(kernels_.begin(), kernels_.end(), [&](const KernelLocation &l) { return l.name == k; }))
      return make_error(ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE,
                        fmt::format("the driver of device '{}' ignored ze_module_program_exp_desc_t: the statically "
                                    "linked module lacks kernel '{}'",
                                    device_.name(), k));
  return {};
}

Result<Program *> Program::link(Context &context, Device &device, std::span<Program *const> objects,
                                const char *options, Program **log_holder) {
  for (size_t i = 0; i < objects.size(); ++i) {
    Program *o = objects[i];
    if (std::find(objects.begin(), objects.begin() + i, o) != objects.begin() + i)
      return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                        fmt::format("programLink: {} is given more than once", o->describe()));
    if (o->state() != ZEAL_PROGRAM_STATE_OBJECT)
      return make_error(ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE,
                        fmt::format("programLink: {} is not an object: compile it first", o->describe()));
    if (&o->device() != &device || &o->context() != &context)
      return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                        fmt::format("programLink: {} belongs to another device or context", o->describe()));
  }
  std::unique_ptr<Program> exe(new Program(context, device));
  exe->metadata_ = merged_metadata(objects);
  exe->compile_options_ = options != nullptr ? options : "";
  auto fail = [&](Error e) -> Error {
    exe->build_log_ = e.log.empty() ? e.message : e.log;
    exe->failed_ = true;
    *log_holder = exe.release();
    return e;
  };
  if (Status s = check_link(objects, device); !s.ok()) return fail(std::move(s).error());
  auto [rest, is_static] = split_link_options(options);
  if (is_static) {
    if (Status s = exe->static_link(objects, rest); !s.ok()) return fail(std::move(s).error());
    return exe.release();
  }
  std::vector<ZeModule> owned;
  std::vector<ze_module_handle_t> modules;
  std::string log;
  bool any_imports = false;
  for (Program *o : objects) {
    auto m = o->module_for_link(log);
    if (!m.ok()) return fail(std::move(m).error());
    modules.push_back(m.value().first);
    if (m.value().second) owned.push_back(std::move(*m.value().second));
    any_imports = any_imports || !o->metadata().imports.empty();
  }
  if (Status s = dynamic_link(modules, any_imports, device, log, *exe); !s.ok()) return fail(std::move(s).error());
  exe->build_log_ = log;
  if (Status s = exe->become_executable(std::move(owned), std::move(modules), {objects.begin(), objects.end()});
      !s.ok())
    return fail(std::move(s).error());
  return exe.release();
}

} // namespace zeal::adapter
