// The persistent cache: round trips, every kind of bad entry rebuilt, LRU eviction, processes racing.
#include "common/persistent_cache.hpp"

#include "common/settings.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

namespace {

namespace fs = std::filesystem;
using zeal::detail::PersistentCache;

std::vector<uint8_t> bytes_of(const std::string &text) { return {text.begin(), text.end()}; }

class CacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("zeal-cache-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<uint8_t> file_bytes(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  void write_bytes(const fs::path &p, const std::vector<uint8_t> &b) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(b.data()), static_cast<std::streamsize>(b.size()));
  }

  fs::path dir_;
};

TEST_F(CacheTest, GivenAStoredEntry_ThenItLoadsBackByteForByte) {
  PersistentCache cache(dir_, 1 << 20, "zeal-cpu 0.1.0");
  EXPECT_FALSE(cache.load("key-a").has_value());
  ASSERT_TRUE(cache.store("key-a", bytes_of("native code of a")).ok());
  auto loaded = cache.load("key-a");
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(*loaded, bytes_of("native code of a"));
  EXPECT_FALSE(cache.load("key-b").has_value());
}

TEST_F(CacheTest, GivenEveryTruncation_ThenTheEntryIsAMissAndRemoved) {
  PersistentCache cache(dir_, 1 << 20, "drv 1");
  ASSERT_TRUE(cache.store("k", bytes_of("payload that will be cut short")).ok());
  const auto whole = file_bytes(cache.path_of("k"));
  for (size_t n = 0; n < whole.size(); ++n) {
    write_bytes(cache.path_of("k"), std::vector<uint8_t>(whole.begin(), whole.begin() + static_cast<long>(n)));
    EXPECT_FALSE(cache.load("k").has_value()) << "truncated to " << n;
    EXPECT_FALSE(fs::exists(cache.path_of("k"))) << "truncated to " << n;
  }
}

TEST_F(CacheTest, GivenAnyFlippedByte_ThenTheEntryIsAMiss) {
  PersistentCache cache(dir_, 1 << 20, "drv 1");
  ASSERT_TRUE(cache.store("k", bytes_of("0123456789abcdef")).ok());
  const auto whole = file_bytes(cache.path_of("k"));
  for (size_t i = 0; i < whole.size(); ++i) {
    auto bad = whole;
    bad[i] ^= 0x5a;
    write_bytes(cache.path_of("k"), bad);
    EXPECT_FALSE(cache.load("k").has_value()) << "byte " << i;
  }
}

TEST_F(CacheTest, GivenAnEntryOfAnotherDriverVersion_ThenItIsStale) {
  PersistentCache old_driver(dir_, 1 << 20, "drv 1");
  ASSERT_TRUE(old_driver.store("k", bytes_of("old")).ok());
  PersistentCache new_driver(dir_, 1 << 20, "drv 2");
  EXPECT_FALSE(new_driver.load("k").has_value());
  ASSERT_TRUE(new_driver.store("k", bytes_of("new")).ok());
  EXPECT_EQ(*new_driver.load("k"), bytes_of("new"));
  // Each driver keeps its own entry: neither evicts the other.
  EXPECT_EQ(*old_driver.load("k"), bytes_of("old"));
  // An entry of another driver found under this driver's name is stale all the same.
  fs::copy_file(old_driver.path_of("k"), new_driver.path_of("k"), fs::copy_options::overwrite_existing);
  EXPECT_FALSE(new_driver.load("k").has_value());
}

TEST_F(CacheTest, GivenAFileOfAnotherKeyUnderThisName_ThenItIsAMiss) {
  PersistentCache cache(dir_, 1 << 20, "drv");
  ASSERT_TRUE(cache.store("other", bytes_of("other payload")).ok());
  fs::rename(cache.path_of("other"), cache.path_of("mine")); // as a hash collision would
  EXPECT_FALSE(cache.load("mine").has_value());
}

TEST_F(CacheTest, GivenAForeignFile_ThenItIsAMiss) {
  PersistentCache cache(dir_, 1 << 20, "drv");
  fs::create_directories(dir_);
  write_bytes(cache.path_of("k"), bytes_of("#!/bin/sh\necho not a cache entry\n"));
  EXPECT_FALSE(cache.load("k").has_value());
}

TEST_F(CacheTest, GivenMoreThanTheLimit_ThenTheLeastRecentlyUsedEntriesGo) {
  const std::vector<uint8_t> kilobyte(1000, 7);
  PersistentCache cache(dir_, 3500, "drv"); // room for three entries with their headers
  for (const char *k : {"a", "b", "c"}) {
    ASSERT_TRUE(cache.store(k, kilobyte).ok());
    std::this_thread::sleep_for(std::chrono::milliseconds(20)); // distinct modification times
  }
  ASSERT_TRUE(cache.load("a").has_value()); // a is now the most recently used
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(cache.store("d", kilobyte).ok());
  EXPECT_TRUE(cache.load("a").has_value());
  EXPECT_FALSE(cache.load("b").has_value()) << "b was the least recently used";
  EXPECT_TRUE(cache.load("c").has_value());
  EXPECT_TRUE(cache.load("d").has_value());
}

TEST_F(CacheTest, GivenProcessesRacingOnOneFolder_ThenNothingTornIsEverRead) {
  constexpr int kProcesses = 4, kRounds = 200;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    pid_t pid = fork();
    ASSERT_NE(pid, -1);
    if (pid == 0) {
      PersistentCache cache(dir_, 1 << 20, "drv");
      int bad = 0;
      for (int i = 0; i < kRounds; ++i) {
        std::string key = "key" + std::to_string(i % 7);
        std::vector<uint8_t> payload(500 + (i % 7) * 100, static_cast<uint8_t>(i % 7));
        if (!cache.store(key, payload).ok()) ++bad;
        auto loaded = cache.load(key);
        if (loaded && *loaded != payload) ++bad; // every writer writes the same bytes for a key
      }
      _exit(bad == 0 ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a process read a torn or wrong entry";
  }
  for (const auto &f : fs::directory_iterator(dir_))
    EXPECT_EQ(f.path().extension(), ".zbin") << "a temporary file was left behind: " << f.path();
}

TEST(CacheDirectory, FollowsZealCacheDirThenXdgThenHome) {
  // ZEAL_CACHE_DIR is read once into the settings; ctest sets it for every suite.
  if (!zeal::settings().cache_dir.empty()) {
    setenv("XDG_CACHE_HOME", "/tmp/xdg-for-test", 1);
    EXPECT_EQ(PersistentCache::default_directory(), fs::path(zeal::settings().cache_dir));
    unsetenv("XDG_CACHE_HOME");
    return;
  }
  const char *home = std::getenv("HOME");
  std::string saved_home = home != nullptr ? home : "";
  setenv("XDG_CACHE_HOME", "/tmp/xdg-for-test", 1);
  EXPECT_EQ(PersistentCache::default_directory(), fs::path("/tmp/xdg-for-test/zeal"));
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(PersistentCache::default_directory(), fs::path("/home/someone/.cache/zeal"));
  if (home != nullptr) setenv("HOME", saved_home.c_str(), 1);
}

} // namespace
