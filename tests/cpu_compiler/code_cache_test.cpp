// The kernel code cache: a kernel compiled once is loaded by later programs and processes, and nothing
// stale, torn or corrupt is ever run.
#include "cpu_driver/compiler/backend/code_cache.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

extern char **environ;

namespace zeal::cpu::test {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> entries(const fs::path &dir) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (const auto &file : fs::directory_iterator(dir, ec)) found.push_back(file.path());
  return found;
}

uint64_t bytes_in(const fs::path &dir) {
  uint64_t total = 0;
  for (const fs::path &file : entries(dir)) total += fs::file_size(file);
  return total;
}

// Builds vector_add in a new program and checks what its first run computes.
void build_and_run_vector_add(const CompileOptions &options = {}) {
  auto program = build("vector_add", options);
  ASSERT_NE(program, nullptr);
  const KernelInfo *kernel = program->find_kernel("vector_add");
  ASSERT_NE(kernel, nullptr);
  constexpr size_t n = 1000;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (size_t i = 0; i < n; ++i) {
    a[i] = float(i) * 0.25f;
    b[i] = 7.0f - float(i);
  }
  float *pa = a.data(), *pb = b.data(), *pc = c.data();
  const void *args[] = {&pa, &pb, &pc};
  run(*kernel, args, Range{1, {125, 1, 1}, {8, 1, 1}});
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << "element " << i;
}

class CodeCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir = code_cache_directory();
    ASSERT_FALSE(dir.empty()) << "the kernel code cache is off in this process";
    flush_code_cache();
    fs::remove_all(dir);
  }
  fs::path dir;
};

TEST_F(CodeCacheTest, AKernelCompiledOnceIsLoadedByTheNextProgramInsteadOfCompiled) {
  CodeCacheStats before = code_cache_stats();
  build_and_run_vector_add();
  flush_code_cache();
  CodeCacheStats cold = code_cache_stats();
  EXPECT_EQ(cold.misses, before.misses + 1);
  EXPECT_EQ(cold.hits, before.hits);
  EXPECT_EQ(cold.stores, before.stores + 1);
  ASSERT_EQ(entries(dir).size(), 1u);
  EXPECT_EQ(entries(dir).front().extension(), ".zobj");

  build_and_run_vector_add();
  CodeCacheStats warm = code_cache_stats();
  EXPECT_EQ(warm.hits, cold.hits + 1);
  EXPECT_EQ(warm.misses, cold.misses);
}

TEST_F(CodeCacheTest, AnotherOptimisationLevelOrKernelIsAnotherEntry) {
  build_and_run_vector_add();
  std::string log;
  CodeCacheStats before = code_cache_stats();
  build_and_run_vector_add(compile_options_of("-ze-opt-disable", log));
  EXPECT_EQ(code_cache_stats().misses, before.misses + 1);
  auto ids = build("work_item_ids");
  ASSERT_NE(ids, nullptr);
  ASSERT_TRUE(ids->entry(ids->kernels().front()).ok());
  EXPECT_EQ(code_cache_stats().misses, before.misses + 2);
  flush_code_cache();
  EXPECT_EQ(entries(dir).size(), 3u);
}

// Corruption of each kind is found, the entry removed and the kernel compiled again (and stored again).
TEST_F(CodeCacheTest, ACorruptTruncatedOrForeignEntryIsNeverRun) {
  build_and_run_vector_add();
  flush_code_cache();
  ASSERT_EQ(entries(dir).size(), 1u);
  const fs::path entry = entries(dir).front();
  const uint64_t size = fs::file_size(entry);

  auto damage = [&](const char *how, auto change) {
    SCOPED_TRACE(how);
    change();
    CodeCacheStats before = code_cache_stats();
    build_and_run_vector_add();
    EXPECT_EQ(code_cache_stats().misses, before.misses + 1);
    flush_code_cache();
    ASSERT_TRUE(fs::exists(entry));
    EXPECT_EQ(fs::file_size(entry), size) << "the entry is written anew";
  };
  damage("a flipped byte in the object code", [&] {
    std::fstream file(entry, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(size - 100));
    char byte = 0;
    file.read(&byte, 1);
    file.seekp(static_cast<std::streamoff>(size - 100));
    byte = static_cast<char>(byte ^ 0x5a);
    file.write(&byte, 1);
  });
  damage("truncated", [&] { fs::resize_file(entry, size / 2); });
  damage("empty", [&] { fs::resize_file(entry, 0); });
  damage("written by another driver build or for another CPU", [&] {
    // The same key and the same file name, from a cache of another identity.
    fs::path other = dir / "other";
    zeal::detail::PersistentCache foreign(other, 1 << 20, "zeal-cpu 0.0.1 build 00 | x86-64 other", ".zobj");
    std::string object(size, 'x');
    ASSERT_TRUE(foreign.store("unused", std::span(reinterpret_cast<const uint8_t *>(object.data()), object.size()))
                    .ok());
    fs::rename(entries(other).front(), entry);
    fs::remove_all(other);
  });
}

