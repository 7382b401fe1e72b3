// A specialization constant's new value, as a driver's zeModuleCreate is given it (no LLVM here: the drivers'
// runtimes include it).
#pragma once

#include <cstdint>

namespace zeal::frontend {

// Its size is the size of the constant's type in the module.
struct SpecConstant {
  uint32_t id = 0;
  const void *value = nullptr;
};

} // namespace zeal::frontend
