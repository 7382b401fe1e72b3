// Link checks across objects: imports resolved once, and callers and callees of one sub-group size and range.
#include "adapter/link_checks.hpp"

#include "module_linker/kernel_calls.hpp"

#include <fmt/format.h>

namespace zeal::adapter {
namespace ml = module_linker;

Error link_error(std::string message) {
  Error e = make_error(ZEAL_RESULT_ERROR_LINK_FAILURE, std::move(message));
  e.log = "zeal: " + e.message;
  return e;
}

namespace {

// One side of a call between objects: what it was compiled for, and what messages call it.
struct Side {
  const Program *program = nullptr;
  bool is_kernel = false;
  std::string_view name;
  uint32_t sub_group_size = 0;
  const char *source = "";   // "required", "declared" or "the device's primary size"
  uint64_t range_limit = 0;  // 0: no range_type declared
};

std::string describe(const Side &s) {
  return fmt::format("{} '{}' of {}", s.is_kernel ? "kernel" : "function", s.name, s.program->describe());
}

// A kernel runs with its required size, else the device's primary one (SYCL_INTEL_sub_group; a
// kernel of "automatic" size requires none, and the driver gives it the primary size).
Side kernel_side(const Program &p, std::string_view name) {
  const KernelRequirements *k = p.metadata().kernel(name);
  const bool required = k != nullptr && k->sub_group_size != 0;
  return {&p, true, name, required ? k->sub_group_size : p.device().primary_sub_group_size(),
          required ? "required" : "the device's primary size", k != nullptr ? k->range_limit : 0};
}

Side function_side(const Program &p, std::string_view name) {
  const FunctionProperties *f = p.metadata().function(name);
  const bool declared = f != nullptr && f->sub_group_size != 0;
  return {&p, false, name, declared ? f->sub_group_size : p.device().primary_sub_group_size(),
          declared ? "declared" : "the device's primary size", f != nullptr ? f->range_limit : 0};
}

// What the importer declares of a function must hold for the exporter: the same sub-group size
// (SYCL_INTEL_sub_group; a definition declaring none has the device's primary size) and a range
// that fits (sycl_ext_oneapi_range_type).
Status check_function(const std::string &name, const Program &importer, const Program &exporter) {
  const FunctionProperties *want = importer.metadata().function(name);
  if (want == nullptr) return {};
  const Side have = function_side(exporter, name);
  const bool primary = have.source != std::string_view("declared");
  if (want->sub_group_size != 0 && want->sub_group_size != have.sub_group_size)
    return link_error(fmt::format("{} calls '{}' with sub-group size {}, but {} defines it with sub-group size {}{}",
                                  importer.describe(), name, want->sub_group_size, exporter.describe(),
                                  have.sub_group_size, primary ? " (the device's primary size)" : ""));
  if (want->range_limit != 0 && have.range_limit != 0 && want->range_limit > have.range_limit)
    return link_error(fmt::format("{} calls '{}' with up to {} work-items, but {} defines it for at most {} "
                                  "(range_type)",
                                  importer.describe(), name, want->range_limit, exporter.describe(),
                                  have.range_limit));
  return {};
}

Status check_call(const Side &caller, const Side &callee) {
  if (caller.sub_group_size != callee.sub_group_size)
    return link_error(fmt::format("{} runs with sub-group size {} ({}) and calls '{}', but {} was compiled for "
                                  "sub-group size {} ({})",
                                  describe(caller), caller.sub_group_size, caller.source, callee.name,
                                  describe(callee), callee.sub_group_size, callee.source));
  // sycl_ext_oneapi_range_type asks only that a caller's declared range_type fit the callee's. A side
  // declaring none is not checked: metadata is optional, so its absence does not say the function
  // was compiled without one (zeal-spirv link-check, which reads everything, takes size_t instead).
  if (caller.range_limit != 0 && callee.range_limit != 0 && caller.range_limit > callee.range_limit)
    return link_error(fmt::format("{} runs with up to {} work-items (range_type) and calls '{}', but {} is "
                                  "defined for at most {} (range_type)",
                                  describe(caller), caller.range_limit, callee.name, describe(callee),
                                  callee.range_limit));
  return {};
}

Status check_symbols(std::span<Program *const> objects) {
  for (const Program *importer : objects)
    for (const std::string &name : importer->metadata().imports) {
      std::vector<const Program *> exporters;
      for (const Program *o : objects)
        if (contains(o->metadata().exports, name)) exporters.push_back(o);
      if (exporters.empty())
        return link_error(fmt::format("{} imports '{}', which none of the {} programs being linked exports",
                                      importer->describe(), name, objects.size()));
      if (exporters.size() > 1)
        return link_error(fmt::format("'{}' imported by {} is exported by both {} and {}", name, importer->describe(),
                                      exporters[0]->describe(), exporters[1]->describe()));
      if (Status s = check_function(name, *importer, *exporters[0]); !s.ok()) return s;
    }
  return {};
}

// Every call a kernel reaches into another object, through module_linker's call graph: the
// kernel's sub-group size must be its callees' (and theirs their callees'), its range_type fit
// theirs. A native binary's call graph is what its metadata gives (kernel.<k>.calls,
// function.<f>.calls); where it gives none, which import a kernel reaches is unknown: that kernel
// is not walked, and a walk reaching such a function stops there. What such an image declares of
// its imports is still checked, by check_function.
Status check_kernel_calls(std::span<Program *const> objects) {
  auto resolve = [&](std::string_view name) -> std::optional<ml::ImportTarget> {
    for (size_t i = 0; i < objects.size(); ++i)
      if (contains(objects[i]->metadata().exports, name))
        return ml::ImportTarget{i, objects[i]->calls().find_export(name)};
    return std::nullopt;
  };
  Status failure;
  for (size_t i = 0; i < objects.size(); ++i) {
    const Program &p = *objects[i];
    for (const ml::EntryPoint &ep : p.calls().entry_points) {
      // A kernel left out of the module never runs, so what it calls cannot mismatch.
      if (ep.execution_model != static_cast<uint32_t>(ml::spv::ExecutionModel::Kernel) ||
          p.refused(ep.name) != nullptr)
        continue;
      ml::walk_kernel_calls(i, ep, resolve,
                            [&](const ml::CallSite &site, std::string_view callee, const ml::ImportTarget &target) {
                              if (!failure.ok()) return;
                              Side caller = site.kernel != nullptr
                                                ? kernel_side(p, ep.name)
                                                : function_side(*objects[site.module], site.function->name);
                              failure = check_call(caller, function_side(*objects[target.module], callee));
                            });
      if (!failure.ok()) return failure;
    }
  }
  return {};
}

} // namespace

Status check_link(std::span<Program *const> objects) {
  if (Status s = check_symbols(objects); !s.ok()) return s;
  return check_kernel_calls(objects);
}

} // namespace zeal::adapter
