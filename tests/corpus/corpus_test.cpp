// Every module of the real-world SPIR-V corpus (../shared/spirv-corpus) through the CPU driver and zeal-aot, each
// in a child process: nothing may die on a signal or hang, and each module does what expected.tsv records
// (the outcomes this tree reaches, so a regression fails and an improvement is written down).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace {

namespace fs = std::filesystem;

struct ChildRun {
  std::string failure; // empty: exited 0
  std::string output;  // the child's stdout
};

// The timeout is generous for sanitizer builds: the largest module takes 4 s in a release build.
ChildRun run_child(std::vector<std::string> args, const fs::path &output, std::chrono::seconds timeout) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char *> argv;
  for (std::string &arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t child = 0;
  int spawned = posix_spawn(&child, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return {fmt::format("could not start {}: {}", args[0], std::strerror(spawned)), ""};
  auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  bool timed_out = false;
  while (waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::ifstream in(output);
  ChildRun run{"", std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>())};
  if (timed_out) run.failure = fmt::format("still running after {} s", timeout.count());
  else if (WIFSIGNALED(status)) run.failure = fmt::format("died on signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  else if (WEXITSTATUS(status) != 0) run.failure = fmt::format("exit code {}", WEXITSTATUS(status));
  return run;
}

std::vector<fs::path> corpus_modules() {
  std::vector<fs::path> modules;
  for (const auto &entry : fs::directory_iterator(ZEAL_SPIRV_CORPUS))
    if (entry.path().extension() == ".spv") modules.push_back(entry.path());
  std::sort(modules.begin(), modules.end());
  return modules;
}

// expected.tsv: <module file> TAB <the start of corpus_probe's line>.
std::map<std::string, std::string> expected_outcomes() {
  std::map<std::string, std::string> expected;
  std::ifstream in(ZEAL_CORPUS_EXPECTED);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    size_t tab = line.find('\t');
    if (tab != std::string::npos) expected[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return expected;
}

std::string first_line(const std::string &text) { return text.substr(0, text.find('\n')); }

class Corpus : public ::testing::Test {
protected:
  void SetUp() override {
    scratch = fs::temp_directory_path() / fmt::format("zeal-corpus-{}", getpid());
    fs::create_directories(scratch);
  }
  void TearDown() override { fs::remove_all(scratch); }
  fs::path scratch;
};

TEST_F(Corpus, EveryModuleThroughTheDriverDoesWhatItDidAndNothingDies) {
  const std::map<std::string, std::string> expected = expected_outcomes();
  std::vector<fs::path> modules = corpus_modules();
  ASSERT_GE(modules.size(), 165u) << "the corpus at " << ZEAL_SPIRV_CORPUS << " is incomplete";
  std::string table;
  for (const fs::path &module : modules) {
    std::string name = module.filename().string();
    std::vector<std::string> args = {ZEAL_CORPUS_PROBE, module.string()};
    if (const char *no = std::getenv("ZEAL_CORPUS_NO_CODEGEN"); no != nullptr && std::string(no) == "1") {
      args.insert(args.begin() + 1, "--no-codegen");
    }
    ChildRun run = run_child(args, scratch / "probe.out", std::chrono::seconds(300));
    EXPECT_EQ("", run.failure) << name << ": corpus_probe " << run.failure << "\n" << run.output;
    std::string outcome = first_line(run.output);
    table += name + "\t" + outcome + "\n";
    auto want = expected.find(name);
    if (want == expected.end()) {
      ADD_FAILURE() << name << " is not in expected.tsv; it gave: " << outcome;
    } else {
      EXPECT_TRUE(outcome.starts_with(want->second)) << name << ": expected '" << want->second << "', got '" << outcome << "'";
    }
  }
  // ZEAL_CORPUS_TABLE=<file> writes the outcomes, to refresh expected.tsv after an improvement.
  if (const char *path = std::getenv("ZEAL_CORPUS_TABLE")) std::ofstream(path) << table;
}

TEST_F(Corpus, ZealAotCompilesOrRefusesEveryModuleAndNothingDies) {
  for (const fs::path &module : corpus_modules()) {
    ChildRun run = run_child({ZEAL_AOT, "--output-dir", scratch.string(), module.string()}, scratch / "aot.out",
                        std::chrono::seconds(300));
    // zeal-aot exits 1 for a module it refuses, with the reason on stderr; only a signal or a hang is a defect.
    if (run.failure == "exit code 1") continue;
    EXPECT_EQ("", run.failure) << module.filename() << ": zeal-aot " << run.failure;
  }
}

} // namespace
