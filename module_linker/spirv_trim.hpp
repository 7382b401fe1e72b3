// Internal to the transformations: removing unused globals and device capabilities after functions went,
// and duplicate built-in variables after a static link.
#pragma once

#include "module_linker/module_info.hpp"

#include <span>
#include <vector>

namespace zeal::module_linker::detail {

// Drops module-scope types, constants and variables nothing uses (keeping exported ones and spec
// constants), with their names and decorations, and the Float64, Int64Atomics and
// SubgroupShuffleINTEL capabilities when no remaining code needs them (`features_in_use` are the
// Feature bits of what is left). Contract: `words` is a host-endian module that parses; a
// module that does not parse is returned unchanged.
std::vector<uint32_t> trim_unused(std::span<const uint32_t> words, uint32_t features_in_use);

// Keeps one variable per built-in and pointer type, the first, and points the uses of the others
// (as a static link of modules that each declared it leaves them) at it. The SPIR-V translator
// recognises a built-in variable by its name, which LLVM makes unique with a suffix: a second
// copy would be left an import nobody provides. Same contract as trim_unused.
std::vector<uint32_t> merge_builtin_variables(std::span<const uint32_t> words);

} // namespace zeal::module_linker::detail
