// Every OpenCL C kernel file of the CPU driver's tests and every module of the SPIR-V corpus through compile_ptx,
// each in a child process (two at a time): nothing may die or hang, and each does what ptx_expected.tsv records.
// ZEAL_PTX_TABLE=<file> writes the outcomes, to refresh the table after an improvement (review the diff).
#include "cuda_driver/compiler/ptx_compiler.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Input {
  std::string name; // as the table names it: cpu/<file> or corpus/<file>
  fs::path path;
};

std::vector<Input> inputs() {
  std::vector<Input> found;
  auto add = [&](const std::string &prefix, const std::string &dir) {
    if (dir.empty() || !fs::is_directory(dir)) return;
    std::vector<Input> here;
    for (const auto &entry : fs::directory_iterator(dir)) {
      if (entry.path().extension() == ".spv") here.push_back({prefix + entry.path().filename().string(), entry.path()});
    }
    std::sort(here.begin(), here.end(), [](const Input &a, const Input &b) { return a.name < b.name; });
    found.insert(found.end(), here.begin(), here.end());
  };
  add("cpu/", ZEAL_PTX_CPU_KERNEL_DIR);
  add("corpus/", ZEAL_PTX_CORPUS);
  return found;
}

// "built <n> kernels" (with ", <m> refused: <the first one's sentence>" when the module builds without some of its
// kernels) or "refused: <sentence>", on one line.
std::string built(const zeal::cuda::PtxProgram &program) {
  std::string line = "built\t" + std::to_string(program.kernels.size()) + " kernels";
  size_t refused = 0;
  std::string first;
  for (const zeal::cuda::PtxKernel &k : program.kernels) {
    if (k.refusal.empty()) continue;
    if (refused++ == 0) first = k.refusal;
  }
  if (refused > 0) line += ", " + std::to_string(refused) + " refused: " + first;
  return line;
}

std::string outcome(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> spirv{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  auto result = zeal::cuda::compile_ptx(spirv, zeal::cuda::PtxOptions{});
  std::string line = result ? built(*result) : "refused\t" + result.error().message;
  for (char &c : line) {
    if (c == '\n') c = ' ';
  }
  return line;
}

struct Child {
  pid_t pid = 0;
  int pipe = -1;
  size_t index = 0;
  std::chrono::steady_clock::time_point started;
};

Child start(const Input &input, size_t index) {
  int ends[2];
  if (::pipe(ends) != 0) return {};
  pid_t pid = fork();
  if (pid == 0) {
    ::close(ends[0]);
    std::string line = outcome(input.path);
    ssize_t written = ::write(ends[1], line.data(), line.size());
    _exit(written == static_cast<ssize_t>(line.size()) ? 0 : 3);
  }
  ::close(ends[1]);
  return {pid, ends[0], index, std::chrono::steady_clock::now()};
}

// The child's line, or why it gave none (a signal, an exit code, a hang).
std::string finish(Child &child, int status, bool timed_out) {
  std::string line;
  char buffer[4096];
  for (ssize_t n; (n = ::read(child.pipe, buffer, sizeof buffer)) > 0;) line.append(buffer, static_cast<size_t>(n));
  ::close(child.pipe);
  if (timed_out) return "died\tstill running after 120 s";
  if (WIFSIGNALED(status)) return std::string("died\tsignal ") + strsignal(WTERMSIG(status));
  if (WEXITSTATUS(status) != 0) return "died\texit code " + std::to_string(WEXITSTATUS(status));
  return line;
}

std::vector<std::string> run_all(const std::vector<Input> &all, unsigned parallel) {
  std::vector<std::string> lines(all.size());
  std::vector<Child> running;
  size_t next = 0;
  while (next < all.size() || !running.empty()) {
    while (running.size() < parallel && next < all.size()) running.push_back(start(all[next], next)), ++next;
    for (auto it = running.begin(); it != running.end();) {
      int status = 0;
      bool timed_out = std::chrono::steady_clock::now() - it->started > std::chrono::seconds(120);
      if (timed_out) kill(it->pid, SIGKILL);
      if (waitpid(it->pid, &status, timed_out ? 0 : WNOHANG) == 0) {
        ++it;
        continue;
      }
      lines[it->index] = finish(*it, status, timed_out);
      it = running.erase(it);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return lines;
}

// ptx_expected.tsv: <name> TAB built|refused TAB <the start of the count or sentence>.
std::map<std::string, std::string> expected_outcomes() {
  std::map<std::string, std::string> expected;
  std::ifstream in(ZEAL_PTX_EXPECTED);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    size_t tab = line.find('\t');
    if (tab != std::string::npos) expected[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return expected;
}

// The start of a sentence kept in the table: its first eight words.
std::string first_words(const std::string &text) {
  size_t at = 0;
  for (int words = 0; words < 8 && at != std::string::npos; ++words) at = text.find(' ', at + 1);
  return text.substr(0, at);
}

TEST(PtxCorpus, EveryKernelFileAndCorpusModuleBuildsOrIsRefusedAsRecordedAndNothingDies) {
  std::vector<Input> all = inputs();
  ASSERT_FALSE(all.empty()) << "no inputs in " << ZEAL_PTX_CPU_KERNEL_DIR;
  std::vector<std::string> lines = run_all(all, std::max(2u, std::thread::hardware_concurrency()));
  std::map<std::string, std::string> expected = expected_outcomes();
  std::string table = "# What compile_ptx does with each kernel file of tests/cpu_driver/kernels and each corpus module:\n"
                      "# built|refused and the start of the count or sentence. Refresh: ZEAL_PTX_TABLE=/tmp/t.tsv "
                      "build/default/bin/ptx_compiler_test --gtest_filter=PtxCorpus.*\n";
  for (size_t i = 0; i < all.size(); ++i) {
    const std::string &line = lines[i];
    EXPECT_FALSE(line.starts_with("died")) << all[i].name << ": " << line;
    size_t tab = line.find('\t');
    std::string kept = line.substr(0, tab + 1) + first_words(line.substr(tab + 1));
    table += all[i].name + "\t" + kept + "\n";
    auto want = expected.find(all[i].name);
    if (want == expected.end()) {
      ADD_FAILURE() << all[i].name << " is not in ptx_expected.tsv; it gave: " << line;
    } else {
      EXPECT_TRUE(line.starts_with(want->second)) << all[i].name << ": expected '" << want->second << "', got '" << line << "'";
    }
  }
  if (const char *path = std::getenv("ZEAL_PTX_TABLE")) std::ofstream(path) << table;
}

} // namespace
