// The on-disk cache of built device code: one file per key, written atomically, checked on read.
// Used by the runtime (whole programs' native binaries, for drivers without a
// code cache of their own) and by the CPU driver (each kernel's compiled code).
#pragma once

#include "common/basic_result.hpp"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace zeal::detail {

// Success, or the sentence saying why an entry was not written (a failure only
// costs a later rebuild, so it is logged, never returned to a user).
using CacheStatus = Result<void, std::string>;

// An entry file is: a header (magic "ZEALCACH", format version, the driver's
// identity and version, the full key, the payload size and a 64-bit checksum)
// then the payload. Files are written to a unique temporary name and renamed
// into place, so a reader in any process sees a whole entry or none. A file
// that is truncated, corrupted, written for another driver, of another format
// version, or for another key whose hash collides is never trusted: it is
// logged, removed and reported as a miss, and the caller rebuilds.
class PersistentCache {
public:
  // `driver` names the driver and its version: an entry written by another is stale.
  // Only files named `*<extension>` in `dir` are entries of this cache (and evicted by it).
  PersistentCache(std::filesystem::path dir, uint64_t max_bytes, std::string driver,
                  std::string extension = ".zbin");

  // The folder ZEAL_CACHE_DIR names, else $XDG_CACHE_HOME/zeal, else ~/.cache/zeal.
  static std::filesystem::path default_directory();

  std::optional<std::vector<uint8_t>> load(const std::string &key);
  // Stores the payload, then evicts least-recently-used entries beyond max_bytes. A folder that cannot take
  // entries (read-only, missing and not creatable, on a full file system) is warned about once per cache: the
  // first failure is logged as a warning, later ones at debug level only; the run goes on without the entries.
  CacheStatus store(const std::string &key, std::span<const uint8_t> payload);

  std::filesystem::path path_of(const std::string &key) const;
  const std::filesystem::path &directory() const { return dir_; }

  static constexpr uint32_t kFormatVersion = 1;

private:
  CacheStatus write_entry(const std::string &key, std::span<const uint8_t> payload);
  void evict(const std::filesystem::path &keep);

  std::filesystem::path dir_;
  uint64_t max_bytes_;
  std::string driver_;
  std::string extension_;
  std::mutex evict_mutex_;
  std::atomic<bool> warned_{false};
};

// FNV-1a, 64 bits: the entry file names and the payload checksums, and the CPU driver's native binary checksum.
uint64_t fnv1a64(std::span<const uint8_t> bytes, uint64_t seed = 0xcbf29ce484222325ull);

} // namespace zeal::detail
