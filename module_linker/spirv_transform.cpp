// Strip, split and merge: entry-point surgery on the words, then SPIRV-Tools' dead-function pass or linker.
#include "module_linker/spirv_transform.hpp"

#include "module_linker/spirv_trim.hpp"

#include "spirv/words.hpp"

#include <spirv-tools/linker.hpp>
#include <spirv-tools/optimizer.hpp>
#include <spirv/unified1/spirv.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace zeal::module_linker {
namespace {

using enum ::spv::Op;
using enum ::spv::Decoration;
using enum ::spv::LinkageType;
using spirv::header_words;

// Drops the entry points not in `keep`, their execution modes and the export decorations of
// their functions (llvm-spirv also exports each kernel's body under the kernel's name, which
// would keep it alive), and unless
// keep_exports every export decoration. Contract: `words` parsed (inspect_spirv succeeded), so lengths are sane.
std::vector<uint32_t> drop_entry_points(std::span<const uint32_t> words, const std::set<std::string> &keep,
                                        bool keep_exports) {
  std::vector<uint32_t> out(words.begin(), words.begin() + header_words);
  std::set<uint32_t> dropped, kept;
  std::set<std::string> dropped_names;
  for (const spirv::Instruction &i : spirv::instructions(words)) {
    std::span<const uint32_t> inst = i.words;
    const uint32_t opcode = i.opcode;
    const size_t count = inst.size();
    bool drop = false;
    if (opcode == OpEntryPoint && count >= 4) {
      std::string name = spirv::literal_string(inst.subspan(3));
      drop = keep.count(name) == 0;
      (drop ? dropped : kept).insert(inst[2]);
      if (drop) dropped_names.insert(std::move(name));
    } else if ((opcode == OpExecutionMode || opcode == OpExecutionModeId) && count >= 3) {
      drop = dropped.count(inst[1]) != 0 && kept.count(inst[1]) == 0;
    } else if (opcode == OpDecorate && count >= 4 && inst[2] == DecorationLinkageAttributes) {
      bool dropped_kernel = (dropped.count(inst[1]) != 0 && kept.count(inst[1]) == 0) ||
                            dropped_names.count(spirv::literal_string(inst.subspan(3))) != 0;
      drop = inst[count - 1] != LinkageTypeImport && (!keep_exports || dropped_kernel);
    }
    if (!drop) out.insert(out.end(), inst.begin(), inst.end());
  }
  return out;
}

Result<std::vector<uint32_t>> eliminate_dead_functions(const std::vector<uint32_t> &words) {
  spvtools::Optimizer opt(SPV_ENV_UNIVERSAL_1_6);
  std::string messages;
  opt.SetMessageConsumer([&](spv_message_level_t, const char *, const spv_position_t &, const char *m) {
    messages += (messages.empty() ? "" : "; ") + std::string(m);
  });
  opt.RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  std::vector<uint32_t> out;
  if (!opt.Run(words.data(), words.size(), &out, options))
    return make_error(ZEAL_RESULT_ERROR_INVALID_BINARY,
                      fmt::format("removing unreachable functions failed: {}", messages.empty() ? "no message" : messages));
  return out;
}

// True when the module exports something other than its kernels (by function or, as llvm-spirv
// does, by a body exported under the kernel's name).
bool exports_beyond_kernels(const ModuleInfo &info) {
  return std::any_of(info.exported_symbols.begin(), info.exported_symbols.end(), [&](const Symbol &sym) {
    return std::none_of(info.entry_points.begin(), info.entry_points.end(),
                        [&](const EntryPoint &ep) { return ep.function_id == sym.id || ep.name == sym.name; });
  });
}

// Inspects without validation; the word surgery here reads host-endian words only.
Result<ModuleInfo> inspect_quietly(std::span<const uint32_t> words) {
  Result<ModuleInfo> info = inspect_spirv(words, InspectOptions{Validation::Off});
  if (info.ok() && words[0] != spv::kMagic)
    return make_error(ZEAL_RESULT_ERROR_INVALID_BINARY,
                      "the SPIR-V binary is byte-swapped; transformations need host byte order");
  return info;
}

// The Feature bits of everything a module still runs: its kernels and exported functions.
uint32_t features_in_use(const ModuleInfo &info) {
  uint32_t f = 0;
  for (const EntryPoint &ep : info.entry_points) f |= ep.features;
  for (const Symbol &s : info.exported_symbols) f |= s.features;
  return f;
}

} // namespace

Result<std::vector<uint32_t>> retain_kernels(std::span<const uint32_t> words, std::span<const std::string> kernels,
                                             bool keep_exports) {
  Result<ModuleInfo> info = inspect_quietly(words);
  if (!info.ok()) return std::move(info).error();
  std::set<std::string> keep(kernels.begin(), kernels.end());
  Result<std::vector<uint32_t>> pruned = eliminate_dead_functions(drop_entry_points(words, keep, keep_exports));
  if (!pruned.ok()) return pruned;
  Result<ModuleInfo> left = inspect_quietly(pruned.value());
  if (!left.ok()) return std::move(left).error();
  return detail::trim_unused(pruned.value(), features_in_use(left.value()));
}

