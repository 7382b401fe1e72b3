// The kernel code cache: content-addressed object code on disk, written by one background thread.
#include "cpu_driver/compiler/backend/code_cache.hpp"

#include "common/build_id.hpp"
#include "common/log.hpp"
#include "common/own_thread.hpp"
#include "common/settings.hpp"
#include "cpu_driver/compiler/linking.hpp"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Support/SHA256.h>
#include <llvm/Support/raw_ostream.h>

#include <pthread.h>

#include <chrono>
#include <cstring>
#include <thread>

namespace zeal::cpu::detail {
namespace {

// Stores still queued when the process ends are written before the loggers and
// the rest of the process's static state go (bounded, so a hung disk cannot hold
// the process); later stores are dropped.
struct FlushAtExit {
  CodeCache *cache;
  ~FlushAtExit() { cache->flush(); }
};

} // namespace

const std::string &compiler_build_identity() {
  static const std::string identity = [] {
    std::string id = build_id_of(reinterpret_cast<const void *>(&compiler_build_identity));
    return fmt::format("{} build {}", driver_build_id(), id.empty() ? "unknown" : id);
  }();
  return identity;
}

CodeCache *CodeCache::instance() {
  static CodeCache *cache = []() -> CodeCache * {
    const Settings &s = settings();
    if (!s.cache_persistent || !s.cpu_kernel_cache) return nullptr;
    // Never destroyed: compilations on other threads may still use it while the process ends.
    auto *made = new CodeCache(zeal::detail::PersistentCache::default_directory() / "cpu", s.cache_max_size,
                               fmt::format("{} | {}", compiler_build_identity(), host_target_id()));
    // The logger first, so that it outlives the flush at exit, which may log.
    (void)logger("zeal-cpu");
    static FlushAtExit flush_at_exit{made};
    (void)flush_at_exit;
    pthread_atfork(
        [] { CodeCache::instance()->mutex_.lock(); }, [] { CodeCache::instance()->mutex_.unlock(); },
        [] { CodeCache::instance()->after_fork_in_child(); });
    return made;
  }();
  return cache;
}

CodeCache::CodeCache(std::filesystem::path dir, uint64_t max_bytes, std::string identity)
    : files_(std::move(dir), max_bytes, std::move(identity), ".zobj") {}

CodeCache::~CodeCache() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (writer_.joinable()) writer_.join();
}

std::string CodeCache::key_of(const llvm::Module &module, unsigned opt_level) {
  llvm::SmallVector<char, 0> bitcode;
  llvm::raw_svector_ostream out(bitcode);
  llvm::WriteBitcodeToFile(module, out);
  llvm::SHA256 hash;
  hash.update(llvm::StringRef(bitcode.data(), bitcode.size()));
  return fmt::format("kernel code | O{} | ir sha256 {}", opt_level, llvm::toHex(hash.final(), /*LowerCase=*/true));
}

std::unique_ptr<llvm::MemoryBuffer> CodeCache::load(const std::string &key) {
  auto payload = files_.load(key);
  std::lock_guard lock(mutex_);
  if (!payload) {
    ++stats_.misses;
    return nullptr;
  }
  ++stats_.hits;
  return llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(reinterpret_cast<const char *>(payload->data()), payload->size()), "zeal-cached-kernel.o");
}

void CodeCache::store_later(std::string key, std::string object) {
  std::unique_lock lock(mutex_);
  queue_.push_back({std::move(key), std::move(object)});
  if (!writer_.joinable()) writer_ = start_own_thread([this] { write_pending(); });
  changed_.notify_all();
}

void CodeCache::write_pending() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return !queue_.empty() || stopping_; });
    if (queue_.empty()) return; // stopping, with everything written
    Pending next = std::move(queue_.front());
    queue_.pop_front();
    writing_ = true;
    lock.unlock();
    zeal::detail::CacheStatus written = files_.store(next.key, std::span(reinterpret_cast<const uint8_t *>(next.object.data()),
                                                           next.object.size()));
    lock.lock();
    writing_ = false;
    // A failure is the persistent cache's to warn about, once.
    if (written.ok()) ++stats_.stores;
    else ++stats_.failed_stores;
    changed_.notify_all();
  }
}

void CodeCache::flush() {
  std::unique_lock lock(mutex_);
  if (!writer_.joinable()) return;
  changed_.wait_for(lock, std::chrono::seconds(10), [&] { return queue_.empty() && !writing_; });
}

CodeCacheStats CodeCache::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void CodeCache::after_fork_in_child() {
  // The forking thread holds the mutex (the prepare handler took it). The
  // writer thread did not come along, so the condition variable may still count
  // it as a waiter: it is made anew. The parent writes what was queued.
  mutex_.unlock();
  new (&changed_) std::condition_variable();
  new (&writer_) std::thread(); // forgets the parent's thread without touching it
  queue_.clear();
  writing_ = false;
}

} // namespace zeal::cpu::detail

namespace zeal::cpu {

CodeCacheStats code_cache_stats() {
  detail::CodeCache *cache = detail::CodeCache::instance();
  return cache != nullptr ? cache->stats() : CodeCacheStats{};
}

void flush_code_cache() {
  if (detail::CodeCache *cache = detail::CodeCache::instance()) cache->flush();
}

std::filesystem::path code_cache_directory() {
  detail::CodeCache *cache = detail::CodeCache::instance();
  return cache != nullptr ? cache->directory() : std::filesystem::path();
}

} // namespace zeal::cpu
