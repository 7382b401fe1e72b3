// zeal-spirv: inspect a SPIR-V module, check a link plan, split or strip modules (module_linker on the command line).
#include "common/settings.hpp"
#include "module_linker/device_profile.hpp"
#include "module_linker/link_plan.hpp"
#include "module_linker/module_info.hpp"
#include "module_linker/spirv_transform.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace ml = zeal::module_linker;

namespace {

// Exit codes a build script can rely on.
constexpr int kExitOk = 0;
constexpr int kExitDiagnostics = 1; // the input is well-formed but the check found problems
constexpr int kExitUsage = 2;       // bad command line or unreadable / malformed input

constexpr const char *kUsage =
    "usage: zeal-spirv info X.spv [--json]\n"
    "       zeal-spirv link-check A.spv B.spv ... [--device-profile host|pvc|dg2] [--root NAME]...\n"
    "                  [--meta FILE,KEY=VALUE]...   (KEY: library, function.FN.sub_group_size, function.FN.range_type,\n"
    "                                                kernel.KERNEL.range_type)\n"
    "       zeal-spirv split X.spv [Y.spv ...] --mode per_kernel|per_source|off -o DIR\n"
    "       zeal-spirv strip X.spv --device-profile host|pvc|dg2 -o Y.spv\n"
    "exit status: 0 ok, 1 diagnostics (link-check problems, strict validation, nothing left to strip),\n"
    "2 usage error or unreadable/malformed input. Messages start with 'zeal-spirv: error:' or 'error['.\n";

int usage_error(const std::string &message) {
  fmt::print(stderr, "zeal-spirv: error: {}\n{}", message, kUsage);
  return kExitUsage;
}

struct Args {
  std::vector<std::string> files;
  std::vector<std::string> roots;
  std::vector<std::string> meta;
  std::string profile = "host";
  std::string mode;
  std::string output;
  bool json = false;
};

// Parses everything after the command; returns an error sentence or "".
std::string parse_args(int argc, char **argv, Args &args) {
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string &out) {
      if (i + 1 >= argc) return false;
      out = argv[++i];
      return true;
    };
    std::string v;
    if (a == "--json") args.json = true;
    else if (a == "--device-profile") { if (!value(args.profile)) return "--device-profile needs a value"; }
    else if (a == "--mode") { if (!value(args.mode)) return "--mode needs a value"; }
    else if (a == "-o" || a == "--output") { if (!value(args.output)) return a + " needs a value"; }
    else if (a == "--root") { if (!value(v)) return "--root needs a value"; args.roots.push_back(v); }
    else if (a == "--meta") { if (!value(v)) return "--meta needs a value"; args.meta.push_back(v); }
    else if (a.starts_with("-")) return fmt::format("unknown option '{}'", a);
    else args.files.push_back(a);
  }
  return "";
}

zeal::Result<std::vector<uint32_t>> read_words(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return zeal::make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, fmt::format("cannot read '{}'", path));
  std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  auto words = ml::to_words(bytes);
  if (!words)
    return zeal::make_error(ZEAL_RESULT_ERROR_INVALID_BINARY,
                            fmt::format("'{}' is {} bytes long, which is not a multiple of 4", path, bytes.size()));
  return std::move(*words);
}

bool write_words(const std::string &path, const std::vector<uint32_t> &words) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char *>(words.data()), static_cast<std::streamsize>(words.size() * 4));
  return out.good();
}

// Reads and inspects one file; validation follows ZEAL_VALIDATE_SPIRV (findings are kept, not logged).
zeal::Result<ml::ModuleInfo> load(const std::string &path, std::vector<uint32_t> *words_out = nullptr) {
  auto words = read_words(path);
  if (!words.ok()) return std::move(words).error();
  bool strict = zeal::settings().validate_spirv == "strict";
  auto info = ml::inspect_spirv(std::span<const uint32_t>(words.value()),
                                ml::InspectOptions{strict ? ml::Validation::Strict : ml::Validation::Collect});
  if (!info.ok()) {
    zeal::Error e = std::move(info).error();
    e.message = fmt::format("'{}': {}", path, e.message);
    return e;
  }
  if (words_out != nullptr) *words_out = std::move(words).value();
  return info;
}

