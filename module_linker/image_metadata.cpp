// Reading device-image metadata: text values parsed per key, merged with the SPIR-V module's own facts.
#include "module_linker/image_metadata.hpp"

#include "module_linker/range_type.hpp"

#include "common/metadata_list.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <limits>

namespace zeal::module_linker {
namespace {

void add_unique(std::vector<std::string> &to, const std::vector<std::string> &from) {
  for (const auto &s : from)
    if (!contains(to, s)) to.push_back(s);
}

std::optional<uint64_t> parse_number(std::string_view text) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

Error bad_value(std::string_view key, std::string_view value, std::string_view expected) {
  return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                    fmt::format("metadata entry '{}' has value '{}', expected {}", key, value, expected));
}

template <class T>
T &entry_for(std::vector<T> &list, std::string_view name) {
  for (auto &e : list)
    if (e.name == name) return e;
  list.push_back(T{});
  list.back().name = std::string(name);
  return list.back();
}

struct Reader {
  ImageMetadata &meta;
  uint32_t primary;

  // A sub-group size, or "primary" when the device's is known.
  std::optional<uint32_t> sub_group_size(std::string_view value) const {
    auto n = value == "primary" && primary != 0 ? std::optional<uint64_t>(primary) : parse_number(value);
    if (!n || *n == 0 || *n > std::numeric_limits<uint32_t>::max()) return std::nullopt;
    return static_cast<uint32_t>(*n);
  }

  static Status range_type(std::string_view key, std::string_view value, std::string &type, uint64_t &limit) {
    auto range = parse_range_type(value);
    if (!range || range->max == 0) return bad_value(key, value, "a work-item count or an integer type name");
    type = std::string(value);
    limit = range->max;
    return {};
  }

  Status kernel_key(std::string_view key, std::string_view name, std::string_view property, std::string_view value) {
    if (property == "calls") {
      entry_for(meta.kernel_calls, name).imports = split_metadata_list(value);
      return {};
    }
    KernelRequirements &k = entry_for(meta.kernel_requirements, name);
    if (property == "reqd_sub_group_size") {
      if (value == "automatic") return {};
      auto n = sub_group_size(value);
      if (!n) return bad_value(key, value, "a sub-group size, 'primary' or 'automatic'");
      k.sub_group_size = *n;
    } else if (property == "reqd_work_group_size") {
      std::array<uint32_t, 3> size{};
      size_t start = 0;
      for (int d = 0; d < 3; ++d) {
        size_t end = d < 2 ? value.find(',', start) : value.size();
        auto n = end == std::string_view::npos ? std::nullopt : parse_number(value.substr(start, end - start));
        if (!n || *n == 0 || *n > std::numeric_limits<uint32_t>::max())
          return bad_value(key, value, "three non-zero sizes 'x,y,z'");
        size[d] = static_cast<uint32_t>(*n);
        start = end + 1;
      }
      k.work_group_size = size;
    } else if (property == "range_type") {
      return range_type(key, value, k.range_type, k.range_limit);
    }
    return {};
  }

  Status function_key(std::string_view key, std::string_view name, std::string_view property,
                      std::string_view value) {
    if (property == "calls") {
      entry_for(meta.function_calls, name).imports = split_metadata_list(value);
      return {};
    }
    FunctionProperties &f = entry_for(meta.functions, name);
    if (property == "sub_group_size") {
      auto n = sub_group_size(value);
      if (!n)
        return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                          fmt::format("metadata '{}' is '{}', not a positive sub-group size", key, value));
      f.sub_group_size = *n;
    } else if (property == "range_type") {
      return range_type(key, value, f.range_type, f.range_limit);
    }
    return {};
  }

  Status entry(std::string_view key, std::string_view value) {
    if (key == "name") meta.image_name = std::string(value);
    else if (key == "library") meta.library = std::string(value);
    else if (key == "kernels") add_unique(meta.kernels, split_metadata_list(value));
    else if (key == "exports") add_unique(meta.exports, split_metadata_list(value));
    else if (key == "imports") add_unique(meta.imports, split_metadata_list(value));
    for (std::string_view prefix : {"kernel.", "function."}) {
      if (!key.starts_with(prefix)) continue;
      size_t dot = key.rfind('.');
      if (dot <= prefix.size()) return bad_value(key, value, "a key of the form prefix.<name>.<property>");
      std::string_view name = key.substr(prefix.size(), dot - prefix.size());
      std::string_view property = key.substr(dot + 1);
      return prefix == "kernel." ? kernel_key(key, name, property, value) : function_key(key, name, property, value);
    }
    return {};
  }
};

