// Reads, writes and evicts the entries of the persistent cache.
#include "common/persistent_cache.hpp"

#include "common/log.hpp"
#include "common/settings.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <thread>

namespace zeal::detail {
namespace {

constexpr char kMagic[8] = {'Z', 'E', 'A', 'L', 'C', 'A', 'C', 'H'};

void put_u32(std::vector<uint8_t> &out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void put_u64(std::vector<uint8_t> &out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void put_string(std::vector<uint8_t> &out, const std::string &s) {
  put_u32(out, static_cast<uint32_t>(s.size()));
  out.insert(out.end(), s.begin(), s.end());
}

// Reads the fields of an entry in order; any read past the end fails the whole parse.
class Reader {
public:
  explicit Reader(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  bool u32(uint32_t &v) { return fixed(v); }
  bool u64(uint64_t &v) { return fixed(v); }
  bool string(std::string &s) {
    uint32_t n = 0;
    if (!u32(n) || n > remaining()) return false;
    s.assign(reinterpret_cast<const char *>(bytes_.data() + pos_), n);
    pos_ += n;
    return true;
  }
  bool raw(void *dst, size_t n) {
    if (n > remaining()) return false;
    std::memcpy(dst, bytes_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  size_t remaining() const { return bytes_.size() - pos_; }
  size_t position() const { return pos_; }

private:
  template <class T>
  bool fixed(T &v) {
    if (sizeof(T) > remaining()) return false;
    v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(bytes_[pos_ + i]) << (8 * i);
    pos_ += sizeof(T);
    return true;
  }
  std::span<const uint8_t> bytes_;
  size_t pos_ = 0;
};

std::optional<std::vector<uint8_t>> read_whole(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

// Why an entry cannot be trusted, or empty if it can; `payload` receives its payload.
std::string check_entry(std::span<const uint8_t> bytes, const std::string &key, const std::string &driver,
                        std::vector<uint8_t> &payload) {
  Reader r(bytes);
  char magic[8];
  uint32_t version = 0;
  std::string entry_driver, entry_key;
  uint64_t size = 0, checksum = 0;
  if (!r.raw(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof magic) != 0) return "it has no zeal cache header";
  if (!r.u32(version)) return "it is truncated";
  if (version != PersistentCache::kFormatVersion)
    return fmt::format("it has format version {}, not {}", version, PersistentCache::kFormatVersion);
  if (!r.string(entry_driver) || !r.string(entry_key) || !r.u64(size) || !r.u64(checksum)) return "it is truncated";
  if (entry_driver != driver) return fmt::format("it was written by driver '{}', not '{}'", entry_driver, driver);
  if (entry_key != key) return "it holds another key whose name collides with this one";
  if (size != r.remaining())
    return fmt::format("its payload should be {} bytes but {} remain (truncated or grown)", size, r.remaining());
  auto body = bytes.subspan(r.position());
  if (fnv1a64(body) != checksum) return "its checksum does not match its payload (corrupted)";
  payload.assign(body.begin(), body.end());
  return {};
}

std::string unique_suffix() {
  static std::atomic<uint64_t> counter{0};
  return fmt::format(".tmp.{}.{}.{}", getpid(), std::hash<std::thread::id>{}(std::this_thread::get_id()),
                     counter.fetch_add(1));
}

} // namespace

uint64_t fnv1a64(std::span<const uint8_t> bytes, uint64_t seed) {
  uint64_t h = seed;
  for (uint8_t b : bytes) {
    h ^= b;
    h *= 0x100000001b3ull;
  }
  return h;
}

PersistentCache::PersistentCache(std::filesystem::path dir, uint64_t max_bytes, std::string driver,
                                 std::string extension)
    : dir_(std::move(dir)), max_bytes_(max_bytes), driver_(std::move(driver)), extension_(std::move(extension)) {}

std::filesystem::path PersistentCache::default_directory() {
  if (!settings().cache_dir.empty()) return settings().cache_dir;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] == '/')
    return std::filesystem::path(xdg) / "zeal";
  if (const char *home = std::getenv("HOME"); home != nullptr && home[0] != '\0')
    return std::filesystem::path(home) / ".cache" / "zeal";
  return std::filesystem::temp_directory_path() / "zeal-cache";
}

std::filesystem::path PersistentCache::path_of(const std::string &key) const {
  // The driver is part of the name: devices of different drivers (or CPU driver
  // profiles) sharing a folder keep their own entries instead of evicting each other's.
  std::string named = driver_ + '\n' + key;
  auto bytes = std::span(reinterpret_cast<const uint8_t *>(named.data()), named.size());
  return dir_ / fmt::format("{:016x}{}", fnv1a64(bytes), extension_);
}

std::optional<std::vector<uint8_t>> PersistentCache::load(const std::string &key) {
  std::filesystem::path path = path_of(key);
  auto bytes = read_whole(path);
  if (!bytes) return std::nullopt;
  std::vector<uint8_t> payload;
  std::string problem = check_entry(*bytes, key, driver_, payload);
  if (!problem.empty()) {
    logger("zeal").warn("ignoring cache entry '{}': {}; it will be rebuilt", path.string(), problem);
    std::error_code ec;
    std::filesystem::remove(path, ec);
    return std::nullopt;
  }
  // The modification time records use, for least-recently-used eviction.
  (void)utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
  return payload;
}

CacheStatus PersistentCache::store(const std::string &key, std::span<const uint8_t> payload) {
  CacheStatus written = write_entry(key, payload);
  if (!written.ok()) {
    if (!warned_.exchange(true))
      logger("zeal").warn("the cache folder '{}' cannot keep built code ({}); this process goes on without "
                          "storing there, building again what it does not find",
                          dir_.string(), written.error());
    else
      logger("zeal").debug("{}", written.error());
  }
  return written;
}

CacheStatus PersistentCache::write_entry(const std::string &key, std::span<const uint8_t> payload) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec)
    return fmt::format("cannot create cache folder '{}': {}", dir_.string(), ec.message());
  std::vector<uint8_t> entry(std::begin(kMagic), std::end(kMagic));
  put_u32(entry, kFormatVersion);
  put_string(entry, driver_);
  put_string(entry, key);
  put_u64(entry, payload.size());
  put_u64(entry, fnv1a64(payload));
  entry.insert(entry.end(), payload.begin(), payload.end());

  std::filesystem::path path = path_of(key);
  std::filesystem::path temp = path;
  temp += unique_suffix();
  {
    errno = 0;
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(entry.data()), static_cast<std::streamsize>(entry.size()));
    if (!out.flush()) {
      int error = errno; // ENOSPC on a full file system, EACCES or EROFS on a read-only folder, EFBIG, ...
      std::filesystem::remove(temp, ec);
      return fmt::format("cannot write cache entry '{}': {}", temp.string(),
                         error != 0 ? std::strerror(error) : "the write failed");
    }
  }
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    return fmt::format("cannot move cache entry into place at '{}': {}", path.string(), ec.message());
  }
  evict(path);
  return {};
}

void PersistentCache::evict(const std::filesystem::path &keep) {
  std::lock_guard lock(evict_mutex_);
  struct Entry {
    std::filesystem::path path;
    uint64_t size;
    std::filesystem::file_time_type used;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (const auto &file : std::filesystem::directory_iterator(dir_, ec)) {
    if (file.path().extension() != extension_) continue;
    std::error_code e1, e2;
    uint64_t size = file.file_size(e1);
    auto used = file.last_write_time(e2);
    if (e1 || e2) continue; // removed by another process meanwhile
    entries.push_back({file.path(), size, used});
    total += size;
  }
  if (total <= max_bytes_) return;
  std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) { return a.used < b.used; });
  for (const Entry &e : entries) {
    if (total <= max_bytes_) break;
    if (e.path == keep) continue;
    std::filesystem::remove(e.path, ec);
    total -= e.size; // counted as gone even if another process removed it first
    logger("zeal").debug("evicted cache entry '{}' ({} bytes)", e.path.string(), e.size);
  }
}

} // namespace zeal::detail