int load_error(const zeal::Error &e) {
  fmt::print(stderr, "zeal-spirv: error: {}\n", e.message);
  bool strict_validation = e.message.find("ZEAL_VALIDATE_SPIRV=strict") != std::string::npos;
  return strict_validation ? kExitDiagnostics : kExitUsage;
}

const ml::DeviceProfile *profile_or_complain(const std::string &name) {
  const ml::DeviceProfile *p = ml::find_device_profile(name);
  if (p == nullptr) fmt::print(stderr, "zeal-spirv: error: unknown device profile '{}' (host, pvc or dg2)\n", name);
  return p;
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += fmt::format("\\{}", c);
    else if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", int(c));
    else out += c;
  }
  return out + "\"";
}

std::string json_strings(const std::vector<std::string> &items) {
  std::vector<std::string> quoted;
  for (const std::string &s : items) quoted.push_back(json_string(s));
  return fmt::format("[{}]", fmt::join(quoted, ", "));
}

std::string capability_list(const ml::ModuleInfo &info) {
  std::vector<std::string> names;
  for (uint32_t c : info.capabilities) names.push_back(ml::capability_name(c));
  return fmt::format("{}", fmt::join(names, ", "));
}

std::string kernel_line(const ml::EntryPoint &ep) {
  std::string out = fmt::format("kernel '{}' ({})", ep.name, ml::execution_model_name(ep.execution_model));
  if (ep.required_sub_group_size) out += fmt::format(", sub-group size {}", *ep.required_sub_group_size);
  if (ep.required_work_group_size[0] != 0) out += fmt::format(", work-group size {}", fmt::join(ep.required_work_group_size, "x"));
  if (ep.local_size_hint[0] != 0) out += fmt::format(", work-group size hint {}", fmt::join(ep.local_size_hint, "x"));
  if (ep.sub_groups_per_work_group) out += fmt::format(", {} sub-groups per work-group", *ep.sub_groups_per_work_group);
  if (ep.features != 0) out += fmt::format(", uses {}", ml::feature_names(ep.features));
  if (!ep.reached_imports.empty()) out += fmt::format(", calls imports {}", fmt::join(ep.reached_imports, ", "));
  return out;
}

void print_info_text(const std::string &file, const ml::ModuleInfo &info) {
  fmt::print("{}: SPIR-V {}.{}, generator {:#010x}, id bound {}\n", file, info.version_major, info.version_minor,
             info.generator, info.id_bound);
  fmt::print("addressing model: {}, memory model: {}\n", ml::addressing_model_name(info.addressing_model),
             ml::memory_model_name(info.memory_model));
  fmt::print("capabilities: {}\n", capability_list(info));
  if (!info.extensions.empty()) fmt::print("extensions: {}\n", fmt::join(info.extensions, ", "));
  for (const ml::EntryPoint &ep : info.entry_points) fmt::print("{}\n", kernel_line(ep));
  auto kind = [](const ml::Symbol &s) { return s.kind == ml::SymbolKind::Function ? "function" : "variable"; };
  for (const ml::Symbol &s : info.exported_symbols)
    fmt::print("export {} '{}': {}{}\n", kind(s), s.name, s.type, s.link_once_odr ? " (LinkOnceODR)" : "");
  for (const ml::Symbol &s : info.imported_symbols) fmt::print("import {} '{}': {}\n", kind(s), s.name, s.type);
  for (const ml::SpecConstant &c : info.spec_constants)
    fmt::print("spec constant {}: {} = {}\n", c.spec_id, c.type, c.default_value);
  if (!info.builtins.empty()) fmt::print("built-ins: {}\n", fmt::join(info.builtins, ", "));
  for (const std::string &f : info.validation_findings) fmt::print("warning: spirv-val: {}\n", f);
}