TEST_F(CodeCacheTest, AnUnwritableFolderCostsOneWarningAndNothingElse) {
  // A folder inside a file cannot be made, even by root.
  fs::create_directories(dir);
  fs::path file = dir / "a-file";
  std::ofstream(file) << "not a folder";
  detail::CodeCache cache(file / "cpu", 1 << 20, "test identity");
  ::testing::internal::CaptureStderr();
  for (int i = 0; i < 5; ++i) cache.store_later("key " + std::to_string(i), std::string(100, 'o'));
  cache.flush();
  std::string printed = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(cache.stats().failed_stores, 5u);
  EXPECT_EQ(cache.stats().stores, 0u);
  size_t warnings = 0;
  for (size_t at = printed.find("[warning]"); at != std::string::npos; at = printed.find("[warning]", at + 1))
    ++warnings;
  EXPECT_EQ(warnings, 1u) << printed;
  EXPECT_NE(printed.find((file / "cpu").string()), std::string::npos) << "the warning names the folder\n" << printed;
  EXPECT_EQ(cache.load("key 0"), nullptr);
}

TEST_F(CodeCacheTest, TheFolderStaysWithinItsLimit) {
  detail::CodeCache cache(dir / "limited", 4000, "test identity"); // three 1 KB entries with their headers
  for (int i = 0; i < 8; ++i) cache.store_later("key " + std::to_string(i), std::string(1000, char('a' + i)));
  cache.flush();
  EXPECT_LE(bytes_in(dir / "limited"), 4000u);
  EXPECT_EQ(cache.stats().stores, 8u);
  auto newest = cache.load("key 7");
  ASSERT_NE(newest, nullptr);
  EXPECT_EQ(newest->getBuffer(), std::string(1000, 'h'));
  EXPECT_EQ(cache.load("key 0"), nullptr) << "the least recently used entry went first";
}

// Processes of this test binary, each building vector_add and checking its result.
// `expect`: "hit" (the entry must be found), "miss" (it must be compiled), "any" (processes racing).
int spawn_child(const char *expect, const char *extra_env = nullptr) {
  std::string self = fs::read_symlink("/proc/self/exe").string();
  std::vector<std::string> words = {self, "--gtest_also_run_disabled_tests",
                                    "--gtest_filter=CodeCacheChild.DISABLED_BuildsAndRunsVectorAdd"};
  std::vector<char *> argv;
  for (std::string &w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_words;
  for (char **e = environ; *e != nullptr; ++e)
    if (std::string_view(*e).rfind("GTEST_", 0) != 0 && std::string_view(*e).rfind("ZEAL_CPU_TARGET=", 0) != 0)
      env_words.emplace_back(*e);
  env_words.push_back(std::string("ZEAL_TEST_EXPECT_CODE_CACHE=") + expect);
  if (extra_env != nullptr) env_words.emplace_back(extra_env);
  std::vector<char *> envp;
  for (std::string &w : env_words) envp.push_back(w.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), envp.data()) != 0) return -1;
  return pid;
}

bool exited_ok(int pid) {
  int status = 0;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST(CodeCacheChild, DISABLED_BuildsAndRunsVectorAdd) {
  build_and_run_vector_add();
  const char *expect = std::getenv("ZEAL_TEST_EXPECT_CODE_CACHE");
  const std::string_view want = expect != nullptr ? expect : "any";
  if (want == "hit") {
    EXPECT_EQ(code_cache_stats().hits, 1u) << "a process of the same build and target finds the entry";
  } else if (want == "miss") {
    EXPECT_EQ(code_cache_stats().hits, 0u) << "code for another target CPU must not be found";
    EXPECT_EQ(code_cache_stats().misses, 1u);
  }
}

TEST_F(CodeCacheTest, SeveralProcessesAtOnceThenALaterProcessLoadsTheirCode) {
  std::vector<int> children;
  for (int i = 0; i < 4; ++i) children.push_back(spawn_child("any"));
  for (int pid : children) EXPECT_TRUE(exited_ok(pid));
  for (const fs::path &file : entries(dir)) EXPECT_EQ(file.extension(), ".zobj") << "left behind: " << file;
  EXPECT_EQ(entries(dir).size(), 1u);
  EXPECT_TRUE(exited_ok(spawn_child("hit")));
}

// The target CPU is part of an entry's identity: a process generating code for another compiles again
// (x86-64-v2 runs on every x86-64 CPU CI may have), and its entry sits beside the first.
TEST_F(CodeCacheTest, AProcessOfAnotherTargetCpuCompilesAgain) {
  build_and_run_vector_add();
  flush_code_cache();
  ASSERT_EQ(entries(dir).size(), 1u);
  EXPECT_TRUE(exited_ok(spawn_child("miss", "ZEAL_CPU_TARGET=x86-64-v2")));
  EXPECT_EQ(entries(dir).size(), 2u);
  EXPECT_TRUE(exited_ok(spawn_child("hit", "ZEAL_CPU_TARGET=x86-64-v2")));
  EXPECT_TRUE(exited_ok(spawn_child("hit")));
}

// Run alone, in a ctest entry with ZEAL_CPU_KERNEL_CACHE=0 (and one with ZEAL_CACHE_PERSISTENT=0).
TEST(CodeCacheOff, NothingIsKeptWhenTheCacheIsOff) {
  EXPECT_TRUE(code_cache_directory().empty());
  fs::path folder = zeal::detail::PersistentCache::default_directory() / "cpu";
  fs::remove_all(folder);
  build_and_run_vector_add();
  flush_code_cache();
  EXPECT_FALSE(fs::exists(folder));
  CodeCacheStats stats = code_cache_stats();
  EXPECT_EQ(stats.hits + stats.misses + stats.stores, 0u);
}

} // namespace
} // namespace zeal::cpu::test
