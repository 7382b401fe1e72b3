// Resources over long runs (issue 22), every result checked:
//   resources dlopen CYCLES      dlopen/dlclose of a library with device images, one of its kernels launched per
//                                cycle; resident memory and open descriptors after the last cycle within 5% of
//                                what they were after the tenth.
//   resources programs CYCLES    program and kernel create, build, launch and release through zeal's C ABI, a
//                                different program each cycle (so each is compiled and JIT-linked anew);
//                                resident memory after the last cycle within 5% of after the tenth percentile.
//   resources cache-race BUILDS  two processes (this program again, `cache-worker`) each building BUILDS
//                                programs drawn from the same set of 200 on the persistent cache folder
//                                ZEAL_CACHE_DIR with a ZEAL_CACHE_MAX_SIZE that forces eviction; afterwards the
//                                folder's entries fit in that limit.
// Exits 0 when all held ("resources ...: ok"), 1 naming what did not, 2 on bad arguments.
#include "tests/support/launch_1d.hpp"

#include <zeal/zeal.hpp>

#include <dirent.h>
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

// Resident memory, in bytes.
uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * uint64_t(sysconf(_SC_PAGESIZE));
}

// Open file descriptors.
size_t open_descriptors() {
  size_t n = 0;
  if (DIR *dir = opendir("/proc/self/fd")) {
    while (readdir(dir) != nullptr) ++n;
    closedir(dir);
  }
  return n - 3; // ".", ".." and the descriptor reading the folder
}

// Under ASan or TSan, freed memory waits in the sanitizer's quarantine, so resident memory grows whatever zeal
// does: there the growth is reported, not judged, and LeakSanitizer (ASan) checks for leaks at exit instead.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool judge_resident_memory = false;
#else
constexpr bool judge_resident_memory = true;
#endif

bool within(uint64_t later, uint64_t earlier, double slack) { return double(later) <= double(earlier) * (1 + slack); }

// Whether resident memory stayed within 5%; says why it is not judged under a sanitizer.
bool resident_memory_held(uint64_t later, uint64_t earlier) {
  if (judge_resident_memory) return within(later, earlier, 0.05);
  std::printf("resources: resident memory not judged in a sanitizer build (its quarantine keeps freed memory)\n");
  return true;
}

int fail(const std::string &what) {
  std::fprintf(stderr, "resources: %s\n", what.c_str());
  return 1;
}

// ---- dlopen ----

using FillFn = int (*)(int *, int, int);

int run_dlopen(long cycles) {
  constexpr int n = 1024;
  zeal::queue q;
  int *data = zeal::malloc_shared<int>(n, q);
  uint64_t rss_tenth = 0;
  size_t fds_tenth = 0;
  for (long cycle = 1; cycle <= cycles; ++cycle) {
    void *lib = dlopen(ZEAL_TEST_PLUGIN, RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) return fail(std::string("dlopen: ") + dlerror());
    auto fill = reinterpret_cast<FillFn>(dlsym(lib, "plugin_fill_with"));
    if (fill == nullptr) return fail("the plugin has no plugin_fill_with");
    const int value = int(cycle * 7);
    if (fill(data, n, value) != 0) return fail("cycle " + std::to_string(cycle) + ": the plugin's launch failed");
    for (int i = 0; i < n; ++i)
      if (data[i] != value)
        return fail("cycle " + std::to_string(cycle) + ": data[" + std::to_string(i) + "] = " + std::to_string(data[i]) +
                    ", expected " + std::to_string(value));
    if (dlclose(lib) != 0) return fail(std::string("dlclose: ") + dlerror());
    if (cycle == 10) {
      rss_tenth = resident_bytes();
      fds_tenth = open_descriptors();
    }
  }
  zeal::free(data, q);
  const uint64_t rss = resident_bytes();
  const size_t fds = open_descriptors();
  std::printf("resources dlopen: %ld cycles; resident %.1f MiB after the 10th, %.1f MiB after the last; "
              "%zu descriptors after the 10th, %zu after the last\n",
              cycles, double(rss_tenth) / (1 << 20), double(rss) / (1 << 20), fds_tenth, fds);
  if (cycles >= 10 && !resident_memory_held(rss, rss_tenth)) return fail("resident memory grew by more than 5%");
  if (cycles >= 10 && !within(fds, fds_tenth, 0.05)) return fail("open descriptors grew by more than 5%");
  return 0;
}

// ---- programs ----

constexpr uint32_t kTag = 0x5EED0000; // the constant tagged.cl adds; each program replaces it with kTag + its value

