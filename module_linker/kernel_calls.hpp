// The calls into other modules a kernel reaches: the call graph the per-kernel link checks walk.
#pragma once

#include "module_linker/module_info.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>

namespace zeal::module_linker {

// The definition an import resolves to. `symbol` is null when that module's SPIR-V is not at
// hand (a native binary): the call is still visited, but nothing past it.
struct ImportTarget {
  size_t module = 0;               // an index of the caller's choosing
  const Symbol *symbol = nullptr;
};

// Who makes a call into another module: the kernel (directly or through functions of its own
// module), or a function of another module that an earlier call reached.
struct CallSite {
  size_t module = 0;
  const EntryPoint *kernel = nullptr;  // set when the kernel calls
  const Symbol *function = nullptr;    // set otherwise
};

using ResolveImport = std::function<std::optional<ImportTarget>(std::string_view name)>;
using VisitCall = std::function<void(const CallSite &caller, std::string_view callee, const ImportTarget &target)>;

// Visits every call into another module that `kernel` of module `module` makes: the imports the
// kernel reaches (EntryPoint::reached_imports), then those reached by each definition `resolve`
// gives (Symbol::reached_imports), transitively. Each import is followed once per kernel, from
// the first caller found; an import `resolve` cannot place is skipped.
void walk_kernel_calls(size_t module, const EntryPoint &kernel, const ResolveImport &resolve,
                       const VisitCall &visit);

} // namespace zeal::module_linker