// SPIR-V execution modes and metadata must say the same thing where both speak.
Status merge_spirv(ImageMetadata &meta, const ModuleInfo &spirv) {
  std::vector<std::string> entry_points;
  for (const auto &ep : spirv.entry_points)
    if (ep.execution_model == static_cast<uint32_t>(spv::ExecutionModel::Kernel))
      entry_points.push_back(ep.name);
  for (const auto &k : meta.kernels)
    if (!contains(entry_points, k))
      return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                        fmt::format("metadata names kernel '{}' but the SPIR-V module has no such entry point", k));
  meta.kernels = entry_points;
  add_unique(meta.exports, spirv.exports);
  add_unique(meta.imports, spirv.imports);
  for (const auto &ep : spirv.entry_points) {
    const uint32_t sg = ep.required_sub_group_size.value_or(0);
    if (sg == 0 && ep.required_work_group_size[0] == 0) continue;
    KernelRequirements &k = entry_for(meta.kernel_requirements, ep.name);
    if (sg != 0 && k.sub_group_size != 0 && k.sub_group_size != sg)
      return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                        fmt::format("metadata says kernel '{}' requires sub-group size {} but its SPIR-V says {}",
                                    ep.name, k.sub_group_size, sg));
    if (sg != 0) k.sub_group_size = sg;
    if (ep.required_work_group_size[0] != 0) {
      if (k.work_group_size[0] != 0 && k.work_group_size != ep.required_work_group_size)
        return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                          fmt::format("metadata says kernel '{}' requires work-group size {{{}, {}, {}}} but its "
                                      "SPIR-V says {{{}, {}, {}}}",
                                      ep.name, k.work_group_size[0], k.work_group_size[1], k.work_group_size[2],
                                      ep.required_work_group_size[0], ep.required_work_group_size[1],
                                      ep.required_work_group_size[2]));
      k.work_group_size = ep.required_work_group_size;
    }
  }
  return {};
}

} // namespace

bool contains(std::span<const std::string> names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

ModuleInfo call_graph(const ImageMetadata &meta) {
  ModuleInfo graph;
  for (const ReachedImports &k : meta.kernel_calls) {
    EntryPoint ep;
    ep.name = k.name;
    ep.execution_model = static_cast<uint32_t>(spv::ExecutionModel::Kernel);
    ep.reached_imports = k.imports;
    graph.entry_points.push_back(std::move(ep));
  }
  for (const ReachedImports &f : meta.function_calls) {
    Symbol sym;
    sym.name = f.name;
    sym.reached_imports = f.imports;
    graph.exported_symbols.push_back(std::move(sym));
  }
  std::sort(graph.exported_symbols.begin(), graph.exported_symbols.end(),
            [](const Symbol &a, const Symbol &b) { return a.name < b.name; }); // find_export searches
  return graph;
}

const KernelRequirements *ImageMetadata::kernel(std::string_view name) const {
  for (const auto &k : kernel_requirements)
    if (k.name == name) return &k;
  return nullptr;
}

const FunctionProperties *ImageMetadata::function(std::string_view name) const {
  for (const auto &f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

KernelRequirements &ImageMetadata::kernel_entry(std::string_view name) { return entry_for(kernel_requirements, name); }

FunctionProperties &ImageMetadata::function_entry(std::string_view name) { return entry_for(functions, name); }

Result<ImageMetadata> read_image_metadata(std::span<const MetadataEntry> entries, const ModuleInfo *spirv,
                                          uint32_t primary_sub_group_size) {
  ImageMetadata meta;
  Reader reader{meta, primary_sub_group_size};
  for (const MetadataEntry &e : entries)
    if (Status s = reader.entry(e.key, e.value); !s.ok()) return std::move(s).error();
  if (spirv != nullptr) {
    if (Status s = merge_spirv(meta, *spirv); !s.ok()) return std::move(s).error();
  }
  for (const auto &k : meta.kernel_requirements)
    if (!meta.kernels.empty() && !contains(meta.kernels, k.name))
      return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                        fmt::format("metadata gives requirements of kernel '{}', which the image does not have",
                                    k.name));
  return meta;
}

} // namespace zeal::module_linker
