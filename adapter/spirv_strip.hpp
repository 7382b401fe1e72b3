// The minimal SPIR-V transformation the adapter needs: kernels removed as entry points before zeModuleCreate.
#pragma once

#include "common/result.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace zeal::adapter {

// A copy of `spirv` in which the named kernels are no longer entry points: their
// OpEntryPoint and every OpExecutionMode(Id) on them are dropped, so a driver
// neither builds them as kernels nor checks their requirements (a sub-group size
// it lacks). Their functions stay, as any other function, for callers and exports.
// Replace with module_linker's strip once it lands (issue 5 notes).
Result<std::vector<uint8_t>> strip_kernels(std::span<const uint8_t> spirv, const std::vector<std::string> &kernels);

} // namespace zeal::adapter
