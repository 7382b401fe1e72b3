// walk_kernel_calls: from a kernel through the imports it reaches, across modules, depth first.
#include "module_linker/kernel_calls.hpp"

#include <set>
#include <vector>

namespace zeal::module_linker {

void walk_kernel_calls(size_t module, const EntryPoint &kernel, const ResolveImport &resolve,
                       const VisitCall &visit) {
  struct Step {
    CallSite caller;
    std::string_view callee;
  };
  std::vector<Step> work;
  const CallSite root{module, &kernel, nullptr};
  for (const std::string &name : kernel.reached_imports) work.push_back({root, name});
  std::set<std::string_view> seen(kernel.reached_imports.begin(), kernel.reached_imports.end());
  while (!work.empty()) {
    Step step = work.back();
    work.pop_back();
    std::optional<ImportTarget> target = resolve(step.callee);
    if (!target) continue;
    visit(step.caller, step.callee, *target);
    if (target->symbol == nullptr) continue;
    const CallSite next_caller{target->module, nullptr, target->symbol};
    for (const std::string &next : target->symbol->reached_imports)
      if (seen.insert(next).second) work.push_back({next_caller, next});
  }
}

} // namespace zeal::module_linker