std::vector<uint8_t> read_file(const char *path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// tagged.spv with its tag constant made kTag + value: a program of its own, compiled to code of its own.
std::vector<uint8_t> tagged_program(const std::vector<uint8_t> &spirv, uint32_t value) {
  std::vector<uint8_t> out = spirv;
  for (size_t at = 20; at + 4 <= out.size(); at += 4) { // past the five-word header
    uint32_t word;
    std::memcpy(&word, out.data() + at, 4);
    if (word == kTag) {
      word = kTag + value;
      std::memcpy(out.data() + at, &word, 4);
      return out;
    }
  }
  return {};
}

// Builds program `value` on `context`, runs its kernel over n items and checks out[i] = 3 i + kTag + value.
std::string build_and_run(const zeal_adapter_dispatch_t &d, zeal_context_handle_t context,
                          zeal_device_handle_t device, zeal_queue_handle_t queue, const std::vector<uint8_t> &spirv,
                          uint32_t value, int *out, size_t n) {
  std::vector<uint8_t> program_spirv = tagged_program(spirv, value);
  if (program_spirv.empty()) return "tagged.spv has no tag constant to replace";
  zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_SPIRV, program_spirv.data(), program_spirv.size(), 0, nullptr};
  zeal_program_handle_t program = nullptr;
  zeal_kernel_handle_t kernel = nullptr;
  std::string problem;
  auto ok = [&](zeal_result_t r, const char *call) {
    if (r != ZEAL_RESULT_SUCCESS && problem.empty()) problem = std::string(call) + ": " + d.getLastErrorMessage();
    return r == ZEAL_RESULT_SUCCESS;
  };
  if (ok(d.programCreate(context, device, &desc, &program), "programCreate") &&
      ok(d.programBuild(program, nullptr), "programBuild") && ok(d.kernelCreate(program, "tagged", &kernel), "kernelCreate")) {
    const zeal_kernel_arg_t args[] = {{0, ZEAL_KERNEL_ARG_USM_POINTER, 0, out}};
    const zeal_launch_desc_t launch = zeal_test::launch_1d(n, 0, 1, args);
    if (ok(d.enqueueKernelLaunch(queue, kernel, &launch, 0, nullptr, nullptr), "enqueueKernelLaunch") &&
        ok(d.queueFinish(queue), "queueFinish")) {
      for (size_t i = 0; i < n; ++i) {
        const int expected = int(3 * i + kTag + value);
        if (out[i] != expected) {
          problem = "program " + std::to_string(value) + ": out[" + std::to_string(i) + "] = " + std::to_string(out[i]) +
                    ", expected " + std::to_string(expected);
          break;
        }
      }
    }
  }
  if (kernel != nullptr) d.kernelRelease(kernel);
  if (program != nullptr) d.programRelease(program);
  return problem;
}

// Runs `body(d, context, device, queue, spirv, out)` with a context, a queue and a shared buffer of 256 ints.
template <class Body>
int with_context(Body &&body) {
  const zeal::device dev;
  const zeal_adapter_dispatch_t &d = dev.dispatch();
  zeal_device_handle_t device = dev.native_handle();
  zeal_context_handle_t context = nullptr;
  zeal_queue_handle_t queue = nullptr;
  void *out = nullptr;
  const std::vector<uint8_t> spirv = read_file(ZEAL_TEST_TAGGED_SPIRV);
  if (spirv.empty()) return fail("cannot read " ZEAL_TEST_TAGGED_SPIRV);
  if (d.contextCreate(1, &device, &context) != ZEAL_RESULT_SUCCESS ||
      d.queueCreate(context, device, ZEAL_QUEUE_FLAG_IN_ORDER, &queue) != ZEAL_RESULT_SUCCESS ||
      d.usmAlloc(context, device, ZEAL_USM_KIND_SHARED, 256 * sizeof(int), 0, &out) != ZEAL_RESULT_SUCCESS)
    return fail(std::string("setting up: ") + d.getLastErrorMessage());
  int status = body(d, context, device, queue, spirv, static_cast<int *>(out));
  d.usmFree(context, out);
  d.queueRelease(queue);
  d.contextRelease(context);
  return status;
}

