// A persistent cache folder that cannot keep entries (issue 22): read-only, missing and not creatable, or on a
// file system that is full. Each case runs this program again as a child (`--child`) with ZEAL_CACHE_DIR set, so
// that settings are read afresh; the child builds and runs the kernels of two images and checks every result.
// The run must succeed, leave the folder as it was (or absent), and log exactly one warning about the folder,
// not one per entry. Each case runs twice: with the CPU driver's own kernel code cache and, with that turned
// off (ZEAL_CPU_KERNEL_CACHE=0), with the runtime's cache of whole programs.
#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <linux/capability.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// The child's work: each of the four kernels once, every result checked. Returns the exit status.
int run_child() {
  // A read-only folder must stay read-only for root too: drop the capabilities that override permissions.
  if (std::getenv("ZEAL_TEST_DROP_DAC") != nullptr) {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2] = {};
    if (syscall(SYS_capget, &header, data) == 0) {
      for (int cap : {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER}) data[cap / 32].effective &= ~(1u << cap % 32);
      if (syscall(SYS_capset, &header, data) != 0) std::perror("cache-child: capset");
    }
  }
  // A full file system, as the kernel reports it to a writer: every write past one byte fails.
  if (std::getenv("ZEAL_TEST_FULL_FS") != nullptr) {
    signal(SIGXFSZ, SIG_IGN); // a write past the limit then fails with EFBIG instead of killing the process
    rlimit limit{1, 1};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) std::perror("cache-child: setrlimit");
  }
  try {
    constexpr size_t n = 256;
    zeal::queue q;
    int *data = zeal::malloc_shared<int>(n, q);
    for (size_t i = 0; i < n; ++i) data[i] = int(i);
    q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("cache_square"), data).wait();
    q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("cache_offset"), data, 5).wait();
    q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("cache_negate"), data).wait();
    q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("cache_times"), data, 3).wait();
    for (size_t i = 0; i < n; ++i) {
      const int expected = -(int(i * i) + 5) * 3;
      if (data[i] != expected) {
        std::printf("cache-child: data[%zu] = %d, expected %d\n", i, data[i], expected);
        return 1;
      }
    }
    zeal::free(data, q);
  } catch (const zeal::exception &e) {
    std::printf("cache-child: %s\n", e.what());
    return 1;
  }
  std::printf("cache-child: every result right\n");
  return 0;
}

struct ChildRun {
  int status = -1;
  std::string output; // stdout and stderr, interleaved
  int warnings() const {
    int count = 0;
    for (size_t at = output.find("[warning]"); at != std::string::npos; at = output.find("[warning]", at + 1)) ++count;
    return count;
  }
};

// Runs this program as a child with the environment changes given; returns its exit status and output.
ChildRun run_as_child(const std::map<std::string, std::string> &environment) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return {};
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], 1);
    dup2(pipe_fds[1], 2);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    for (const auto &[name, value] : environment) setenv(name.c_str(), value.c_str(), 1);
    execl("/proc/self/exe", "cache_faults_test", "--child", static_cast<char *>(nullptr));
    _exit(127);
  }
  close(pipe_fds[1]);
  ChildRun run;
  char buffer[4096];
  for (ssize_t got; (got = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) run.output.append(buffer, size_t(got));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return run;
}

// Every file below `dir` with its size (entries and any leftover temporary file).
std::map<std::string, uintmax_t> listing(const fs::path &dir) {
  std::map<std::string, uintmax_t> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file()) files[fs::relative(it->path(), dir).string()] = it->file_size();
  return files;
}

// The child ran every kernel right and warned once, naming the folder.
void expect_success_with_one_warning(const ChildRun &run, const fs::path &cache) {
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("every result right"), std::string::npos) << run.output;
  EXPECT_EQ(run.warnings(), 1) << run.output;
  EXPECT_NE(run.output.find(cache.string()), std::string::npos) << "the warning names the folder\n" << run.output;
}

// Which cache keeps the built code: the CPU driver's per-kernel cache, or the runtime's per-program one.
class CacheFaults : public ::testing::TestWithParam<const char *> {
protected:
  void SetUp() override {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name(); // "Case/driver"
    for (char &c : name) c = c == '/' ? '-' : c;
    dir_ = fs::temp_directory_path() / ("zeal-cache-faults-" + std::to_string(getpid()) + "-" + name);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir_, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
      fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(dir_, ec);
  }
  std::map<std::string, std::string> environment(const fs::path &cache) const {
    std::map<std::string, std::string> env{{"ZEAL_CACHE_DIR", cache.string()}, {"ZEAL_LOG_LEVEL", "warn"}};
    if (std::string(GetParam()) == "runtime") env["ZEAL_CPU_KERNEL_CACHE"] = "0";
    return env;
  }
  fs::path dir_;
};

TEST_P(CacheFaults, AWritableFolderIsFilledWithoutAWarning) {
  const fs::path cache = dir_ / "cache";
  ChildRun run = run_as_child(environment(cache));
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("every result right"), std::string::npos) << run.output;
  EXPECT_EQ(run.warnings(), 0) << run.output;
  EXPECT_GE(listing(cache).size(), 2u) << "the run should have stored its built code in " << cache;
}

TEST_P(CacheFaults, AReadOnlyFolderIsReadButNotWrittenAndWarnedAboutOnce) {
  const fs::path cache = dir_ / "cache";
  // Filled by a first run, then made read-only (and its subfolders), and emptied of one entry so that the
  // second run has something to store.
  ASSERT_EQ(run_as_child(environment(cache)).status, 0);
  auto before = listing(cache);
  ASSERT_GE(before.size(), 2u);
  fs::remove(cache / before.begin()->first);
  before.erase(before.begin());
  for (auto it = fs::recursive_directory_iterator(cache); it != fs::recursive_directory_iterator(); ++it)
    if (it->is_directory()) fs::permissions(it->path(), fs::perms(0555));
  fs::permissions(cache, fs::perms(0555));

  auto env = environment(cache);
  env["ZEAL_TEST_DROP_DAC"] = "1";
  expect_success_with_one_warning(run_as_child(env), cache);
  EXPECT_EQ(listing(cache), before) << "a read-only folder must be left as it was";
}

TEST_P(CacheFaults, AFolderThatCannotBeCreatedIsWarnedAboutOnce) {
  // Its parent is a regular file: no one, root included, can create the folder.
  std::ofstream(dir_ / "a-file") << "not a folder\n";
  const fs::path cache = dir_ / "a-file" / "cache";
  expect_success_with_one_warning(run_as_child(environment(cache)), cache);
}

TEST_P(CacheFaults, AFullFileSystemIsWarnedAboutOnceAndLeavesNoPartialFiles) {
  const fs::path cache = dir_ / "cache";
  auto env = environment(cache);
  env["ZEAL_TEST_FULL_FS"] = "1";
  expect_success_with_one_warning(run_as_child(env), cache);
  EXPECT_TRUE(listing(cache).empty()) << "no entry and no partial temporary file may be left behind";
}

INSTANTIATE_TEST_SUITE_P(Caches, CacheFaults, ::testing::Values("driver", "runtime"),
                         [](const auto &param_info) { return std::string(param_info.param); });

} // namespace

int main(int argc, char **argv) {
  if (argc == 2 && std::strcmp(argv[1], "--child") == 0) return run_child();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
