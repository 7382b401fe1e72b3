// The persistent cache in use, in each of its modes (see `mode()`): code stored on the first build, used by
// later contexts and processes, corrupt entries rebuilt, several processes sharing one cache folder.
#include "common/persistent_cache.hpp"
#include "kernel_bundle/program_builder.hpp"
#include "tests/support/zeal_float_sum.hpp"

#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

extern char **environ;

namespace {

namespace fs = std::filesystem;

fs::path cache_dir() { return zeal::detail::PersistentCache::default_directory(); }
// The CPU driver's kernel code cache keeps its entries here.
fs::path driver_dir() { return cache_dir() / "cpu"; }

// Who keeps built code on disk, as ctest's entries set it.
enum class Mode {
  off,     // ZEAL_CACHE_PERSISTENT=0: nobody
  driver,  // the default: the CPU driver keeps each kernel's code, the runtime stores nothing
  runtime, // ZEAL_CPU_KERNEL_CACHE=0: the runtime stores native binaries, as for a driver without a code cache
};
Mode mode() {
  if (!zeal::settings().cache_persistent) return Mode::off;
  return zeal::settings().cpu_kernel_cache ? Mode::driver : Mode::runtime;
}

size_t files_in(const fs::path &dir, const char *extension) {
  size_t n = 0;
  if (fs::exists(dir))
    for (const auto &f : fs::directory_iterator(dir)) n += f.path().extension() == extension;
  return n;
}
size_t entries() { return files_in(cache_dir(), ".zbin"); }
size_t driver_entries() { return files_in(driver_dir(), ".zobj"); }

// The driver writes its entries in the background: waits (10 s at most) for at least `n`.
size_t wait_for_driver_entries(size_t n) {
  for (int i = 0; i < 1000 && driver_entries() < n; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return driver_entries();
}

// Each driver entry's inode, with its modification time set far back. An entry
// the driver reads gets a new modification time (its least-recently-used
// mark); one it writes anew (after compiling) gets a new inode (written aside,
// renamed into place).
std::map<fs::path, ino_t> age_driver_entries() {
  std::map<fs::path, ino_t> inodes;
  for (const auto &f : fs::directory_iterator(driver_dir())) {
    struct stat st {};
    EXPECT_EQ(stat(f.path().c_str(), &st), 0);
    inodes[f.path()] = st.st_ino;
    fs::last_write_time(f.path(), fs::file_time_type::clock::now() - std::chrono::hours(24 * 365));
  }
  return inodes;
}
// How many of the aged entries were read since, each still the same file.
size_t entries_read_since(const std::map<fs::path, ino_t> &aged) {
  size_t read = 0;
  for (const auto &[path, inode] : aged) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) continue;
    EXPECT_EQ(st.st_ino, inode) << path << " was written again: its kernel was compiled again";
    read += fs::last_write_time(path) > fs::file_time_type::clock::now() - std::chrono::hours(1);
  }
  return read;
}

// Builds and runs vector_add in a fresh context, so the in-memory cache cannot answer.
void run_vector_add_in_new_context() {
  zeal::device dev;
  zeal::context ctx(dev);
  zeal::queue q(ctx, dev);
  zeal_test::expect_float_sum(q, "vector_add", 4096, 1.0f);
}

TEST(PersistentBuild, TheFirstBuildStoresAndALaterContextLoadsInsteadOfCompiling) {
  fs::remove_all(cache_dir());
  auto before = zeal::detail::persistent_cache_stats();
  run_vector_add_in_new_context();
  auto cold = zeal::detail::persistent_cache_stats();
  switch (mode()) {
  case Mode::off:
    // Nothing may reach the disk.
    EXPECT_FALSE(fs::exists(cache_dir()));
    EXPECT_EQ(cold.stores, 0u);
    return;
  case Mode::runtime: {
    EXPECT_GE(cold.misses, before.misses + 1);
    EXPECT_GE(cold.stores, before.stores + 1);
    EXPECT_GE(entries(), 1u);
    EXPECT_EQ(driver_entries(), 0u);
    run_vector_add_in_new_context();
    auto warm = zeal::detail::persistent_cache_stats();
    EXPECT_GE(warm.hits, cold.hits + 1) << "a new context must load the stored native binary";
    EXPECT_EQ(warm.stores, cold.stores);
    return;
  }
  case Mode::driver: {
    // The runtime leaves it to the driver, which keeps the one kernel that ran.
    EXPECT_EQ(cold.stores, before.stores);
    EXPECT_EQ(cold.misses, before.misses);
    EXPECT_EQ(entries(), 0u);
    EXPECT_EQ(wait_for_driver_entries(1), 1u);
    auto aged = age_driver_entries();
    run_vector_add_in_new_context();
    EXPECT_EQ(entries_read_since(aged), 1u) << "a new context must load the kernel's stored code";
    EXPECT_EQ(zeal::detail::persistent_cache_stats().stores, before.stores);
    return;
  }
  }
}

