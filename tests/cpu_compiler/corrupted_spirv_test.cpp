// compile_spirv on real modules with one word corrupted: it builds or refuses with a sentence, and never dies or hangs.
#include "test_support.hpp"

#include <fmt/format.h>

#include <csignal>
#include <fstream>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sys/wait.h>
#include <unistd.h>

namespace zeal::cpu::test {
namespace {

// One corruption of one module, reproducible from (module, seed) alone.
struct Mutation {
  size_t offset = 0; // word index changed (for a swap, the first of the two)
  uint32_t before = 0;
  uint32_t after = 0;
  const char *kind = "";
};

std::vector<uint32_t> to_words(const std::vector<uint8_t> &bytes) {
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

// Word indices where instructions start, for the mutations that aim at opcodes and word counts.
std::vector<size_t> instruction_starts(const std::vector<uint32_t> &words) {
  std::vector<size_t> starts;
  for (size_t at = 5; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16) starts.push_back(at);
  return starts;
}

// mt19937_64's sequence is fixed by the standard, unlike the distributions', so
// the same seed corrupts the same word with every standard library.
Mutation mutate(std::vector<uint32_t> &words, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<size_t> starts = instruction_starts(words);
  size_t offset = 5 + random() % (words.size() - 5);
  uint32_t bound = words[3];
  Mutation m;
  switch (random() % 7) {
  case 0: m = {offset, words[offset], uint32_t(random()), "random word"}; break;
  case 1: m = {offset, words[offset], uint32_t(1 + random() % (bound - 1)), "another id"}; break;
  case 2: m = {offset, words[offset], 0, "zero"}; break;
  case 3: m = {offset, words[offset], words[offset] + (random() % 2 ? 1 : -1), "off by one"}; break;
  case 4: {
    size_t other = 5 + random() % (words.size() - 5);
    m = {offset, words[offset], words[other], "swap"};
    words[other] = m.before;
    break;
  }
  case 5: {
    size_t at = starts[random() % starts.size()];
    uint32_t count = (words[at] >> 16) + (random() % 2 ? 1 : -1);
    m = {at, words[at], (count << 16) | (words[at] & 0xffff), "word count"};
    break;
  }
  default: {
    size_t at = starts[random() % starts.size()];
    m = {at, words[at], (words[at] & 0xffff0000u) | uint32_t(random() % 420), "opcode"};
    break;
  }
  }
  words[m.offset] = m.after;
  return m;
}

std::string describe(const std::string &stem, uint64_t seed, const Mutation &m) {
  return fmt::format("{}.spv, seed {}: {} at word {}, 0x{:08x} -> 0x{:08x}", stem, seed, m.kind, m.offset, m.before,
                     m.after);
}

// Compiles the corruption; a build error must explain itself.
void compile_mutated(const std::vector<uint32_t> &original, const std::string &stem, uint64_t seed) {
  std::vector<uint32_t> words = original;
  Mutation m = mutate(words, seed);
  std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t *>(words.data()), words.size() * 4);
  // ZEAL_FUZZ_DUMP=<folder> keeps each mutated module (<stem>.<seed>.spv), to disassemble a crash.
  if (const char *dump = std::getenv("ZEAL_FUZZ_DUMP")) {
    if (FILE *out = std::fopen(fmt::format("{}/{}.{}.spv", dump, stem, seed).c_str(), "wb")) {
      std::fwrite(bytes.data(), 1, bytes.size(), out);
      std::fclose(out);
    }
  }
  auto program = compile_spirv(bytes, {});
  if (!program.ok() && program.error().log.empty()) {
    std::fprintf(stderr, "%s: build error without a log\n", describe(stem, seed, m).c_str());
    std::_Exit(3);
  }
}

// A test kernel by stem, or a module of the real-world corpus by file name (<name>.spv).
std::vector<uint8_t> module_bytes(const std::string &name) {
#ifdef ZEAL_SPIRV_CORPUS
  if (name.ends_with(".spv")) {
    std::ifstream file(std::string(ZEAL_SPIRV_CORPUS) + "/" + name, std::ios::binary);
    EXPECT_TRUE(file.good()) << "cannot open " << name << " in " << ZEAL_SPIRV_CORPUS;
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  }
#endif
  return load_kernel(name);
}

// Child processes compile seeds [first, last) in turn, telling the parent
// each seed before compiling it; a child that dies is replaced by one that
// resumes after the seed it died on, so one run lists every crashing seed.
std::vector<std::string> failing_seeds(const std::string &stem, uint64_t first, uint64_t last) {
  std::vector<uint32_t> words = to_words(module_bytes(stem));
  std::vector<std::string> failures;
  for (uint64_t next = first; next < last;) {
    int channel[2];
    if (pipe(channel) != 0) return {"pipe() failed"};
    std::fflush(nullptr);
    pid_t child = fork();
    if (child == 0) {
      close(channel[0]);
      for (uint64_t seed = next; seed < last; ++seed) {
        if (write(channel[1], &seed, sizeof seed) != sizeof seed) std::_Exit(4);
        alarm(60); // a hang shows as SIGALRM; generous for sanitizer builds
        compile_mutated(words, stem, seed);
      }
      std::_Exit(0);
    }
    close(channel[1]);
    uint64_t current = next;
    for (uint64_t seed; read(channel[0], &seed, sizeof seed) == sizeof seed;) current = seed;
    close(channel[0]);
    int status = 0;
    waitpid(child, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) break;
    std::vector<uint32_t> copy = words;
    std::string what = WIFSIGNALED(status) ? fmt::format("signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)))
                                           : fmt::format("exit code {}", WEXITSTATUS(status));
    failures.push_back(fmt::format("{} -> {}", describe(stem, current, mutate(copy, current)), what));
    next = current + 1;
  }
  return failures;
}

// ZEAL_FUZZ_SEEDS widens the search when hunting for new crash classes and
// ZEAL_FUZZ_FIRST starts it elsewhere (to replay one seed, with ZEAL_FUZZ_DUMP
// to keep the module); CI runs the default.
uint64_t from_environment(const char *name, uint64_t fallback) {
  const char *text = std::getenv(name);
  return text ? std::strtoull(text, nullptr, 10) : fallback;
}

class CorruptedSpirv : public ::testing::TestWithParam<const char *> {};

TEST_P(CorruptedSpirv, EitherBuildsOrFailsWithALogAndNeverCrashes) {
  uint64_t first = from_environment("ZEAL_FUZZ_FIRST", 0);
  uint64_t last = first + from_environment("ZEAL_FUZZ_SEEDS", 60);
  std::vector<std::string> failures = failing_seeds(GetParam(), first, last);
  for (const std::string &failure : failures) ADD_FAILURE() << failure;
}

// Seeds that once crashed the translator, each a class of corruption check_translator_input now
// refuses by name (found with seeds 0 to 150,000 on each module): replayed on every run.
TEST(CorruptedSpirvRegressions, EarlierCrashesNowFailWithALog) {
  const std::pair<const char *, uint64_t> seeds[] = {
      {"vector_add", 8760},        // an execution mode on a non-entry point
      {"struct_arg", 10857},       // OpAny of a scalar
      {"struct_arg", 27676},       // an extension the translator does not know (it exits)
      {"struct_arg", 28134},       // a built-in variable indexed into another storage class
      {"struct_arg", 40651},       // a 64-bit struct index (the member check overflowed)
      {"atomics", 13136},          // a built-in variable as an atomic's value
      {"atomics", 20652},          // device-side enqueue
      {"atomics", 29588},          // a lifetime size through a non-byte pointer
      {"atomics", 37196},          // a composite constant of a scalar type
      {"atomics", 53012},          // a kernel exported under another kernel's name
      {"integer_builtins", 4817},  // two linkage names for one function
      {"math", 24006},             // linkage on a loaded value
      {"math", 24488},             // OpTypeNamedBarrier
      {"math", 25176},             // a vector shuffle selecting too few components
      {"math", 58450},             // OpExecutionModeId
      {"struct_arg", 89295},       // GlobalInvocationId declared as 32-bit on a 64-bit module
      {"struct_arg", 95777},       // OpSizeOf
      {"atomics", 70308},          // a pipe read
      {"integer_builtins", 96330}, // printf of a non-pointer format (another OpenCL.std instruction's operands)
      {"integer_builtins", 103786}, // OpBitCount of another type (the translator declared popcount twice)
      {"math", 104036},            // a negation of an opaque value
      {"struct_arg", 140617},      // OpTranspose
      {"integer_builtins", 126391}, // distance() of printf's operands (OpenCL.std operands not numbers)
      {"math", 131120},            // OpSMod of floats
  };
  for (const auto &[stem, seed] : seeds) {
    for (const std::string &failure : failing_seeds(stem, seed, seed + 1)) ADD_FAILURE() << failure;
  }
}

#ifdef ZEAL_SPIRV_CORPUS
// The same for corruptions of corpus modules (found with seeds 0 to 12,000 on each).
TEST(CorruptedSpirvRegressions, EarlierCrashesOfCorpusModulesNowFailWithALog) {
  const char *triton = "triton_7KFKLODGHDGEV2UCBYWAFVZEVTPY5QGVMLNKTEPLO32BOWAONIKA_triton_poi_fused_embedding_0.spv";
  const char *triton_red =
      "triton_2NKELKYHMOJCEKRD5Y34ITYMI7DATEWKOS4RZWVBMBXRQNMMJKSA_triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_6.spv";
  const std::pair<const char *, uint64_t> seeds[] = {
      {triton, 25},                               // a variable named __spirv_BuiltIn* without the decoration
      {triton, 58},                               // an integer comparison made a floating-point one
      {triton, 220},                              // a comparison typed as an integer
      {triton_red, 1101},                         // a non-uniform group operation at work-group scope
      {"rodinia_kernel_gpu_opencl.spv", 254},     // a decoration group decorated after its definition
      {"rodinia_kernel_gpu_opencl.spv", 1183},    // OpTypeRuntimeArray (the translator exits)
      {"rodinia_kernel_gpu_opencl.spv", 1285},    // OpGroupMemberDecorate
      {"lzt_ze_nano_benchmarks.spv", 357},        // an image type's multisampled operand out of range
      {"lzt_ze_nano_benchmarks.spv", 1290},       // an image of 8-bit integers
      {triton, 7558},                             // another instruction among a function's parameters
      {triton_red, 6760},                         // a bfloat16 conversion of a 32-bit integer (the translator exits)
      {triton_red, 7111},                         // the same, of another type
      {"lzt_ze_nano_benchmarks.spv", 8407},       // an image sampled at compile time
      {"lzt_ze_nano_benchmarks.spv", 11414},      // an image of a dimension the translator lacks
  };
  for (const auto &[name, seed] : seeds) {
    for (const std::string &failure : failing_seeds(name, seed, seed + 1)) ADD_FAILURE() << failure;
  }
}
#endif

#ifdef ZEAL_SPIRV_CORPUS
// Modules other compilers emitted (../shared/spirv-corpus): Triton's with debug information, one-component
// vectors and bfloat16 conversions, DPC++-style built-ins, clang + llvm-spirv's from Rodinia and level-zero-tests.
INSTANTIATE_TEST_SUITE_P(
    CorpusModules, CorruptedSpirv,
    ::testing::Values("triton_7KFKLODGHDGEV2UCBYWAFVZEVTPY5QGVMLNKTEPLO32BOWAONIKA_triton_poi_fused_embedding_0.spv",
                      "triton_2NKELKYHMOJCEKRD5Y34ITYMI7DATEWKOS4RZWVBMBXRQNMMJKSA_triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_6.spv",
                      "rodinia_kernel_gpu_opencl.spv", "lzt_ze_nano_benchmarks.spv", "tornadovm_reduce04_uncompressed.spv",
                      "rodinia_particle_double.spv", "rodinia_mergesort.spv", "lzt_sysman_matrix_multiplication.spv",
                      "l0jni_copyParameters.spv"),
    [](const auto &param) {
      std::string name = param.param;
      return name.substr(0, std::min<size_t>(name.find('_', 8), name.size() - 4));
    });
#endif

INSTANTIATE_TEST_SUITE_P(RealModules, CorruptedSpirv,
                         ::testing::Values("vector_add", "struct_arg", "local_arg", "barrier", "atomics",
                                           "integer_builtins", "math"),
                         [](const auto &param) { return std::string(param.param); });

} // namespace
} // namespace zeal::cpu::test
