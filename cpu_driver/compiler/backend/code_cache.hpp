// Each kernel's compiled code kept on disk between processes (compiler/ only).
#pragma once

#include "common/persistent_cache.hpp"
#include "cpu_driver/compiler/compiler.hpp"

#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace zeal::cpu::detail {

// The driver compiles a kernel at its first launch (or symbol look-up), one
// module per kernel as split_by_kernel cut it. What takes the time is
// optimisation and code generation; the object they produce depends only on
// that module's IR, the optimisation level, the target CPU and the compiler
// itself. So the cache is content-addressed: the key is a SHA-256 of the
// module's bitcode before optimisation, and the entry's identity (checked on
// every read, also part of the file name) names the driver build (version,
// LLVM version and the GNU build-id of the code doing the compiling) and the
// target's id. Whatever else decides the code — specialisation constants,
// build flags, the device profile's sub-group size, static links — is already
// in the IR. Entries are written by one background thread after the kernel has
// compiled, so a launch never waits for the disk; a read happens on the
// compiling thread, in place of the compilation.
class CodeCache {
public:
  // The process's cache: null when ZEAL_CACHE_PERSISTENT=0 or ZEAL_CPU_KERNEL_CACHE=off.
  // Its folder is `cpu` inside the persistent cache's (ZEAL_CACHE_DIR), its limit ZEAL_CACHE_MAX_SIZE.
  static CodeCache *instance();

  CodeCache(std::filesystem::path dir, uint64_t max_bytes, std::string identity);
  // Writes what is queued, then stops its thread. (The process's cache is never destroyed.)
  ~CodeCache();
  CodeCache(const CodeCache &) = delete;
  CodeCache &operator=(const CodeCache &) = delete;

  // The entry key of a kernel module at optimisation level `opt_level`.
  static std::string key_of(const llvm::Module &module, unsigned opt_level);

  // The object code stored for `key`, or null (missing, stale or corrupt: then removed).
  std::unique_ptr<llvm::MemoryBuffer> load(const std::string &key);
  // Writes the object on the cache's thread; returns at once.
  void store_later(std::string key, std::string object);
  // Waits until every store asked for so far has been written or has failed.
  void flush();

  CodeCacheStats stats() const;
  const std::filesystem::path &directory() const { return files_.directory(); }

private:
  struct Pending {
    std::string key, object;
  };
  void write_pending();
  void after_fork_in_child();

  zeal::detail::PersistentCache files_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Pending> queue_;
  std::thread writer_; // started by the first store
  bool stopping_ = false;
  bool writing_ = false;
  CodeCacheStats stats_;
};

// Who compiled this code: the driver's version and LLVM's, and the GNU
// build-id of the binary holding the compiler (so a rebuilt driver of the same
// version never reads code its predecessor generated).
const std::string &compiler_build_identity();

} // namespace zeal::cpu::detail