Result<StripResult> strip_unsupported_kernels(std::span<const uint32_t> words, const DeviceProfile &device) {
  Result<ModuleInfo> info = inspect_quietly(words);
  if (!info.ok()) return std::move(info).error();
  StripResult result;
  std::vector<std::string> keep;
  for (const EntryPoint &ep : info->entry_points) {
    std::vector<std::string> reasons = kernel_unsupported_reasons(ep, ep.features, device);
    if (reasons.empty()) keep.push_back(ep.name);
    for (const std::string &why : reasons) result.removed.push_back(fmt::format("{}: {}", ep.name, why));
  }
  if (keep.empty() && !exports_beyond_kernels(info.value())) return result;
  if (result.removed.empty()) {
    result.words.assign(words.begin(), words.end());
    return result;
  }
  Result<std::vector<uint32_t>> kept = retain_kernels(words, keep, true);
  if (!kept.ok()) return std::move(kept).error();
  result.words = std::move(kept).value();
  return result;
}

Result<std::vector<ModulePart>> split_per_kernel(std::span<const uint32_t> words) {
  Result<ModuleInfo> info = inspect_quietly(words);
  if (!info.ok()) return std::move(info).error();
  std::vector<ModulePart> parts;
  for (const EntryPoint &ep : info->entry_points) {
    Result<std::vector<uint32_t>> part = retain_kernels(words, std::span(&ep.name, 1), false);
    if (!part.ok()) return std::move(part).error();
    parts.push_back({ep.name, std::move(part).value()});
  }
  if (exports_beyond_kernels(info.value())) {
    Result<std::vector<uint32_t>> part = retain_kernels(words, {}, true);
    if (!part.ok()) return std::move(part).error();
    parts.push_back({std::string(kExportsPart), std::move(part).value()});
  }
  return parts;
}

Result<std::vector<uint32_t>> merge_modules(std::span<const std::vector<uint32_t>> modules) {
  if (modules.empty()) return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, "merge_modules needs at least one module");
  if (modules.size() == 1) return modules.front();
  spvtools::Context context(SPV_ENV_UNIVERSAL_1_6);
  std::string messages;
  context.SetMessageConsumer([&](spv_message_level_t level, const char *, const spv_position_t &, const char *m) {
    if (level <= SPV_MSG_ERROR) messages += (messages.empty() ? "" : "; ") + std::string(m);
  });
  // SPIRV-Tools' linker accepts a symbol exported twice and emits an invalid module: refuse first.
  std::map<std::string, size_t> exporter;
  for (size_t i = 0; i < modules.size(); ++i) {
    Result<ModuleInfo> info = inspect_quietly(modules[i]);
    if (!info.ok()) return std::move(info).error();
    for (const std::string &name : info->exports)
      if (auto [it, fresh] = exporter.emplace(name, i); !fresh)
        return make_error(ZEAL_RESULT_ERROR_LINK_FAILURE,
                          fmt::format("static link of {} modules failed: '{}' is exported by module {} and module {} "
                                      "(plan_link says which definition to keep)",
                                      modules.size(), name, it->second + 1, i + 1));
  }
  // SPIRV-Tools' linker wants one SPIR-V version; compilers pick the lowest each module needs,
  // so every input is lifted to the highest (later versions accept earlier modules' kernels).
  std::vector<std::vector<uint32_t>> inputs(modules.begin(), modules.end());
  uint32_t version = 0;
  for (const auto &m : inputs)
    if (m.size() < header_words)
      return make_error(ZEAL_RESULT_ERROR_INVALID_BINARY, "a module to merge is shorter than a SPIR-V header");
    else version = std::max(version, m[1]);
  for (auto &m : inputs) m[1] = version;
  spvtools::LinkerOptions options;
  options.SetCreateLibrary(true);
  options.SetAllowPartialLinkage(true);
  std::vector<uint32_t> linked;
  if (spvtools::Link(context, inputs, &linked, options) != SPV_SUCCESS)
    return make_error(ZEAL_RESULT_ERROR_LINK_FAILURE,
                      fmt::format("static link of {} modules failed: {}", modules.size(),
                                  messages.empty() ? "no message" : messages));
  return detail::merge_builtin_variables(linked);
}

std::optional<SplitMode> parse_split_mode(std::string_view text) {
  if (text == "per_kernel") return SplitMode::PerKernel;
  if (text == "per_source") return SplitMode::PerSource;
  if (text == "off") return SplitMode::Off;
  return std::nullopt;
}

Result<std::vector<ModulePart>> apply_split_mode(std::span<const ModulePart> sources, SplitMode mode) {
  if (mode == SplitMode::PerSource) return std::vector<ModulePart>(sources.begin(), sources.end());
  std::vector<std::vector<uint32_t>> modules;
  for (const ModulePart &p : sources) modules.push_back(p.words);
  Result<std::vector<uint32_t>> merged = merge_modules(modules);
  if (!merged.ok()) return std::move(merged).error();
  if (mode == SplitMode::Off) return std::vector<ModulePart>{{"merged", std::move(merged).value()}};
  return split_per_kernel(merged.value());
}

} // namespace zeal::module_linker
