// The PTX of SPIR-V modules kept on disk between processes, so that building a module a second time skips the
// back end (CUDA keeps its own cache of what its JIT makes of the PTX, ~/.nv/ComputeCache).
#pragma once

#include "common/persistent_cache.hpp"
#include "cuda_driver/compiler/ptx_compiler.hpp"

#include <optional>
#include <span>
#include <string>

namespace zeal::cuda {

class PtxCache {
public:
  // The process's cache: null when ZEAL_CACHE_PERSISTENT=0. Its folder is `cuda` inside the persistent cache's
  // (ZEAL_CACHE_DIR), its limit ZEAL_CACHE_MAX_SIZE; entries are named *.zptx.
  static PtxCache *instance();

  // The entry key of SPIR-V built with `options`: a SHA-256 of the module and the options that change its PTX.
  // Empty for a module with specialisation constants, which is not cached (their sizes are the module's to say).
  static std::string key_of(std::span<const uint8_t> spirv, const PtxOptions &options);

  std::optional<std::string> load(const std::string &key);
  void store(const std::string &key, const std::string &native);

private:
  explicit PtxCache(std::string identity);
  zeal::detail::PersistentCache files_;
};

} // namespace zeal::cuda