TEST(PersistentBuild, GivenCorruptedEntries_ThenTheyAreRebuiltAndTheResultIsRight) {
  if (mode() == Mode::off) return; // covered by the test above
  run_vector_add_in_new_context(); // make sure entries exist
  fs::path dir = mode() == Mode::driver ? driver_dir() : cache_dir();
  ASSERT_GE(mode() == Mode::driver ? wait_for_driver_entries(1) : entries(), 1u);
  for (const auto &f : fs::directory_iterator(dir)) {
    std::fstream io(f.path(), std::ios::in | std::ios::out | std::ios::binary);
    io.seekg(0, std::ios::end);
    auto size = static_cast<long>(io.tellg());
    io.seekp(size / 2);
    io.put('\x5a');
  }
  auto before = zeal::detail::persistent_cache_stats();
  run_vector_add_in_new_context();
  auto after = zeal::detail::persistent_cache_stats();
  if (mode() == Mode::driver) {
    // Found corrupt, removed, compiled again and stored again; then read.
    EXPECT_EQ(wait_for_driver_entries(1), 1u);
    auto aged = age_driver_entries();
    run_vector_add_in_new_context();
    EXPECT_EQ(entries_read_since(aged), 1u);
    return;
  }
  EXPECT_GE(after.misses, before.misses + 1);
  EXPECT_GE(after.stores, before.stores + 1) << "the rebuilt binary replaces the corrupted entry";
  run_vector_add_in_new_context();
  EXPECT_GE(zeal::detail::persistent_cache_stats().hits, after.hits + 1);
}

pid_t spawn(std::vector<const char *> args) {
  args.push_back(nullptr);
  pid_t pid = 0;
  EXPECT_EQ(posix_spawn(&pid, args[0], nullptr, nullptr, const_cast<char **>(args.data()), environ), 0) << args[0];
  return pid;
}

bool exited_ok(pid_t pid) {
  int status = 0;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// Four processes each of two applications, one of them with device code in a shared library,
// all starting on one empty cache folder: every process computes right, and the folder ends up
// holding whole entries only (a later process takes every object from it), no temporary files.
TEST(PersistentBuild, SeveralProcessesShareOneCacheFolderAtOnce) {
  fs::remove_all(cache_dir());
  std::vector<pid_t> children;
  for (int i = 0; i < 4; ++i) {
    children.push_back(spawn({ZEAL_TEST_VECTOR_ADD}));
    children.push_back(spawn({ZEAL_TEST_VERSION_APP, "1"}));
  }
  for (pid_t pid : children) EXPECT_TRUE(exited_ok(pid)) << "process " << pid << " failed";
  if (mode() == Mode::off) {
    EXPECT_FALSE(fs::exists(cache_dir()));
    return;
  }
  fs::path dir = mode() == Mode::driver ? driver_dir() : cache_dir();
  const char *extension = mode() == Mode::driver ? ".zobj" : ".zbin";
  const char *magic_expected = "ZEALCACH";
  EXPECT_GE(files_in(dir, extension), 2u);
  for (const auto &f : fs::directory_iterator(dir)) {
    if (f.is_directory() && f.path() == driver_dir()) continue;
    EXPECT_EQ(f.path().extension(), extension) << "left behind: " << f.path();
    char magic[8] = {};
    std::ifstream(f.path(), std::ios::binary).read(magic, sizeof(magic));
    EXPECT_EQ(std::string(magic, sizeof(magic)), magic_expected) << f.path();
  }
  if (mode() == Mode::runtime) {
    EXPECT_TRUE(exited_ok(spawn({ZEAL_TEST_VERSION_APP, "1", "--all-from-cache"})))
        << "a process started after the others must find every object in the cache";
    return;
  }
  // The processes wrote their kernels' code before they ended; a later one compiles nothing.
  EXPECT_EQ(entries(), 0u) << "the runtime stores nothing when the driver keeps the code";
  auto aged = age_driver_entries();
  EXPECT_TRUE(exited_ok(spawn({ZEAL_TEST_VERSION_APP, "1"})));
  EXPECT_EQ(files_in(dir, extension), aged.size()) << "a process started after the others compiled a kernel";
  EXPECT_GE(entries_read_since(aged), 2u) << "its kernels come from the cache";
}

} // namespace
