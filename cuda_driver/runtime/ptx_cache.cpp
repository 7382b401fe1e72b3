// The CUDA driver's PTX cache (ptx_cache.hpp).
#include "cuda_driver/runtime/ptx_cache.hpp"

#include "common/build_id.hpp"
#include "common/log.hpp"
#include "common/settings.hpp"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>

namespace zeal::cuda {

PtxCache::PtxCache(std::string identity)
    : files_(zeal::detail::PersistentCache::default_directory() / "cuda", settings().cache_max_size,
             std::move(identity), ".zptx") {}

PtxCache *PtxCache::instance() {
  static PtxCache *cache = []() -> PtxCache * {
    if (!settings().cache_persistent) return nullptr;
    // Which build of the driver (and so of its back end) made the PTX: a rebuilt driver never reads an older one's.
    std::string id = build_id_of(reinterpret_cast<const void *>(&PtxCache::instance));
    return new PtxCache(fmt::format("zeal-cuda {}.{} (LLVM 15) build {}", ZEAL_CUDA_DRIVER_VERSION_MAJOR,
                                    ZEAL_CUDA_DRIVER_VERSION_MINOR, id.empty() ? "unknown" : id));
  }();
  return cache;
}

std::string PtxCache::key_of(std::span<const uint8_t> spirv, const PtxOptions &options) {
  if (!options.spec_constants.empty()) return {};
  llvm::SHA256 hash;
  hash.update(llvm::ArrayRef<uint8_t>(spirv.data(), spirv.size()));
  std::string sizes;
  for (uint32_t size : options.subgroup_sizes) sizes += fmt::format("{},", size);
  return fmt::format("ptx | sm_{} | O{} | library {} | sub-groups {} | spirv sha256 {}", options.sm,
                     options.opt_level, options.library_compilation, sizes,
                     llvm::toHex(hash.final(), /*LowerCase=*/true));
}

std::optional<std::string> PtxCache::load(const std::string &key) {
  std::optional<std::vector<uint8_t>> bytes = files_.load(key);
  if (!bytes) return std::nullopt;
  return std::string(bytes->begin(), bytes->end());
}

void PtxCache::store(const std::string &key, const std::string &native) {
  auto stored = files_.store(key, {reinterpret_cast<const uint8_t *>(native.data()), native.size()});
  if (!stored) zeal::logger("zeal-cuda").debug("the PTX cache did not keep a module: {}", stored.error());
}

} // namespace zeal::cuda