std::string symbols_json(const std::vector<ml::Symbol> &symbols) {
  std::vector<std::string> items;
  for (const ml::Symbol &s : symbols)
    items.push_back(fmt::format("{{\"name\": {}, \"kind\": \"{}\", \"type\": {}}}", json_string(s.name),
                                s.kind == ml::SymbolKind::Function ? "function" : "variable", json_string(s.type)));
  return fmt::format("[{}]", fmt::join(items, ", "));
}

void print_info_json(const std::string &file, const ml::ModuleInfo &info) {
  std::vector<std::string> kernels, specs;
  for (const ml::EntryPoint &ep : info.entry_points)
    kernels.push_back(fmt::format(
        "{{\"name\": {}, \"sub_group_size\": {}, \"work_group_size\": [{}], \"work_group_size_hint\": [{}], "
        "\"sub_groups_per_work_group\": {}, \"uses\": {}, \"imports\": {}}}",
        json_string(ep.name), ep.required_sub_group_size ? std::to_string(*ep.required_sub_group_size) : "null",
        fmt::join(ep.required_work_group_size, ", "), fmt::join(ep.local_size_hint, ", "),
        ep.sub_groups_per_work_group ? std::to_string(*ep.sub_groups_per_work_group) : "null",
        json_string(ml::feature_names(ep.features)), json_strings(ep.reached_imports)));
  for (const ml::SpecConstant &c : info.spec_constants)
    specs.push_back(fmt::format("{{\"spec_id\": {}, \"type\": {}, \"default\": {}}}", c.spec_id, json_string(c.type),
                                json_string(c.default_value)));
  std::vector<std::string> caps;
  for (uint32_t c : info.capabilities) caps.push_back(ml::capability_name(c));
  fmt::print("{{\"file\": {}, \"version\": \"{}.{}\", \"addressing_model\": {}, \"memory_model\": {}, "
             "\"capabilities\": {}, \"extensions\": {}, \"kernels\": [{}], \"exports\": {}, \"imports\": {}, "
             "\"spec_constants\": [{}], \"builtins\": {}, \"validation\": {}}}\n",
             json_string(file), info.version_major, info.version_minor,
             json_string(ml::addressing_model_name(info.addressing_model)),
             json_string(ml::memory_model_name(info.memory_model)), json_strings(caps), json_strings(info.extensions),
             fmt::join(kernels, ", "), symbols_json(info.exported_symbols), symbols_json(info.imported_symbols),
             fmt::join(specs, ", "), json_strings(info.builtins), json_strings(info.validation_findings));
}

int run_info(const Args &args) {
  if (args.files.size() != 1) return usage_error("info needs exactly one SPIR-V file");
  auto info = load(args.files[0]);
  if (!info.ok()) return load_error(info.error());
  if (args.json) print_info_json(args.files[0], info.value());
  else print_info_text(args.files[0], info.value());
  return kExitOk;
}

// Reads the "--meta FILE,KEY=VALUE" options of each input, with its SPIR-V, as the runtime reads an image's
// metadata (module_linker::read_image_metadata).
std::string apply_meta(const std::vector<std::string> &metas, std::vector<ml::ModuleInput> &inputs,
                       const ml::DeviceProfile &device) {
  std::vector<std::vector<ml::MetadataEntry>> entries(inputs.size());
  for (const std::string &m : metas) {
    size_t comma = m.find(','), eq = m.find('=', comma == std::string::npos ? 0 : comma);
    if (comma == std::string::npos || eq == std::string::npos) return fmt::format("--meta '{}' is not FILE,KEY=VALUE", m);
    std::string_view text(m), file = text.substr(0, comma);
    auto it = std::find_if(inputs.begin(), inputs.end(), [&](auto &in) { return in.name == file; });
    if (it == inputs.end()) return fmt::format("--meta names '{}', which is not an input", file);
    entries[it - inputs.begin()].push_back({text.substr(comma + 1, eq - comma - 1), text.substr(eq + 1)});
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto parsed = ml::read_image_metadata(entries[i], &inputs[i].info, device.primary_sub_group_size);
    if (!parsed.ok()) return fmt::format("{}: {}", inputs[i].name, parsed.error().message);
    inputs[i].metadata = std::move(parsed).value();
  }
  return "";
}