int run_programs(long cycles) {
  return with_context([&](const zeal_adapter_dispatch_t &d, zeal_context_handle_t context, zeal_device_handle_t device,
                          zeal_queue_handle_t queue, const std::vector<uint8_t> &spirv, int *out) {
    const long baseline_at = std::max(10L, cycles / 10);
    uint64_t rss_baseline = 0;
    const auto start = std::chrono::steady_clock::now();
    for (long cycle = 1; cycle <= cycles; ++cycle) {
      std::string problem = build_and_run(d, context, device, queue, spirv, uint32_t(cycle), out, 256);
      if (!problem.empty()) return fail("cycle " + std::to_string(cycle) + ": " + problem);
      if (cycle == baseline_at) rss_baseline = resident_bytes();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const uint64_t rss = resident_bytes();
    std::printf("resources programs: %ld programs built, run and released (%.2f ms each); resident %.1f MiB after "
                "cycle %ld, %.1f MiB after the last\n",
                cycles, seconds * 1e3 / double(cycles), double(rss_baseline) / (1 << 20), baseline_at,
                double(rss) / (1 << 20));
    if (cycles >= baseline_at && !resident_memory_held(rss, rss_baseline))
      return fail("resident memory grew by more than 5%");
    return 0;
  });
}

// ---- cache race ----

int run_cache_worker(long builds, long seed) {
  return with_context([&](const zeal_adapter_dispatch_t &d, zeal_context_handle_t context, zeal_device_handle_t device,
                          zeal_queue_handle_t queue, const std::vector<uint8_t> &spirv, int *out) {
    for (long i = 0; i < builds; ++i) {
      // Both workers draw from the same 200 programs in different orders: each finds entries the other wrote,
      // entries being evicted, and entries being written.
      const auto value = uint32_t((i * (seed == 0 ? 7 : 13) + seed * 101) % 200);
      std::string problem = build_and_run(d, context, device, queue, spirv, value, out, 256);
      if (!problem.empty()) return fail("worker " + std::to_string(seed) + " build " + std::to_string(i) + ": " + problem);
    }
    return 0;
  });
}

int run_cache_race(const char *self, long builds) {
  const char *dir = std::getenv("ZEAL_CACHE_DIR");
  const char *limit = std::getenv("ZEAL_CACHE_MAX_SIZE");
  if (dir == nullptr || limit == nullptr) return fail("cache-race needs ZEAL_CACHE_DIR and ZEAL_CACHE_MAX_SIZE (in bytes)");
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  const auto start = std::chrono::steady_clock::now();
  pid_t workers[2];
  for (long seed = 0; seed < 2; ++seed) {
    workers[seed] = fork();
    if (workers[seed] == 0) {
      const std::string b = std::to_string(builds), s = std::to_string(seed);
      execl("/proc/self/exe", self, "cache-worker", b.c_str(), s.c_str(), static_cast<char *>(nullptr));
      _exit(127);
    }
  }
  bool workers_ok = true;
  for (pid_t pid : workers) {
    int status = 0;
    waitpid(pid, &status, 0);
    workers_ok = workers_ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  if (!workers_ok) return fail("a cache-race worker failed (its message is above)");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  uint64_t total = 0;
  size_t entries = 0, temporaries = 0;
  for (const auto &file : std::filesystem::recursive_directory_iterator(dir, ec)) {
    if (!file.is_regular_file()) continue;
    const std::string name = file.path().filename().string();
    if (name.find(".tmp.") != std::string::npos) {
      ++temporaries;
      continue;
    }
    ++entries;
    total += file.file_size();
  }
  const uint64_t max = std::strtoull(limit, nullptr, 10);
  std::printf("resources cache-race: 2 processes x %ld builds in %.1f s, every result right; the folder holds %zu "
              "entries, %llu bytes (limit %llu)\n",
              builds, seconds, entries, static_cast<unsigned long long>(total), static_cast<unsigned long long>(max));
  if (temporaries != 0) return fail(std::to_string(temporaries) + " temporary file(s) were left in the folder");
  if (entries == 0) return fail("no entry was kept: the cache was not used");
  if (total > max) return fail("the folder's entries exceed the cache's limit");
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const long count = argc > 2 ? std::atol(argv[2]) : 0;
  int status = 2;
  try {
    if (mode == "dlopen" && count > 0) status = run_dlopen(count);
    else if (mode == "programs" && count > 0) status = run_programs(count);
    else if (mode == "cache-race" && count > 0) status = run_cache_race(argv[0], count);
    else if (mode == "cache-worker" && count > 0 && argc > 3) return run_cache_worker(count, std::atol(argv[3]));
  } catch (const zeal::exception &e) {
    status = fail(e.what());
  }
  if (status == 2)
    std::fprintf(stderr, "usage: resources dlopen|programs|cache-race COUNT\n");
  else if (status == 0)
    std::printf("resources %s: ok\n", mode.c_str());
  return status;
}
