// The persistent cache in use: native binaries stored on the first build, used by later contexts and
// processes, corrupt entries rebuilt, several processes sharing one cache folder.
#include "kernel_bundle/persistent_cache.hpp"
#include "kernel_bundle/program_builder.hpp"

#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

extern char **environ;

namespace {

namespace fs = std::filesystem;

fs::path cache_dir() { return zeal::detail::PersistentCache::default_directory(); }

size_t entries() {
  size_t n = 0;
  if (fs::exists(cache_dir()))
    for (const auto &f : fs::directory_iterator(cache_dir())) n += f.path().extension() == ".zbin";
  return n;
}

// Builds and runs vector_add in a fresh context, so the in-memory cache cannot answer.
void run_vector_add_in_new_context() {
  zeal::device dev;
  zeal::context ctx(dev);
  zeal::queue q(ctx, dev);
  constexpr size_t n = 4096;
  float *a = zeal::malloc_shared<float>(n, q), *b = zeal::malloc_shared<float>(n, q), *c = zeal::malloc_shared<float>(n, q);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 1.0f;
  }
  q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("vector_add"), a, b, c).wait();
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + 1.0f) << i;
  zeal::free(a, q);
  zeal::free(b, q);
  zeal::free(c, q);
}

TEST(PersistentBuild, TheFirstBuildStoresAndALaterContextLoadsInsteadOfCompiling) {
  if (!zeal::settings().cache_persistent) {
    // ZEAL_CACHE_PERSISTENT=0: nothing may reach the disk.
    fs::remove_all(cache_dir());
    run_vector_add_in_new_context();
    EXPECT_EQ(entries(), 0u);
    EXPECT_EQ(zeal::detail::persistent_cache_stats().stores, 0u);
    return;
  }
  fs::remove_all(cache_dir());
  auto before = zeal::detail::persistent_cache_stats();
  run_vector_add_in_new_context();
  auto cold = zeal::detail::persistent_cache_stats();
  EXPECT_GE(cold.misses, before.misses + 1);
  EXPECT_GE(cold.stores, before.stores + 1);
  EXPECT_GE(entries(), 1u);

  run_vector_add_in_new_context();
  auto warm = zeal::detail::persistent_cache_stats();
  EXPECT_GE(warm.hits, cold.hits + 1) << "a new context must load the stored native binary";
  EXPECT_EQ(warm.stores, cold.stores);
}

TEST(PersistentBuild, GivenCorruptedEntries_ThenTheyAreRebuiltAndTheResultIsRight) {
  if (!zeal::settings().cache_persistent) return; // covered by the test above
  run_vector_add_in_new_context(); // make sure entries exist
  ASSERT_GE(entries(), 1u);
  for (const auto &f : fs::directory_iterator(cache_dir())) {
    std::fstream io(f.path(), std::ios::in | std::ios::out | std::ios::binary);
    io.seekg(0, std::ios::end);
    auto size = static_cast<long>(io.tellg());
    io.seekp(size / 2);
    io.put('\x5a');
  }
  auto before = zeal::detail::persistent_cache_stats();
  run_vector_add_in_new_context();
  auto after = zeal::detail::persistent_cache_stats();
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
  if (!zeal::settings().cache_persistent) {
    EXPECT_EQ(entries(), 0u);
    return;
  }
  EXPECT_GE(entries(), 2u);
  for (const auto &f : fs::directory_iterator(cache_dir())) {
    EXPECT_EQ(f.path().extension(), ".zbin") << "left behind: " << f.path();
    char magic[8] = {};
    std::ifstream(f.path(), std::ios::binary).read(magic, sizeof(magic));
    EXPECT_EQ(std::string(magic, sizeof(magic)), "ZEALCACH") << f.path();
  }
  EXPECT_TRUE(exited_ok(spawn({ZEAL_TEST_VERSION_APP, "1", "--all-from-cache"})))
      << "a process started after the others must find every object in the cache";
}

} // namespace
