// The SPIR-V transformation the adapter needs: kernels a device cannot run removed before zeModuleCreate.
#pragma once

#include "common/result.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace zeal::adapter {

// A copy of `spirv` in which the named kernels are no longer entry points: their
// OpEntryPoint and execution modes are dropped (module_linker::retain_kernels),
// so a driver neither builds them as kernels nor checks their requirements (a
// sub-group size it lacks). Exported functions stay, for callers and importers.
Result<std::vector<uint8_t>> strip_kernels(std::span<const uint8_t> spirv, const std::vector<std::string> &kernels);

} // namespace zeal::adapter