int run_link_check(const Args &args) {
  if (args.files.empty()) return usage_error("link-check needs at least one SPIR-V file");
  const ml::DeviceProfile *device = profile_or_complain(args.profile);
  if (device == nullptr) return kExitUsage;
  std::vector<ml::ModuleInput> inputs;
  for (const std::string &file : args.files) {
    auto info = load(file);
    if (!info.ok()) return load_error(info.error());
    inputs.push_back({file, std::move(info).value(), {}, false});
  }
  if (std::string err = apply_meta(args.meta, inputs, *device); !err.empty()) return usage_error(err);
  ml::LinkPlan plan = ml::plan_link(inputs, args.roots, *device);
  fmt::print("{}", ml::describe(plan, inputs));
  if (!plan.ok()) {
    fmt::print(stderr, "zeal-spirv: link-check: {} problem(s) for device '{}'\n", plan.diagnostics.size(), device->name);
    return kExitDiagnostics;
  }
  fmt::print("link-check: ok for device '{}' ({} module(s))\n", device->name, plan.modules.size());
  return kExitOk;
}

int run_split(const Args &args) {
  if (args.files.empty() || args.output.empty() || args.mode.empty())
    return usage_error("split needs input files, --mode and -o DIR");
  auto mode = ml::parse_split_mode(args.mode);
  if (!mode) return usage_error(fmt::format("unknown split mode '{}' (per_kernel, per_source or off)", args.mode));
  std::vector<ml::ModulePart> sources;
  for (const std::string &file : args.files) {
    std::vector<uint32_t> words;
    auto info = load(file, &words);
    if (!info.ok()) return load_error(info.error());
    sources.push_back({std::filesystem::path(file).stem().string(), std::move(words)});
  }
  auto parts = ml::apply_split_mode(sources, *mode);
  if (!parts.ok()) {
    fmt::print(stderr, "zeal-spirv: error: {}\n", parts.error().message);
    return kExitDiagnostics;
  }
  std::filesystem::create_directories(args.output);
  for (const ml::ModulePart &part : parts.value()) {
    std::string path = (std::filesystem::path(args.output) / (part.name + ".spv")).string();
    if (!write_words(path, part.words)) return usage_error(fmt::format("cannot write '{}'", path));
    fmt::print("wrote {}\n", path);
  }
  return kExitOk;
}

int run_strip(const Args &args) {
  if (args.files.size() != 1 || args.output.empty()) return usage_error("strip needs one input file and -o FILE");
  const ml::DeviceProfile *device = profile_or_complain(args.profile);
  if (device == nullptr) return kExitUsage;
  std::vector<uint32_t> words;
  auto info = load(args.files[0], &words);
  if (!info.ok()) return load_error(info.error());
  auto stripped = ml::strip_unsupported_kernels(words, *device);
  if (!stripped.ok()) return load_error(stripped.error());
  for (const std::string &why : stripped->removed) fmt::print("removed kernel {}\n", why);
  if (stripped->words.empty()) {
    fmt::print(stderr, "zeal-spirv: error: nothing in '{}' can run on device '{}'\n", args.files[0], device->name);
    return kExitDiagnostics;
  }
  if (!write_words(args.output, stripped->words)) return usage_error(fmt::format("cannot write '{}'", args.output));
  fmt::print("wrote {} ({} kernel(s) removed)\n", args.output, stripped->removed.size());
  return kExitOk;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) return usage_error("no command");
  std::string command = argv[1];
  if (command == "--help" || command == "-h") {
    fmt::print("{}", kUsage);
    return kExitOk;
  }
  Args args;
  if (std::string err = parse_args(argc, argv, args); !err.empty()) return usage_error(err);
  if (command == "info") return run_info(args);
  if (command == "link-check") return run_link_check(args);
  if (command == "split") return run_split(args);
  if (command == "strip") return run_strip(args);
  return usage_error(fmt::format("unknown command '{}'", command));
}
